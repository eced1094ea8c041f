import BLEHost

extension Central {
    /// Follows an advertiser's periodic train (Core 5.4, Vol 3, Part C, §9.5.2; Vol 4, Part E,
    /// §7.8.67) and returns each periodic event's data, whole: a Bluetooth 5 device can carry
    /// up to 1,650 octets every interval that a receiver gets without scanning for it.
    ///
    /// An extended scan runs while the train is being found (the controller learns its
    /// timing from the set's AUX_ADV_IND): this central's scan if one runs, else one the host
    /// starts and stops once the sync is made. A legacy scan running is refused.
    ///
    /// ```swift
    /// for try await event in try await device.central.synchronize(to: address, sid: 3) {
    ///     print(event.address, event.sid, event.rssi ?? 0, event.bytes.count)
    ///     break  // ends the sync
    /// }
    /// ```
    /// - Parameters:
    ///   - address: the advertiser, with its address type, as an extended scan reports it.
    ///   - sid: the advertising set's SID (0–15).
    ///   - skip: how many periodic events the controller may skip after one it received.
    ///   - timeout: silence after which the sync is lost (100 ms to 163.84 s).
    ///   - findWithin: how long to look for the train.
    /// - Throws: ``BLEError/invalidParameters(_:)`` (a SID above 15, a skip or timeout out of
    ///   range), ``BLEError/procedureFailed(_:)`` for a controller without periodic
    ///   advertising (LE features bit 13) or while another sync is being made. Iteration
    ///   throws ``BLEError/procedureFailed(_:)`` when the train is lost or not found, or the
    ///   controller refused the sync.
    public func synchronize(
        to address: BluetoothAddress, sid: UInt8, skip: Int = 0, timeout: Duration = .seconds(2),
        findWithin: Duration = .seconds(10)
    ) async throws(BLEError) -> PeriodicAdvertisements {
        guard (0 ... Int(GAPPeriodicSyncRequest.largestSkip)).contains(skip) else {
            throw .invalidParameters("a skip of \(skip) events is outside 0 to \(GAPPeriodicSyncRequest.largestSkip)")
        }
        let request = GAPPeriodicSyncRequest(
            advertiser: address, advertiserAddressType: address.kind == .public ? .public : .random, sid: sid,
            skip: UInt16(skip), syncTimeout: UInt16(clamping: Self.microseconds(timeout) / 10_000),
            findTimeout: Self.microseconds(findWithin))
        if let invalidity = request.invalidity { throw .invalidParameters(invalidity) }
        do {
            return PeriodicAdvertisements(stream: try await core.host.synchronize(request), core: core)
        } catch {
            throw core.translate(error)
        }
    }

    /// `duration` in whole microseconds, clamped to what a host time holds.
    private static func microseconds(_ duration: Duration) -> HostTime {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000 else { return .max }
        return max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
