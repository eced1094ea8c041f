import BLEWire

extension GATTServer {
    /// The range a request names, or `nil` when the starting handle is 0 or above the
    /// ending handle, which gets Invalid Handle (Core 5.4, Vol 3, Part F, §3.4.3.1,
    /// §3.4.3.3, §3.4.4.1, §3.4.4.9).
    static func handleRange(_ start: ATT.Handle, _ end: ATT.Handle) -> ClosedRange<ATT.Handle>? {
        start != 0 && start <= end ? start ... end : nil
    }

    /// Read By Group Type Request (§3.4.4.9, §3.4.4.10): each service declaration of the
    /// type in the range with its group's end handle and its value (the service UUID), all
    /// values of the first one's length (cut to min(ATT_MTU − 6, 251)) and as many as fit.
    /// Types other than «Primary Service» and «Secondary Service» get Unsupported Group Type.
    func readByGroupType(_ request: ATT.ReadByGroupTypeRequest, _ context: ReadContext) -> [UInt8] {
        let start = request.startingHandle
        guard let range = GATTServer.handleRange(start, request.endingHandle) else {
            return GATTServer.errorResponse(.readByGroupTypeRequest, start, .invalidHandle)
        }
        let type = request.attributeGroupType
        guard type == GATTServerUUID.primaryService || type == GATTServerUUID.secondaryService else {
            return GATTServer.errorResponse(.readByGroupTypeRequest, start, .unsupportedGroupType)
        }
        let groups = database.attributes(in: range).filter { $0.type == type && $0.isServiceDeclaration }
        guard !groups.isEmpty else { return GATTServer.errorResponse(.readByGroupTypeRequest, start, .attributeNotFound) }
        let longest = min(context.mtu - 6, 251)
        var writer = ByteWriter(capacity: context.mtu)
        var length: Int?
        var count = 0
        for group in groups {
            guard let value = heldValue(group, connection: context.connection) else { break }
            let cut = value.prefix(longest)
            if let length {
                guard cut.count == length, 2 + (count + 1) * (4 + length) <= context.mtu else { break }
            } else {
                length = cut.count
                writer.write(ATT.Opcode.readByGroupTypeResponse.rawValue)
                writer.write(UInt8(truncatingIfNeeded: 4 + cut.count))
            }
            writer.write(group.handle)
            writer.write(group.groupEndHandle)
            writer.write(contentsOf: cut)
            count += 1
        }
        return writer.bytes
    }

    /// Find Information Request (§3.4.3.1, §3.4.3.2): handle and type of each attribute in
    /// the range, all in the first one's UUID width and as many as fit ATT_MTU.
    func findInformation(_ request: ATT.FindInformationRequest, mtu: Int) -> [UInt8] {
        let start = request.startingHandle
        guard let range = GATTServer.handleRange(start, request.endingHandle) else {
            return GATTServer.errorResponse(.findInformationRequest, start, .invalidHandle)
        }
        let found = database.attributes(in: range)
        guard let first = found.first else { return GATTServer.errorResponse(.findInformationRequest, start, .attributeNotFound) }
        let width = first.type.width
        var entries: [ATT.FindInformationResponse.Entry] = []
        for attribute in found {
            guard attribute.type.width == width, 2 + (entries.count + 1) * (2 + width.octets) <= mtu else { break }
            entries.append(ATT.FindInformationResponse.Entry(handle: attribute.handle, attributeType: attribute.type))
        }
        return ATT.FindInformationResponse(entries: entries).encoded()
    }

    /// Find By Type Value Request (§3.4.3.3, §3.4.3.4): the handle and group end of each
    /// attribute in the range whose 16-bit type and value match, as many as fit ATT_MTU.
    /// Only values the server holds and the client may read are compared.
    func findByTypeValue(_ request: ATT.FindByTypeValueRequest, _ context: ReadContext) -> [UInt8] {
        let start = request.startingHandle
        guard let range = GATTServer.handleRange(start, request.endingHandle) else {
            return GATTServer.errorResponse(.findByTypeValueRequest, start, .invalidHandle)
        }
        let type = BluetoothUUID(request.attributeType)
        var writer = ByteWriter(capacity: context.mtu)
        writer.write(ATT.Opcode.findByTypeValueResponse.rawValue)
        for attribute in database.attributes(in: range) where attribute.type == type {
            guard writer.count + 4 <= context.mtu else { break }
            guard permissionError(.read, attribute, connection: context.connection, security: context.security) == nil,
                  let value = heldValue(attribute, connection: context.connection),
                  value.elementsEqual(request.attributeValue) else { continue }
            writer.write(attribute.handle)
            writer.write(attribute.groupEndHandle)
        }
        guard writer.count > 1 else { return GATTServer.errorResponse(.findByTypeValueRequest, start, .attributeNotFound) }
        return writer.bytes
    }
}
