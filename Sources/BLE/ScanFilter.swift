import BLEHost

/// Which advertisements a scan reports. Every condition given must hold; an empty filter
/// reports everything.
public struct ScanFilter: Hashable, Sendable {
    /// Report devices that list any of these services, in a service UUID list, as service
    /// data (Supplement, Part A, §1.1, §1.11) or in Core Bluetooth's overflow area
    /// (``ServiceOverflowArea``, a "may contain" match); empty: any device.
    public var serviceUUIDs: [BluetoothUUID]
    /// Report devices whose local name (complete or shortened) starts with this.
    public var namePrefix: String?
    /// Report only reports at least this strong, in dBm.
    public var minimumRSSI: Int?
    /// Report only these devices, compared by their 48-bit value (the type is ignored,
    /// since an address typed in by hand rarely carries it); empty: any device.
    public var addresses: [BluetoothAddress]

    /// A filter with every condition given; by default none.
    public init(serviceUUIDs: [BluetoothUUID] = [], namePrefix: String? = nil, minimumRSSI: Int? = nil, addresses: [BluetoothAddress] = []) {
        self.serviceUUIDs = serviceUUIDs
        self.namePrefix = namePrefix
        self.minimumRSSI = minimumRSSI
        self.addresses = addresses
    }

    /// Whether `advertisement` passes the conditions. The services are checked here, not
    /// by GAP, because GAP does not read overflow areas.
    func admits(_ advertisement: Advertisement) -> Bool {
        guard advertisement.advertisesAny(of: serviceUUIDs) else { return false }
        if let namePrefix, advertisement.localName?.hasPrefix(namePrefix) != true { return false }
        if let minimumRSSI, (advertisement.rssi ?? Int.min) < minimumRSSI { return false }
        if !addresses.isEmpty, !addresses.contains(where: { $0.value == advertisement.address.value }) { return false }
        return true
    }
}

/// How a scan runs (Core 5.4, Vol 3, Part C, §9.2.5–9.2.6; Vol 4, Part E, §7.8.10).
public struct ScanOptions: Hashable, Sendable {
    /// Active scanning asks scannable advertisers for their scan response (SCAN_REQ), so
    /// names and services there are seen; passive scanning only listens.
    public var active: Bool
    /// Report every advertisement received. Without it (Core Bluetooth's default) a device
    /// is reported when it first passes the filter and again only when its advertising or
    /// scan response data changes.
    public var allowDuplicates: Bool
    /// How often the controller starts listening (2.5 ms to 10.24 s, steps of 0.625 ms).
    public var interval: Duration
    /// How long it listens each time, at most ``interval``; equal to it: continuously.
    public var window: Duration

    /// Options with every value given; by default an active, continuous scan without
    /// duplicates.
    public init(active: Bool = true, allowDuplicates: Bool = false, interval: Duration = .milliseconds(60), window: Duration = .milliseconds(60)) {
        self.active = active
        self.allowDuplicates = allowDuplicates
        self.interval = interval
        self.window = window
    }

    /// GAP's parameters for these options and `filter`.
    /// - Throws: ``BLEError/invalidParameters(_:)`` for an interval or window out of range.
    func gapParameters(filter: ScanFilter) throws(BLEError) -> GAPScanParameters {
        let interval = ConnectionParameters.microseconds(interval)
        let window = ConnectionParameters.microseconds(window)
        // Units of 0.625 ms, 0x0004–0x4000 (Vol 4, Part E, §7.8.10).
        guard interval >= 2500, interval <= 10_240_000 else { throw .invalidParameters("the scan interval must be 2.5 ms to 10.24 s") }
        guard window >= 2500, window <= interval else { throw .invalidParameters("the scan window must be 2.5 ms up to the scan interval") }
        // A minimum RSSI needs every report: a device first heard weakly must be reported
        // once it comes close, though its data did not change. The front door then drops
        // the duplicates itself.
        return GAPScanParameters(
            active: active, interval: UInt16(interval / 625), window: UInt16(window / 625),
            allowDuplicates: allowDuplicates || filter.minimumRSSI != nil, serviceUUIDs: [])
    }
}

/// The front door's side of a scan's filtering: the conditions GAP does not check, and
/// Core Bluetooth's duplicate rule measured from what this scan reported.
struct ScanSieve: Sendable {
    let filter: ScanFilter
    let allowDuplicates: Bool
    /// The data last reported per address, to report a device again only when it changes.
    /// Looked up by address only.
    private var reported: [BluetoothAddress: [[UInt8]]] = [:]

    init(filter: ScanFilter, allowDuplicates: Bool) {
        self.filter = filter
        self.allowDuplicates = allowDuplicates
    }

    /// Whether to report `advertisement` now.
    mutating func admit(_ advertisement: Advertisement) -> Bool {
        guard filter.admits(advertisement) else { return false }
        guard !allowDuplicates else { return true }
        let bytes = [advertisement.advertisingBytes, advertisement.scanResponseBytes]
        guard reported[advertisement.address] != bytes else { return false }
        reported[advertisement.address] = bytes
        return true
    }
}
