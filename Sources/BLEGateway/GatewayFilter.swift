import BLEBeacons
import BLEHost
import BLEWire

/// What a gateway keeps of what it hears, and under which identity (DESIGN.md, "Fleets").
///
/// Identities, in the order they are tried:
/// 1. `irk:LABEL` — a resolvable private address made with one of the IRKs (Core 5.4,
///    Vol 3, Part C, §10.8.2.3): a phone whose address changes every few minutes is one
///    identity, as Home Assistant's Private BLE Device integration treats it;
/// 2. `ibeacon:UUID:MAJOR:MINOR`, `eddystone:NAMESPACE:INSTANCE`, `eddystone-eid:EID`,
///    `altbeacon:ID` — a beacon frame: with no beacon rule every beacon frame is kept;
///    with one, only those it names;
/// 3. `name:NAME` for a name rule, `address:ADDRESS` for an address or service rule.
///
/// With no rule at all the gateway keeps every beacon frame, as a beacon gateway does.
public struct GatewayFilter: Hashable, Sendable {
    /// The rules, as given.
    public let rules: [GatewayRule]
    private let irks: [(label: String, key: UInt128)]
    private let hasBeaconRule: Bool

    /// A filter keeping what `rules` name.
    public init(rules: [GatewayRule]) {
        self.rules = rules
        irks = rules.compactMap { if case let .irk(label, key) = $0 { (label, key) } else { nil } }
        hasBeaconRule = rules.contains(where: \.isBeaconRule)
    }

    /// Parses `(kind, value)` pairs, as `ble gateway`'s options or a scenario's `keep:` give them.
    /// - Throws: ``GatewayRuleError`` for the first value that does not parse.
    public init(parsing pairs: [(kind: String, value: String)]) throws(GatewayRuleError) {
        var rules: [GatewayRule] = []
        for pair in pairs { rules.append(try GatewayRule(kind: pair.kind, value: pair.value)) }
        self.init(rules: rules)
    }

    /// What is kept of one advertisement: its identity and the TX power it announced.
    public struct Kept: Hashable, Sendable {
        /// The identity it is stored under.
        public var identity: String
        /// The announced TX power at 1 m (a beacon's measured power) or the TX Power Level, in dBm.
        public var txPower: Int?
    }

    /// The identity to store an advertisement from `address` with advertising data `data` under,
    /// or `nil` when the filter does not keep it. Malformed data is not kept (and never traps).
    public func keep(address: BluetoothAddress, data bytes: [UInt8]) -> Kept? {
        let data = (try? AdvertisingData(decoding: bytes)) ?? AdvertisingData([])
        let txLevel = data.txPowerLevel.map(Int.init)
        if address.randomSubtype == .resolvablePrivate {
            for entry in irks where (try? ResolvablePrivateAddress.matches(address, irk: entry.key)) == true {
                return Kept(identity: "irk:\(entry.label)", txPower: txLevel)
            }
        }
        if let beacon = beaconIdentity(data) { return beacon }
        for rule in rules {
            switch rule {
            case let .address(wanted) where wanted.value == address.value:
                return Kept(identity: "address:\(address)", txPower: txLevel)
            case let .name(wanted) where data.localName == wanted:
                return Kept(identity: "name:\(wanted)", txPower: txLevel)
            case let .service(uuid) where (data.serviceUUIDs ?? []).contains(uuid):
                return Kept(identity: "address:\(address)", txPower: txLevel)
            default:
                continue
            }
        }
        return nil
    }

    private func beaconIdentity(_ data: AdvertisingData) -> Kept? {
        if let frame = try? IBeacon(advertisingData: data) {
            guard admits(frame) else { return nil }
            return Kept(identity: "ibeacon:\(frame.uuid):\(frame.major):\(frame.minor)", txPower: Int(frame.measuredPower))
        }
        if let frame = try? EddystoneFrame(advertisingData: data) {
            let power = frame.measuredPowerAt1m.map(Int.init)
            switch frame {
            case let .uid(uid):
                guard admits(uid) else { return nil }
                return Kept(identity: "eddystone:\(Hex.encode(uid.namespace, uppercase: true)):\(Hex.encode(uid.instance, uppercase: true))",
                            txPower: power)
            case let .eid(eid) where !hasBeaconRule:
                let eidHex = String(eid.ephemeralIdentifier, radix: 16, uppercase: true)
                return Kept(identity: "eddystone-eid:" + String(repeating: "0", count: 16 - eidHex.count) + eidHex, txPower: power)
            default:
                return nil
            }
        }
        if let frame = try? AltBeacon(advertisingData: data) {
            guard admits(frame) else { return nil }
            return Kept(identity: "altbeacon:\(Hex.encode(frame.beaconID, uppercase: true))", txPower: Int(frame.referenceRSSI))
        }
        return nil
    }

    private func admits(_ frame: IBeacon) -> Bool {
        guard hasBeaconRule else { return true }
        return rules.contains { rule in
            guard case let .iBeacon(uuid, major, minor) = rule else { return false }
            return uuid == frame.uuid && (major == nil || major == frame.major) && (minor == nil || minor == frame.minor)
        }
    }

    private func admits(_ frame: EddystoneUID) -> Bool {
        guard hasBeaconRule else { return true }
        return rules.contains { rule in
            guard case let .eddystone(namespace, instance) = rule else { return false }
            return namespace == frame.namespace && (instance == nil || instance == frame.instance)
        }
    }

    private func admits(_ frame: AltBeacon) -> Bool {
        guard hasBeaconRule else { return true }
        return rules.contains { rule in
            guard case let .altBeacon(prefix) = rule else { return false }
            return frame.beaconID.starts(with: prefix)
        }
    }

    /// Equal when the rules are equal.
    public static func == (lhs: GatewayFilter, rhs: GatewayFilter) -> Bool { lhs.rules == rhs.rules }

    /// Hashes the rules.
    public func hash(into hasher: inout Hasher) { hasher.combine(rules) }
}
