import BLE

/// What a scan reports (`scanForPeripherals(withServices:options:)`): the services asked
/// for, solicitations, and whether duplicates are wanted.
struct DiscoveryRule: Sendable {
    /// Services a peripheral must advertise (any of them); `nil` for every peripheral.
    let services: [BluetoothUUID]?
    /// Services a peripheral may solicit instead (Supplement, Part A, §1.10).
    let solicited: [BluetoothUUID]
    /// Report every advertisement (`CBCentralManagerScanOptionAllowDuplicatesKey`).
    let allowDuplicates: Bool

    init(services: [BluetoothUUID]?, options: [String: Any]?) {
        self.services = services.flatMap { $0.isEmpty ? nil : $0 }
        solicited = (options?[CBCentralManagerScanOptionSolicitedServiceUUIDsKey] as? [CBUUID])?.map(\.value) ?? []
        allowDuplicates = (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? Bool) ?? false
    }

    /// Whether `advertisement` is one the scan asked for: every one without services;
    /// else one listing a wanted service (in its UUID lists, service data or overflow area)
    /// or soliciting one.
    func matches(_ advertisement: Advertisement) -> Bool {
        guard let services else { return true }
        if advertisement.advertisesAny(of: services) { return true }
        let soliciting = advertisement.data.serviceSolicitationUUIDs ?? []
        return soliciting.contains(where: solicited.contains)
    }
}

/// Core Bluetooth's duplicate rule for one scan: without duplicates, one discovery per
/// peripheral per scan. A connectable advertiser's first report usually comes before its
/// scan response (Core 5.4, Vol 6, Part B, §4.4.3.2), so its discovery waits for the scan
/// response, or for its second report when it sends none, so the name there is not lost;
/// a passive scan brings no scan response, so there nothing waits.
struct DiscoverySieve: Sendable {
    let rule: DiscoveryRule
    private var reported: Set<BluetoothAddress> = []
    private var heldOnce: Set<BluetoothAddress> = []

    init(rule: DiscoveryRule) {
        self.rule = rule
    }

    /// The advertisement to report now, or `nil`.
    /// - Parameter activeScan: whether the scan that heard it sends scan requests.
    mutating func admit(_ advertisement: Advertisement, activeScan: Bool = true) -> Advertisement? {
        guard rule.matches(advertisement) else { return nil }
        if rule.allowDuplicates { return advertisement }
        guard !reported.contains(advertisement.address) else { return nil }
        if activeScan, advertisement.connectable, advertisement.scanResponseBytes.isEmpty, !heldOnce.contains(advertisement.address) {
            heldOnce.insert(advertisement.address)
            return nil
        }
        reported.insert(advertisement.address)
        return advertisement
    }
}
