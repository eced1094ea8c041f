import BLEWire

/// How `ble gatt read`, `write` and `subscribe` show a value: hex, the text when every octet
/// is printable, the octet count in words, and what a few standard characteristics mean
/// (GATT Specification Supplement: Battery Level, Heart Rate Measurement, Body Sensor
/// Location, Tx Power Level, Alert Level), as nRF Connect shows them.
enum GATTValueText {
    /// `1 octet`, `4 octets`.
    static func octets(_ count: Int) -> String {
        count == 1 ? "1 octet" : "\(count) octets"
    }

    /// The value as text when it is printable ASCII of two octets or more (one octet is more
    /// likely a number than a letter), else `nil`.
    static func printable(_ value: [UInt8]) -> String? {
        guard value.count >= 2, value.allSatisfy({ (0x20 ..< 0x7F).contains($0) }) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    /// `64 (1 octet)`, `53776966 "Swif" (4 octets)` or `(empty)`.
    static func line(_ value: [UInt8]) -> String {
        guard !value.isEmpty else { return "(empty)" }
        return hexText(value) + (printable(value).map { " \"\($0)\"" } ?? "") + " (\(octets(value.count)))"
    }

    /// What the value of the standard characteristic `uuid` means (`100 %`, `72 bpm`,
    /// `Chest`), or `nil` for another characteristic or a value of the wrong shape.
    static func decoded(_ value: [UInt8], of uuid: BluetoothUUID) -> String? {
        switch uuid.uuid16 {
        case 0x2A19?:
            guard value.count == 1, value[0] <= 100 else { return nil }
            return "\(value[0]) %"
        case 0x2A37?:
            // Flags bit 0: the rate is a UINT16 rather than a UINT8.
            guard let flags = value.first else { return nil }
            if flags & 0x01 == 0 {
                guard value.count >= 2 else { return nil }
                return "\(value[1]) bpm"
            }
            guard value.count >= 3 else { return nil }
            return "\(UInt16(value[1]) | UInt16(value[2]) << 8) bpm"
        case 0x2A38?:
            let locations = ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot"]
            guard value.count == 1, Int(value[0]) < locations.count else { return nil }
            return locations[Int(value[0])]
        case 0x2A07?:
            guard value.count == 1 else { return nil }
            return "\(Int8(bitPattern: value[0])) dBm"
        case 0x2A06?:
            let levels = ["No Alert", "Mild Alert", "High Alert"]
            guard value.count == 1, Int(value[0]) < levels.count else { return nil }
            return levels[Int(value[0])]
        default:
            return nil
        }
    }
}
