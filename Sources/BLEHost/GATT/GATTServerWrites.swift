import BLEWire

extension GATTServer {
    /// How a write arrived: a request is answered, commands never are (§3.4.5.3).
    enum WriteKind {
        case request
        case command
    }

    /// Exchange MTU Request (Core 5.4, Vol 3, Part F, §3.4.2): answers the server's receive
    /// MTU; ATT_MTU becomes the smaller of the two, at least 23. A client sends it once per
    /// connection; a repeated one is answered again but changes nothing.
    mutating func exchangeMTU(_ request: ATT.ExchangeMTURequest, connection: UInt16) -> [GATTServerOutput] {
        var outputs: [GATTServerOutput] = [
            .send(connection: connection, pdu: ATT.ExchangeMTUResponse(serverRxMTU: UInt16(configuration.receiveMTU)).encoded()),
        ]
        guard clients[connection]?.hasExchangedMTU == false else { return outputs }
        let mtu = max(GATTServer.defaultMTU, min(Int(request.clientRxMTU), configuration.receiveMTU))
        clients[connection]?.hasExchangedMTU = true
        if mtu != clients[connection]?.mtu {
            clients[connection]?.mtu = mtu
            outputs.append(.mtuChanged(connection: connection, mtu: mtu))
        }
        return outputs
    }

    /// Write Request (§3.4.5.1) and Write Command (§3.4.5.3): checks handle, permissions and
    /// length, then writes a value the server holds or hands a dynamic one to the app.
    mutating func write(_ handle: ATT.Handle, _ value: [UInt8], kind: WriteKind, connection: UInt16,
                        security: LinkSecurity) -> [GATTServerOutput] {
        func failure(_ code: ATT.ErrorCode) -> [GATTServerOutput] {
            kind == .request ? [.send(connection: connection, pdu: GATTServer.errorResponse(.writeRequest, handle, code))] : []
        }
        guard let attribute = database.attribute(at: handle) else { return failure(.invalidHandle) }
        if let code = permissionError(.write, attribute, connection: connection, security: security) { return failure(code) }
        guard value.count <= attribute.maximumLength else { return failure(.invalidAttributeValueLength) }
        if heldValue(attribute, connection: connection) == nil {
            let id = makeRequestID()
            if kind == .request {
                pendingApp[id] = connection
                clients[connection]?.parked = .write(id: id, handle: handle)
            }
            return [.appWrite(GATTAppRequest(id: id, connection: connection, handle: handle, attributeType: attribute.type,
                                             offset: 0, value: value, expectsResponse: kind == .request))]
        }
        if let code = heldWriteError(attribute, value, connection: connection) { return failure(code) }
        let events = applyHeldWrite(attribute, value, connection: connection)
        return kind == .request ? [.send(connection: connection, pdu: ATT.WriteResponse().encoded())] + events : events
    }

    /// Why `value` cannot be the new value of a server-held attribute, if it cannot:
    /// a Client Characteristic Configuration is 2 octets with only the bits of the
    /// characteristic's properties (else 0xFD, CSS Part B, §1.2); Client Supported
    /// Features bits may not be cleared (Value Not Allowed, Part G, §7.2); a Server
    /// Characteristic Configuration is 2 octets.
    func heldWriteError(_ attribute: GATTAttribute, _ value: [UInt8], connection: UInt16) -> ATT.ErrorCode? {
        switch attribute.role {
        case let .clientCharacteristicConfiguration(_, properties):
            guard value.count == 2 else { return .invalidAttributeValueLength }
            if value[0] & 0x01 != 0 && !properties.contains(.notify) { return .clientCharacteristicConfigurationDescriptorImproperlyConfigured }
            if value[0] & 0x02 != 0 && !properties.contains(.indicate) { return .clientCharacteristicConfigurationDescriptorImproperlyConfigured }
            return nil
        case .clientSupportedFeatures:
            guard let first = value.first else { return .invalidAttributeValueLength }
            let old = clients[connection]?.record.clientSupportedFeatures ?? 0
            return old & ~(first & GATTServer.knownClientFeatures) != 0 ? .valueNotAllowed : nil
        case .serverCharacteristicConfiguration:
            return value.count == 2 ? nil : .invalidAttributeValueLength
        default:
            return nil
        }
    }

    /// Writes a checked value the server holds and says what changed. Reserved bits of
    /// configuration values and unknown feature bits are dropped.
    mutating func applyHeldWrite(_ attribute: GATTAttribute, _ value: [UInt8], connection: UInt16) -> [GATTServerOutput] {
        switch attribute.role {
        case let .clientCharacteristicConfiguration(valueHandle, _):
            let bits = UInt16(value[0] & 0x03)
            clients[connection]?.record.clientConfigurations[valueHandle] = bits == 0 ? nil : bits
            return [.valueWritten(connection: connection, handle: attribute.handle, value: value),
                    .subscriptionChanged(connection: connection, valueHandle: valueHandle,
                                         notify: bits & 0x01 != 0, indicate: bits & 0x02 != 0)]
        case .clientSupportedFeatures:
            let features = (value.first ?? 0) & GATTServer.knownClientFeatures
            clients[connection]?.record.clientSupportedFeatures |= features
            return [.valueWritten(connection: connection, handle: attribute.handle, value: value)]
        case .serverCharacteristicConfiguration:
            _ = database.replaceStoredValue([value[0] & 0x01, 0], at: attribute.handle)
            return [.valueWritten(connection: connection, handle: attribute.handle, value: value)]
        default:
            _ = database.replaceStoredValue(value, at: attribute.handle)
            return [.valueWritten(connection: connection, handle: attribute.handle, value: value)]
        }
    }

    /// The Client Supported Features bits Core 5.4 defines (Vol 3, Part G, §7.2, Table 7.6):
    /// Robust Caching, Enhanced ATT Bearer, Multiple Handle Value Notifications.
    static let knownClientFeatures: UInt8 = 0x07

    /// Signed Write Command (§3.4.5.4): ignored unless the peer's CSRK is known, the
    /// SignCounter is not below the next expected one (Part C, §10.4.2) and the signature
    /// verifies (Part H, §2.4.5); then a Write Command to a characteristic value that
    /// allows authenticated signed writes.
    mutating func signedWrite(_ command: ATT.SignedWriteCommand, pdu: [UInt8], connection: UInt16,
                              security: LinkSecurity) -> [GATTServerOutput] {
        guard let key = clients[connection]?.record.signing else {
            signedWritesDropped += 1
            return []
        }
        let counter = command.authenticationSignature.signCounter
        guard UInt64(counter) >= key.nextCounter, ATTSigning.verify(command, csrk: key.csrk) else {
            signedWritesDropped += 1
            return []
        }
        clients[connection]?.record.signing?.nextCounter = UInt64(counter) + 1
        guard case let .characteristicValue(properties)? = database.attribute(at: command.attributeHandle)?.role,
              properties.contains(.authenticatedSignedWrites) else {
            signedWritesDropped += 1
            return []
        }
        return write(command.attributeHandle, Array(command.attributeValue), kind: .command, connection: connection, security: security)
    }
}
