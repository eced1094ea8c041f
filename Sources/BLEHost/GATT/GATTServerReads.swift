import BLEWire

extension GATTServer {
    /// Runs a read-type request with the app's answers so far: sends the response, or asks
    /// the app for the next dynamic value and parks the request until it answers.
    mutating func runRead(_ request: ATT.PDU, connection: UInt16, security: LinkSecurity,
                          answers: [ReadKey: Result<[UInt8], ATT.ErrorCode>]) -> [GATTServerOutput] {
        let outcome: ReadOutcome
        let mtu = mtu(for: connection)
        let context = ReadContext(connection: connection, security: security, mtu: mtu, answers: answers)
        switch request {
        case let .readRequest(read): outcome = self.read(read, context)
        case let .readBlobRequest(read): outcome = readBlob(read, context)
        case let .readMultipleRequest(read): outcome = readMultiple(read.setOfHandles, variable: false, context)
        case let .readMultipleVariableRequest(read): outcome = readMultiple(read.setOfHandles, variable: true, context)
        case let .readByTypeRequest(read): outcome = readByType(read, context)
        case let .readByGroupTypeRequest(read): outcome = .response(readByGroupType(read, context))
        case let .findInformationRequest(find): outcome = .response(findInformation(find, mtu: mtu))
        case let .findByTypeValueRequest(find): outcome = .response(findByTypeValue(find, context))
        default: return []
        }
        switch outcome {
        case let .response(pdu):
            return [.send(connection: connection, pdu: pdu)]
        case let .needsApp(key):
            let id = makeRequestID()
            pendingApp[id] = connection
            clients[connection]?.parked = .read(ParkedRead(request: request, security: security, answers: answers,
                                                           awaiting: id, awaitingKey: key))
            let type = database.attribute(at: key.handle)?.type ?? BluetoothUUID(0)
            return [.appRead(GATTAppRequest(id: id, connection: connection, handle: key.handle, attributeType: type,
                                            offset: key.offset, value: [], expectsResponse: true))]
        }
    }

    /// What every read handler needs.
    struct ReadContext {
        let connection: UInt16
        let security: LinkSecurity
        let mtu: Int
        let answers: [ReadKey: Result<[UInt8], ATT.ErrorCode>]
    }

    /// Read Request (Core 5.4, Vol 3, Part F, §3.4.4.3): the value, cut to ATT_MTU − 1.
    func read(_ request: ATT.ReadRequest, _ context: ReadContext) -> ReadOutcome {
        let handle = request.attributeHandle
        guard let attribute = database.attribute(at: handle) else {
            return .response(GATTServer.errorResponse(.readRequest, handle, .invalidHandle))
        }
        if let code = permissionError(.read, attribute, connection: context.connection, security: context.security) {
            return .response(GATTServer.errorResponse(.readRequest, handle, code))
        }
        switch lookupValue(attribute, offset: 0, connection: context.connection, answers: context.answers) {
        case let .value(value): return .response([ATT.Opcode.readResponse.rawValue] + value.prefix(context.mtu - 1))
        case let .error(code): return .response(GATTServer.errorResponse(.readRequest, handle, code))
        case .needsApp: return .needsApp(ReadKey(handle: handle, offset: 0))
        }
    }

    /// Read Blob Request (§3.4.4.5): the value from an offset, cut to ATT_MTU − 1. An
    /// offset past the end gets Invalid Offset; a non-zero offset into a fixed-length GATT
    /// attribute that fits one Read Response gets Attribute Not Long. (Bumble 0.0.236
    /// answers Attribute Not Long for any value of at most ATT_MTU − 1 octets, even at
    /// offset 0; we answer a part, as §3.4.4.5 allows.)
    func readBlob(_ request: ATT.ReadBlobRequest, _ context: ReadContext) -> ReadOutcome {
        let handle = request.attributeHandle
        let offset = Int(request.valueOffset)
        guard let attribute = database.attribute(at: handle) else {
            return .response(GATTServer.errorResponse(.readBlobRequest, handle, .invalidHandle))
        }
        if let code = permissionError(.read, attribute, connection: context.connection, security: context.security) {
            return .response(GATTServer.errorResponse(.readBlobRequest, handle, code))
        }
        if attribute.isFixedLength, offset > 0, let held = heldValue(attribute, connection: context.connection),
           held.count <= context.mtu - 1 {
            return .response(GATTServer.errorResponse(.readBlobRequest, handle, .attributeNotLong))
        }
        switch lookupValue(attribute, offset: offset, connection: context.connection, answers: context.answers) {
        case let .value(part): return .response([ATT.Opcode.readBlobResponse.rawValue] + part.prefix(context.mtu - 1))
        case let .error(code): return .response(GATTServer.errorResponse(.readBlobRequest, handle, code))
        case .needsApp: return .needsApp(ReadKey(handle: handle, offset: offset))
        }
    }

