import BLEWire

/// A peer named on the command line as `ble scan` prints it: `C0:11:22:33:44:55`, public
/// unless `/random` follows (or `--random` is given), as in `btmgmt`'s address-and-type
/// pairs. The type is part of the address on air (TxAdd/RxAdd, Core 5.4, Vol 6, Part B,
/// §2.3), so connecting with the wrong one never finds the device.
struct PeerAddress: Sendable, CustomStringConvertible {
    let address: BluetoothAddress

    /// The address type HCI LE Create Connection takes (Vol 4, Part E, §7.8.12).
    var hciType: HCI.AddressType { address.kind == .random ? .random : .public }

    /// Parses `ADDRESS[/random|/public]`; `random` forces the random type unless the text
    /// says `/public`. `nil` when the text is not an address.
    init?(parsing text: String, random: Bool = false) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1 ... 2).contains(parts.count) else { return nil }
        var kind: BluetoothAddress.Kind = random ? .random : .public
        if parts.count == 2 {
            switch parts[1].lowercased() {
            case "random", "r": kind = .random
            case "public", "p": kind = .public
            default: return nil
            }
        }
        guard let address = BluetoothAddress(String(parts[0]), kind: kind) else { return nil }
        self.address = address
    }

    /// A peer as the controller reported it; identity types count as their base type.
    init(_ address: BluetoothAddress, type: HCI.AddressType) {
        let random = type == .random || type == .randomIdentity
        self.address = BluetoothAddress(address.value, kind: random ? .random : .public)
    }

    /// `public` or `random`, as `ble scan --json` prints `addressType`.
    var typeName: String { address.kind == .random ? "random" : "public" }

    /// `C0:11:22:33:44:55/random` or `F0:5B:1E:00:00:01/public`.
    var description: String { "\(address)/\(typeName)" }
}
