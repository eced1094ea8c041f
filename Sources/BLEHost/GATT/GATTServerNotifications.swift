import BLEWire

extension GATTServer {
    /// The clients subscribed to the characteristic whose value is at `valueHandle`, by
    /// connection handle (from their Client Characteristic Configurations).
    public func subscriptions(of valueHandle: ATT.Handle) -> [GATTSubscription] {
        clients.keys.sorted().compactMap { connection in
            guard let bits = clients[connection]?.record.clientConfigurations[valueHandle], bits != 0 else { return nil }
            return GATTSubscription(connection: connection, valueHandle: valueHandle,
                                    notify: bits & 0x01 != 0, indicate: bits & 0x02 != 0)
        }
    }

    /// A Handle Value Notification (Core 5.4, Vol 3, Part F, §3.4.7.1) of `value` (by
    /// default the stored value) for `connection`, cut to ATT_MTU − 3 octets as the spec
    /// says. `nil` when `value` is omitted and the value is not stored. It does not check
    /// the subscription: see ``subscriptions(of:)``.
    public func notification(of valueHandle: ATT.Handle, value: [UInt8]? = nil, for connection: UInt16) -> [UInt8]? {
        handleValuePDU(.handleValueNotification, valueHandle, value, connection)
    }

    /// A Handle Value Indication (§3.4.7.2), as ``notification(of:value:for:)``. The bearer
    /// sends one at a time and waits for ``GATTServerOutput/indicationConfirmed(connection:)``.
    public func indication(of valueHandle: ATT.Handle, value: [UInt8]? = nil, for connection: UInt16) -> [UInt8]? {
        handleValuePDU(.handleValueIndication, valueHandle, value, connection)
    }

    /// One notification per client that enabled notifications for `valueHandle`.
    public func notifications(of valueHandle: ATT.Handle, value: [UInt8]? = nil) -> [(connection: UInt16, pdu: [UInt8])] {
        subscriptions(of: valueHandle).filter(\.notify).compactMap { subscription in
            notification(of: valueHandle, value: value, for: subscription.connection).map { (subscription.connection, $0) }
        }
    }

    /// One indication per client that enabled indications for `valueHandle`.
    public func indications(of valueHandle: ATT.Handle, value: [UInt8]? = nil) -> [(connection: UInt16, pdu: [UInt8])] {
        subscriptions(of: valueHandle).filter(\.indicate).compactMap { subscription in
            indication(of: valueHandle, value: value, for: subscription.connection).map { (subscription.connection, $0) }
        }
    }

    /// A Multiple Handle Value Notification (§3.4.7.4) of two or more values for
    /// `connection`. Values in it cannot be cut, so `nil` when the PDU would exceed
    /// ATT_MTU, when there are fewer than two values, or when the client has not set the
    /// Multiple Handle Value Notifications bit of Client Supported Features (Part G, §7.2).
    public func multipleNotification(_ values: [(handle: ATT.Handle, value: [UInt8])], for connection: UInt16) -> [UInt8]? {
        guard values.count >= 2, let client = clients[connection], client.record.clientSupportedFeatures & 0x04 != 0 else { return nil }
        let size = 1 + values.reduce(0) { $0 + 4 + $1.value.count }
        guard size <= client.mtu else { return nil }
        let tuples = values.map { ATT.MultipleHandleValueNotification.Tuple(attributeHandle: $0.handle, attributeValue: $0.value[...]) }
        return ATT.MultipleHandleValueNotification(handleLengthValueTuples: tuples).encoded()
    }

    /// Service Changed indications (Core 5.4, Vol 3, Part G, §7.1) of `range` for every
    /// client that enabled indications of Service Changed; empty without the GATT service.
    public func serviceChangedIndications(for range: ClosedRange<ATT.Handle>) -> [(connection: UInt16, pdu: [UInt8])] {
        guard let handle = database.serviceChangedHandle else { return [] }
        let value: [UInt8] = [UInt8(truncatingIfNeeded: range.lowerBound), UInt8(truncatingIfNeeded: range.lowerBound >> 8),
                              UInt8(truncatingIfNeeded: range.upperBound), UInt8(truncatingIfNeeded: range.upperBound >> 8)]
        return indications(of: handle, value: value)
    }

    private func handleValuePDU(_ opcode: ATT.Opcode, _ handle: ATT.Handle, _ value: [UInt8]?, _ connection: UInt16) -> [UInt8]? {
        guard let octets = value ?? self.value(at: handle) else { return nil }
        var writer = ByteWriter(capacity: 3 + octets.count)
        writer.write(opcode.rawValue)
        writer.write(handle)
        writer.write(contentsOf: octets.prefix(mtu(for: connection) - 3))
        return writer.bytes
    }
}
