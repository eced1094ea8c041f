import ArgumentParser
import BLEHost
import BLEWire

/// Checks and parsers that several commands share, so that one kind of argument is read and
/// refused the same way everywhere: a usage error (exit 64) whose one sentence names what is
/// accepted (DESIGN.md, "The command line").
enum ArgumentChecks {
    /// Refuses a duration unless it is more than 0 and at most `maximum` seconds, saying so
    /// in those words: "between 0 and 86400" read as if 0 were accepted.
    static func duration(_ value: Double?, option: String, maximum: Double) throws {
        guard let value, !(value.isFinite && value > 0 && value <= maximum) else { return }
        throw ValidationError("\(option) must be more than 0 and at most \(number(maximum)) seconds; got \(number(value)).")
    }

    /// A UUID as the command line takes it: `180D`, `0x180D` (the 0x that handles and
    /// company identifiers take too), 8 hex digits, or the 128-bit form.
    static func uuid(_ text: String) -> BluetoothUUID? {
        if let uuid = BluetoothUUID(text) { return uuid }
        guard text.lowercased().hasPrefix("0x"), text.count == 6 || text.count == 10 else { return nil }
        return BluetoothUUID(String(text.dropFirst(2)))
    }

    /// Refuses every text of `texts` that ``uuid(_:)`` does not read, naming `option`.
    static func uuids(_ texts: [String], option: String) throws {
        for text in texts where uuid(text) == nil {
            throw ValidationError("\(option) \(text) is not a UUID: use 4 or 8 hex digits (180D or 0x180D) or the 128-bit form.")
        }
    }

    /// Refuses an `--own-address` that is not a random static address (Core 5.4, Vol 6,
    /// Part B, §1.3.2.1: the two top bits set, the other 46 neither all 0 nor all 1) before
    /// anything opens; the controller refused it only after connecting had begun, status 1.
    static func ownAddress(_ text: String?) throws {
        guard let text else { return }
        guard let address = BluetoothAddress(text, kind: .random) else {
            throw ValidationError("--own-address \(text) is not an address: write it as C0:11:22:33:44:55.")
        }
        guard GAPRandomStaticAddress.isValid(address) else {
            throw ValidationError("--own-address \(text) is not a random static address: its first hex digit must be C to F "
                                  + "(the two top bits set) and the rest neither all 0 nor all 1, e.g. C0:5F:00:00:00:01.")
        }
    }

    /// `value` as a user writes it: `0`, `1.5`, `86400`, `-5`.
    static func number(_ value: Double) -> String {
        value.isFinite ? BeaconOutput.decimal(value, places: 3) : "\(value)"
    }
}
