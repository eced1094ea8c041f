import BLEWire

// What our GATT server keeps of a bonded client across connections (Core 5.4, Vol 3,
// Part G, §3.3.3.3: Client Characteristic Configuration values persist for bonded
// devices): the host hands the state out when a link goes down and takes it back when the
// bonded peer returns; the layer that keeps bonds decides which peers are bonded.

/// Told, on the host's isolation, which peer's link went down and what our server kept of
/// it (its CCCD values, features, signing counter). It must be quick.
public typealias DepartedClientHandler = @Sendable (_ peer: BluetoothAddress, _ record: GATTServerClientRecord) -> Void

extension Host {
    /// Sets what is told of a client's server state when its link goes down (only clients
    /// that left some state), so that a bond keeper can store it.
    public func setDepartedClientHandler(_ handler: DepartedClientHandler?) {
        departedClientHandler = handler
    }

    /// Gives the client on `connection` the server state a bond kept for it, e.g. its
    /// subscriptions (Vol 3, Part G, §3.3.3.3). Nothing happens if the link is gone.
    public func restoreGATTClient(_ record: GATTServerClientRecord, for connection: UInt16) {
        guard attLinks.index(forKey: connection) != nil else { return }
        gattServer.restore(record, for: connection)
    }
}
