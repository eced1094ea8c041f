import BLEHost

extension Peripheral {
    /// The advertising interval a beacon gets unless told otherwise: 100 ms, what Apple
    /// recommends for iBeacons and the AltBeacon and Eddystone references use — ten
    /// chances a second for a scanner to hear it, so ranging's once-a-second ticks nearly
    /// always have a sample. Longer intervals save the beacon's battery at that cost.
    public static let defaultBeaconInterval: Duration = .milliseconds(100)

    /// Starts sending `frame` as a beacon: legacy advertising whose advertising data is
    /// exactly the frame's octets (`BeaconFrame.advertisingData`, flags included), with no
    /// scan response.
    ///
    /// By default the advertisement is ADV_NONCONN_IND (Core 5.4, Vol 6, Part B,
    /// §2.3.1.3): neither connectable nor scannable, what dedicated beacons send, so no
    /// central connects and the advertising never stops for a connection. With
    /// `connectable` it is ADV_IND (§2.3.1.1), as an iPhone sends an iBeacon from
    /// `CBPeripheralManager`; the octets are the same. Some controllers send only ADV_IND on
    /// the air (Bumble's stock controller accepts ADV_NONCONN_IND and never transmits it).
    ///
    /// ```swift
    /// let uuid = ProximityUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    /// let beacon = IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59)
    /// let session = try await device.peripheral.emit(beacon)
    /// try await Task.sleep(for: .seconds(60))
    /// try await session.stop()
    /// ```
    /// - Parameters:
    ///   - frame: the beacon frame to send.
    ///   - interval: 20 ms to 10.24 s (Vol 4, Part E, §7.8.5), in steps of 0.625 ms;
    ///     ``defaultBeaconInterval`` by default.
    ///   - connectable: ADV_IND instead of ADV_NONCONN_IND.
    /// - Returns: the advertising session; ``AdvertisingSession/stop()`` ends the beacon.
    /// - Throws: ``BLEError/invalidParameters(_:)`` for an interval out of range,
    ///   ``BLEError/advertisementTooLarge(octets:maximum:)`` for a frame over 31 octets, or
    ///   the controller's refusal.
    public func emit(_ frame: BeaconFrame, interval: Duration = Peripheral.defaultBeaconInterval,
                     connectable: Bool = false) async throws(BLEError) -> AdvertisingSession {
        let units = ConnectionParameters.microseconds(interval) / 625
        guard (0x0020 ... 0x4000).contains(units) else { throw .invalidParameters("the advertising interval must be 20 ms to 10.24 s") }
        let data = frame.advertisingData
        guard data.encodedLength <= AdvertisingData.legacyMaximumLength else {
            throw .advertisementTooLarge(octets: data.encodedLength, maximum: AdvertisingData.legacyMaximumLength)
        }
        let parameters = GAPAdvertisingParameters(
            kind: connectable ? .connectable : .nonConnectable, intervalMin: UInt16(units), intervalMax: UInt16(units), data: data)
        return try await startAdvertising(parameters)
    }

    /// Starts sending an iBeacon frame; see ``emit(_:interval:connectable:)-(BeaconFrame,_,_)``.
    public func emit(_ beacon: IBeacon, interval: Duration = Peripheral.defaultBeaconInterval,
                     connectable: Bool = false) async throws(BLEError) -> AdvertisingSession {
        try await emit(.iBeacon(beacon), interval: interval, connectable: connectable)
    }
}