    /// Read Multiple Request (§3.4.4.7) and Read Multiple Variable Request (§3.4.4.11):
    /// every handle is checked first (the first failing one is named in the Error
    /// Response), then the values are concatenated — bare, or each after its 16-bit
    /// length — and cut to ATT_MTU − 1.
    func readMultiple(_ handles: [ATT.Handle], variable: Bool, _ context: ReadContext) -> ReadOutcome {
        let opcode: ATT.Opcode = variable ? .readMultipleVariableRequest : .readMultipleRequest
        var attributes: [GATTAttribute] = []
        for handle in handles {
            guard let attribute = database.attribute(at: handle) else {
                return .response(GATTServer.errorResponse(opcode, handle, .invalidHandle))
            }
            if let code = permissionError(.read, attribute, connection: context.connection, security: context.security) {
                return .response(GATTServer.errorResponse(opcode, handle, code))
            }
            attributes.append(attribute)
        }
        var writer = ByteWriter(capacity: context.mtu)
        writer.write(variable ? ATT.Opcode.readMultipleVariableResponse.rawValue : ATT.Opcode.readMultipleResponse.rawValue)
        for attribute in attributes {
            switch lookupValue(attribute, offset: 0, connection: context.connection, answers: context.answers) {
            case let .value(value):
                if variable { writer.write(UInt16(truncatingIfNeeded: value.count)) }
                writer.write(contentsOf: value)
            case let .error(code): return .response(GATTServer.errorResponse(opcode, attribute.handle, code))
            case .needsApp: return .needsApp(ReadKey(handle: attribute.handle, offset: 0))
            }
        }
        return .response(Array(writer.bytes.prefix(context.mtu)))
    }

    /// Read By Type Request (§3.4.4.1, §3.4.4.2): the handle and value of each attribute of
    /// the type in the range, all of one length (the first value's, cut to
    /// min(ATT_MTU − 4, 253)) and as many as fit. An error on the first attribute is the
    /// answer; an error on a later one ends the list before it. A cut first value is sent
    /// alone, so a client knows which value to read in full.
    func readByType(_ request: ATT.ReadByTypeRequest, _ context: ReadContext) -> ReadOutcome {
        let start = request.startingHandle
        guard let range = GATTServer.handleRange(start, request.endingHandle) else {
            return .response(GATTServer.errorResponse(.readByTypeRequest, start, .invalidHandle))
        }
        let matches = database.attributes(in: range).filter { $0.type == request.attributeType }
        guard !matches.isEmpty else { return .response(GATTServer.errorResponse(.readByTypeRequest, start, .attributeNotFound)) }
        let longest = min(context.mtu - 4, 253)
        var writer = ByteWriter(capacity: context.mtu)
        var length: Int?
        var count = 0
        for attribute in matches {
            if let length, 2 + (count + 1) * (2 + length) > context.mtu { break }
            var failure = permissionError(.read, attribute, connection: context.connection, security: context.security)
            var value: [UInt8] = []
            if failure == nil {
                switch lookupValue(attribute, offset: 0, connection: context.connection, answers: context.answers) {
                case let .value(found): value = found
                case let .error(code): failure = code
                case .needsApp: return .needsApp(ReadKey(handle: attribute.handle, offset: 0))
                }
            }
            if let failure {
                if count == 0 { return .response(GATTServer.errorResponse(.readByTypeRequest, attribute.handle, failure)) }
                break
            }
            let cut = value.prefix(longest)
            if let length {
                guard cut.count == length, value.count <= longest else { break }
            } else {
                length = cut.count
                writer.write(ATT.Opcode.readByTypeResponse.rawValue)
                writer.write(UInt8(truncatingIfNeeded: 2 + cut.count))
            }
            writer.write(attribute.handle)
            writer.write(contentsOf: cut)
            count += 1
            if value.count > longest { break }
        }
        return .response(writer.bytes)
    }
}
