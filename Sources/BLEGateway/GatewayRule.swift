import Foundation
import BLEBeacons
import BLEWire

/// One thing a gateway keeps (`ble gateway --ibeacon …`, a scenario gateway's `keep:`): a
/// beacon identity or family, a service, a name, an address, or an IRK whose resolvable
/// private addresses are stored as one identity (Core 5.4, Vol 3, Part C, §10.8.2.3).
public enum GatewayRule: Hashable, Sendable {
    /// iBeacons of a proximity UUID, optionally one major, optionally one minor.
    case iBeacon(uuid: ProximityUUID, major: UInt16?, minor: UInt16?)
    /// Eddystone-UID frames of a 10-octet namespace, optionally one 6-octet instance.
    case eddystone(namespace: [UInt8], instance: [UInt8]?)
    /// AltBeacons whose 20-octet beacon ID starts with these octets (an ID1 UUID, say).
    case altBeacon(prefix: [UInt8])
    /// Advertisers listing this service UUID, kept under their address.
    case service(BluetoothUUID)
    /// Advertisers with exactly this local name, kept under their name.
    case name(String)
    /// This advertiser, by address (either type).
    case address(BluetoothAddress)
    /// Resolvable private addresses made with this IRK, kept as `irk:LABEL`.
    case irk(label: String, key: UInt128)

    /// Parses `value` as the option `--KIND value` of `ble gateway` takes it.
    /// - Throws: ``GatewayRuleError`` naming the option, the value and what is accepted.
    public init(kind: String, value: String) throws(GatewayRuleError) {
        let text = value.trimmingCharacters(in: .whitespaces)
        func fail(_ reason: String) -> GatewayRuleError { GatewayRuleError(option: kind, value: value, reason: reason) }
        switch kind {
        case "ibeacon":
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard (1 ... 3).contains(parts.count), let uuid = ProximityUUID(parts[0]) else {
                throw fail("expected UUID[:MAJOR[:MINOR]], e.g. 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51:1:2")
            }
            var numbers: [UInt16] = []
            for part in parts.dropFirst() {
                guard let number = UInt16(part) else { throw fail("\"\(part)\" is not a major or minor (0–65535)") }
                numbers.append(number)
            }
            self = .iBeacon(uuid: uuid, major: numbers.first, minor: numbers.count > 1 ? numbers[1] : nil)
        case "eddystone":
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard (1 ... 2).contains(parts.count), let namespace = Hex.decode(parts[0]), namespace.count == 10 else {
                throw fail("expected NAMESPACE[:INSTANCE]: 20 hex digits, then 12")
            }
            var instance: [UInt8]?
            if parts.count == 2 {
                guard let octets = Hex.decode(parts[1]), octets.count == 6 else { throw fail("the instance must be 12 hex digits") }
                instance = octets
            }
            self = .eddystone(namespace: namespace, instance: instance)
        case "altbeacon":
            let digits = text.replacingOccurrences(of: "-", with: "")
            guard let octets = Hex.decode(digits), (1 ... 20).contains(octets.count) else {
                throw fail("expected the start of a beacon ID in hex (1 to 20 octets), e.g. an ID1 UUID")
            }
            self = .altBeacon(prefix: octets)
        case "service":
            guard let uuid = BluetoothUUID(text) else { throw fail("expected a UUID such as 180D or 0000FEAA-0000-1000-8000-00805F9B34FB") }
            self = .service(uuid)
        case "name":
            guard !text.isEmpty, text.utf8.count <= 248 else { throw fail("expected a local name of 1 to 248 octets") }
            self = .name(text)
        case "address":
            guard let address = BluetoothAddress(text) else { throw fail("expected an address like C0:11:22:33:44:55") }
            self = .address(address)
        case "irk":
            let label: String, hex: String
            if let equals = text.firstIndex(of: "=") {
                label = String(text[..<equals])
                hex = String(text[text.index(after: equals)...])
                guard !label.isEmpty, !label.contains(":") else { throw fail("the name before = must be non-empty and hold no colon") }
            } else {
                hex = text
                label = ""
            }
            let digits = hex.hasPrefix("0x") ? String(hex.dropFirst(2)) : hex
            guard digits.count == 32, let octets = Hex.decode(digits) else {
                throw fail("expected [NAME=]IRK with the IRK as 32 hex digits (16 octets, most significant first)")
            }
            let key = octets.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
            self = .irk(label: label.isEmpty ? String(digits.prefix(8)).uppercased() : label, key: key)
        default:
            throw fail("unknown kind; use one of " + ScenarioRuleKinds.all.joined(separator: ", "))
        }
    }

    /// Whether the rule names a beacon frame (so that other beacon frames are not kept).
    var isBeaconRule: Bool {
        switch self {
        case .iBeacon, .eddystone, .altBeacon: return true
        default: return false
        }
    }
}

/// The option names a rule can have, in the order `ble gateway --help` lists them.
enum ScenarioRuleKinds {
    static let all = ["ibeacon", "eddystone", "altbeacon", "service", "name", "address", "irk"]
}

/// A filter option `ble gateway` cannot use, with why and what it accepts.
public struct GatewayRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The option's name (`ibeacon`, `irk`, …).
    public var option: String
    /// The value as given.
    public var value: String
    /// Why it is refused and what is accepted.
    public var reason: String

    /// One sentence naming the option and the value.
    public var description: String { "--\(option) \"\(value)\": \(reason)." }
}
