import BLEHost

/// One beacon frame heard by a scan: what ranging and monitoring are fed, one per
/// advertisement received.
public struct BeaconSighting: Hashable, Sendable {
    /// The frame, strictly decoded (a near miss is not a beacon).
    public var frame: BeaconFrame
    /// The advertiser's address, with its type.
    public var address: BluetoothAddress
    /// The report's RSSI in dBm; `nil` when the controller had none (127, Core 5.4, Vol 4,
    /// Part E, §7.7.65.2).
    public var rssi: Int?
    /// Whether it came as ADV_IND (an iPhone's iBeacon) rather than ADV_NONCONN_IND.
    public var connectable: Bool
    /// When it was received, since the scan started.
    public var time: Duration

    /// A sighting with every value given.
    public init(frame: BeaconFrame, address: BluetoothAddress, rssi: Int?, connectable: Bool, time: Duration) {
        self.frame = frame
        self.address = address
        self.rssi = rssi
        self.connectable = connectable
        self.time = time
    }

    /// The beacon frame `advertisement` carries: in its advertising data, else in its scan
    /// response; `nil` when neither holds one.
    public init?(_ advertisement: Advertisement) {
        guard let frame = BeaconFrame(decoding: advertisement.advertisingBytes) ?? BeaconFrame(decoding: advertisement.scanResponseBytes)
        else { return nil }
        self.init(frame: frame, address: advertisement.address, rssi: advertisement.rssi, connectable: advertisement.connectable,
                  time: advertisement.time)
    }
}

extension ScanOptions {
    /// How beacon scans run: passive (beacons answer no scan request, and none is sent to
    /// other advertisers), every report (each is an RSSI sample), listening continuously.
    public static let beacons = ScanOptions(active: false, allowDuplicates: true)
}

extension Central {
    /// Scans for beacons — iBeacon, AltBeacon and Eddystone — and returns every frame heard,
    /// one per advertisement received (duplicates included: each is an RSSI sample).
    ///
    /// ```swift
    /// for await sighting in try await device.central.beacons() {
    ///     print(sighting.frame.identity?.description ?? "telemetry", sighting.rssi ?? 0)
    /// }
    /// ```
    /// - Parameter options: the scan's options, ``ScanOptions/beacons`` by default.
    /// - Throws: what ``scan(filter:options:)`` throws.
    public func beacons(options: ScanOptions = .beacons) async throws(BLEError) -> BeaconSightings {
        BeaconSightings(results: try await scan(options: options))
    }
}

/// The beacon frames of one running scan, as an `AsyncSequence` (see
/// ``Central/beacons(options:)``). Like ``ScanResults`` it is read once, and the scan ends
/// when the loop over it ends or with ``stop()``.
public struct BeaconSightings: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = BeaconSighting
    /// Iteration never throws: it ends instead.
    public typealias Failure = Never
    let results: ScanResults

    /// The iterator of the scan; the first one made reads it, later ones end at once.
    public func makeAsyncIterator() -> Iterator { Iterator(base: results.makeAsyncIterator()) }

    /// Ends the scan and returns once the controller stopped scanning.
    public func stop() async { await results.stop() }

    /// Reads the scan's advertisements, keeping the beacons.
    public struct Iterator: AsyncIteratorProtocol {
        var base: ScanResults.Iterator

        /// The next beacon frame heard, or `nil` once the scan ended.
        public mutating func next() async -> BeaconSighting? {
            while let advertisement = await base.next() {
                if let sighting = BeaconSighting(advertisement) { return sighting }
            }
            return nil
        }
    }
}
