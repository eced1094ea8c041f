import BLEHost

extension Connection {
    /// The handle ranges the peer's server reports changed with Service Changed
    /// indications (Core 5.4, Vol 3, Part G, §7.1), for as long as the link lasts.
    ///
    /// The call discovers the peer's services when not known yet and turns the indications
    /// on (the Client Characteristic Configuration of Service Changed in the GATT service,
    /// 0x1801), as Core Bluetooth does on every connection. By the time a range arrives the
    /// services in it are forgotten: the next ``services(_:)`` discovers them again. A peer
    /// without Service Changed gives a stream that only ends, with the link.
    /// - Throws: ``BLEError/att(_:handle:)`` when the peer refuses discovery or the
    ///   configuration write, ``BLEError/gattTimedOut``, ``BLEError/disconnected(_:)``.
    public func serviceChanges() async throws(BLEError) -> AsyncStream<ClosedRange<UInt16>> {
        // Watched before anything is written, so an indication right after is not missed.
        let stream = trees.watchServiceChanges(of: self)
        _ = try await services()
        let enabled = trees.with(self) { $0.serviceChangedEnabled }
        if !enabled {
            try await enableServiceChanged()
            trees.with(self) { $0.serviceChangedEnabled = true }
        }
        return stream
    }
}
