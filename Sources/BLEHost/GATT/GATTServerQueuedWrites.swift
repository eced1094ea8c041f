import BLEWire

extension GATTServer {
    /// Prepare Write Request (Core 5.4, Vol 3, Part F, §3.4.6.1): checks handle and write
    /// permissions, queues the part (Prepare Queue Full past the configured limit) and
    /// echoes it. Offsets and lengths are checked at Execute Write, as the spec says. A part
    /// longer than ATT_MTU − 5 gets Invalid PDU: its echo could not fit ATT_MTU (§3.2.8).
    mutating func prepareWrite(_ request: ATT.PrepareWriteRequest, connection: UInt16, security: LinkSecurity) -> [GATTServerOutput] {
        let handle = request.attributeHandle
        func failure(_ code: ATT.ErrorCode) -> [GATTServerOutput] {
            [.send(connection: connection, pdu: GATTServer.errorResponse(.prepareWriteRequest, handle, code))]
        }
        guard request.partAttributeValue.count <= mtu(for: connection) - 5 else { return failure(.invalidPDU) }
        guard let attribute = database.attribute(at: handle) else { return failure(.invalidHandle) }
        if let code = permissionError(.write, attribute, connection: connection, security: security) { return failure(code) }
        guard (clients[connection]?.prepareQueue.count ?? 0) < configuration.prepareQueueLimit else { return failure(.prepareQueueFull) }
        clients[connection]?.prepareQueue.append(PreparedWrite(handle: handle, offset: Int(request.valueOffset),
                                                               value: Array(request.partAttributeValue)))
        let echo = ATT.PrepareWriteResponse(attributeHandle: handle, valueOffset: request.valueOffset,
                                            partAttributeValue: request.partAttributeValue)
        return [.send(connection: connection, pdu: echo.encoded())]
    }

    /// Execute Write Request (§3.4.6.3): flags 0x00 discards the queue; 0x01 writes it
    /// atomically. Every part is checked first — an offset past the value built so far gets
    /// Invalid Offset, a result longer than the attribute allows Invalid Attribute Value
    /// Length, a configuration value breaking its rules its error — naming the failing
    /// handle and changing nothing. Dynamic parts then go to the app (contiguous parts of
    /// one attribute merged into one write); values the server holds are written only once
    /// the app accepted all of its writes. The queue is empty afterwards in every case.
    /// A part replaces the value from its offset on (the tail is dropped), starting from
    /// the current value; Bumble 0.0.236 instead starts each attribute from an empty value.
    mutating func executeWrite(_ request: ATT.ExecuteWriteRequest, connection: UInt16, security: LinkSecurity) -> [GATTServerOutput] {
        let queue = clients[connection]?.prepareQueue ?? []
        clients[connection]?.prepareQueue = []
        let done: [GATTServerOutput] = [.send(connection: connection, pdu: ATT.ExecuteWriteResponse().encoded())]
        guard request.flags == .writeAllPendingPreparedValues, !queue.isEmpty else { return done }
        func failure(_ handle: ATT.Handle, _ code: ATT.ErrorCode) -> [GATTServerOutput] {
            [.send(connection: connection, pdu: GATTServer.errorResponse(.executeWriteRequest, handle, code))]
        }

        var staged: [(handle: ATT.Handle, value: [UInt8])] = []
        var appParts: [PreparedWrite] = []
        for part in queue {
            guard let attribute = database.attribute(at: part.handle) else { return failure(part.handle, .invalidHandle) }
            guard let held = heldValue(attribute, connection: connection) else {
                guard part.offset + part.value.count <= attribute.maximumLength else {
                    return failure(part.handle, .invalidAttributeValueLength)
                }
                if let last = appParts.last, last.handle == part.handle, last.offset + last.value.count == part.offset {
                    appParts[appParts.count - 1] = PreparedWrite(handle: last.handle, offset: last.offset, value: last.value + part.value)
                } else {
                    appParts.append(part)
                }
                continue
            }
            let index = staged.firstIndex { $0.handle == part.handle }
            let current = index.map { staged[$0].value } ?? held
            guard part.offset <= current.count else { return failure(part.handle, .invalidOffset) }
            let updated = Array(current.prefix(part.offset)) + part.value
            guard updated.count <= attribute.maximumLength else { return failure(part.handle, .invalidAttributeValueLength) }
            if let index { staged[index].value = updated } else { staged.append((part.handle, updated)) }
        }
        for (handle, value) in staged {
            guard let attribute = database.attribute(at: handle) else { return failure(handle, .invalidHandle) }
            if let code = heldWriteError(attribute, value, connection: connection) { return failure(handle, code) }
        }
        if appParts.isEmpty { return done + applyStaged(staged, connection: connection) }

        var requests: [GATTAppRequest] = []
        var execute = ParkedExecute(appWrites: [], staged: staged)
        for part in appParts {
            let id = makeRequestID()
            pendingApp[id] = connection
            execute.appWrites.append((id, part.handle, nil, false))
            let type = database.attribute(at: part.handle)?.type ?? BluetoothUUID(0)
            requests.append(GATTAppRequest(id: id, connection: connection, handle: part.handle, attributeType: type,
                                           offset: part.offset, value: part.value, expectsResponse: true))
        }
        let batch = requests.first.map { GATTAppRequest.Batch(first: $0.id, count: requests.count) }
        let outputs: [GATTServerOutput] = requests.map { request in
            var request = request
            request.batch = batch
            return .appWrite(request)
        }
        clients[connection]?.parked = .execute(execute)
        return outputs
    }

    /// Records the app's answer to one write of a parked Execute Write; when all are in,
    /// answers with the first failure in queue order, or writes the staged values.
    mutating func answerExecute(_ execute: ParkedExecute, id: GATTAppRequest.ID, result: Result<[UInt8], ATT.ErrorCode>,
                                connection: UInt16) -> [GATTServerOutput] {
        var execute = execute
        guard let index = execute.appWrites.firstIndex(where: { $0.id == id }) else { return [] }
        execute.appWrites[index].answered = true
        if case let .failure(code) = result { execute.appWrites[index].error = code }
        guard execute.appWrites.allSatisfy(\.answered) else {
            clients[connection]?.parked = .execute(execute)
            return []
        }
        clients[connection]?.parked = nil
        if let failed = execute.appWrites.first(where: { $0.error != nil }), let code = failed.error {
            return [.send(connection: connection, pdu: GATTServer.errorResponse(.executeWriteRequest, failed.handle, code))]
        }
        return [.send(connection: connection, pdu: ATT.ExecuteWriteResponse().encoded())]
            + applyStaged(execute.staged, connection: connection)
    }

    /// Writes checked values the server holds, in queue order.
    mutating func applyStaged(_ staged: [(handle: ATT.Handle, value: [UInt8])], connection: UInt16) -> [GATTServerOutput] {
        var outputs: [GATTServerOutput] = []
        for (handle, value) in staged {
            guard let attribute = database.attribute(at: handle) else { continue }
            outputs += applyHeldWrite(attribute, value, connection: connection)
        }
        return outputs
    }
}
