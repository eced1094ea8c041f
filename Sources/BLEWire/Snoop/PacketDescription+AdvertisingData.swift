extension BTSnoop.PacketDescription {
    /// Advertising or scan response data as its AD structures (Core Specification Supplement
    /// 11, Part A, §1), one field each, named as `btmon` names them: Flags with their bits,
    /// service UUID lists, the local name, TX power, service data with its UUID, manufacturer
    /// data with the company's name (an iBeacon decoded), and any other type as its number
    /// and octets. Total: a structure running past the data ends the list with what is left
    /// in hex.
    public static func advertisingData(_ data: some Collection<UInt8>) -> [Field] {
        let bytes = Array(data)
        var fields: [Field] = []
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            if length == 0 {
                // Zero padding (§1.3): the rest is unused.
                if bytes[index...].contains(where: { $0 != 0 }) {
                    fields.append(Field("Malformed AD structure", Hex.encode(bytes[index...])))
                }
                break
            }
            guard index + 1 + length <= bytes.count else {
                fields.append(Field("Malformed AD structure", "length \(length) with \(bytes.count - index - 1) octets left: "
                                    + Hex.encode(bytes[index...])))
                break
            }
            let type = bytes[index + 1]
            fields.append(structure(type: type, bytes[(index + 2) ..< (index + 1 + length)]))
            index += 1 + length
        }
        return fields
    }

    /// One AD structure's field.
    private static func structure(type: UInt8, _ value: ArraySlice<UInt8>) -> Field {
        switch type {
        case 0x01:
            guard let flags = value.first else { return Field("Flags", "(none)") }
            let names = flagNames.filter { flags & $0.bit != 0 }.map { Field($0.name, "") }
            let reserved = flags & 0xE0 != 0 ? [Field("Reserved", hex(flags & 0xE0, digits: 2))] : []
            return Field("Flags", hex(flags, digits: 2), names + reserved)
        case 0x02, 0x03: return uuidList("16-bit Service UUIDs", complete: type == 0x03, value, width: 2)
        case 0x04, 0x05: return uuidList("32-bit Service UUIDs", complete: type == 0x05, value, width: 4)
        case 0x06, 0x07: return uuidList("128-bit Service UUIDs", complete: type == 0x07, value, width: 16)
        case 0x08: return Field("Name (short)", String(decoding: value, as: UTF8.self))
        case 0x09: return Field("Name (complete)", String(decoding: value, as: UTF8.self))
        case 0x0A:
            guard value.count == 1, let power = value.first else { return Field("TX power", "malformed: " + Hex.encode(value)) }
            return Field("TX power", "\(Int8(bitPattern: power)) dBm")
        case 0x16: return serviceData(value, width: 2)
        case 0x20: return serviceData(value, width: 4)
        case 0x21: return serviceData(value, width: 16)
        case 0x19:
            guard value.count == 2 else { return Field("Appearance", "malformed: " + Hex.encode(value)) }
            return Field("Appearance", hex(UInt16(value[value.startIndex]) | UInt16(value[value.startIndex + 1]) << 8, digits: 4))
        case 0xFF: return manufacturerData(value)
        default:
            let adType = AdvertisingData.ADType(rawValue: type)
            return Field(adType.name ?? "Unknown AD type", "(\(hex(type, digits: 2))) " + (value.isEmpty ? "(none)" : Hex.encode(value)))
        }
    }

    /// The Flags bits (Core Specification Supplement, Part A, §1.3), as `btmon` names them.
    private static let flagNames: [(bit: UInt8, name: String)] = [
        (0x01, "LE Limited Discoverable Mode"), (0x02, "LE General Discoverable Mode"), (0x04, "BR/EDR Not Supported"),
        (0x08, "Simultaneous LE and BR/EDR (Controller)"), (0x10, "Simultaneous LE and BR/EDR (Host)"),
    ]

    /// A list of service UUIDs of `width` octets each (§1.1): how many, then each below.
    private static func uuidList(_ name: String, complete: Bool, _ value: ArraySlice<UInt8>, width: Int) -> Field {
        let title = "\(name) (\(complete ? "complete" : "partial"))"
        guard value.count % width == 0 else { return Field(title, "malformed: " + Hex.encode(value)) }
        let uuids = stride(from: value.startIndex, to: value.endIndex, by: width).map { start in
            Field(uuid(value[start ..< start + width]), "")
        }
        return Field(title, uuids.count == 1 ? "1 entry" : "\(uuids.count) entries", uuids)
    }

    /// A UUID of 2, 4 or 16 octets in wire order, with its name when it has one.
    private static func uuid(_ octets: ArraySlice<UInt8>) -> String {
        guard let uuid = try? BluetoothUUID(decoding: octets) else { return Hex.encode(octets) }
        return describe(uuid)
    }

    /// Service Data (§1.11): the service's UUID, and its data below.
    private static func serviceData(_ value: ArraySlice<UInt8>, width: Int) -> Field {
        guard value.count >= width else { return Field("Service Data", "malformed: " + Hex.encode(value)) }
        let data = value.dropFirst(width)
        return Field("Service Data", uuid(value.prefix(width)), [Field("Data", data.isEmpty ? "(none)" : Hex.encode(data))])
    }

    /// Manufacturer Specific Data (§1.4): the company by name and number, then its data — an
    /// Apple iBeacon decoded into its proximity UUID, major, minor and measured power.
    private static func manufacturerData(_ value: ArraySlice<UInt8>) -> Field {
        guard value.count >= 2 else { return Field("Manufacturer Specific Data", "malformed: " + Hex.encode(value)) }
        let company = UInt16(value[value.startIndex]) | UInt16(value[value.startIndex + 1]) << 8
        let data = value.dropFirst(2)
        let companyText = (companyNames[company].map { $0 + " " } ?? "") + "(\(hex(company, digits: 4)))"
        if company == 0x004C, let beacon = iBeacon(data) {
            return Field("Manufacturer Specific Data", companyText, beacon)
        }
        return Field("Manufacturer Specific Data", companyText, [Field("Data", data.isEmpty ? "(none)" : Hex.encode(data))])
    }

    /// Apple's iBeacon layout inside its manufacturer data: type 0x02, length 0x15, a
    /// 128-bit proximity UUID, major and minor (big-endian), and the measured power at 1 m.
    private static func iBeacon(_ data: ArraySlice<UInt8>) -> [Field]? {
        let bytes = Array(data)
        guard bytes.count == 23, bytes[0] == 0x02, bytes[1] == 0x15 else { return nil }
        let uuidValue = bytes[2 ..< 18].reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
        let major = UInt16(bytes[18]) << 8 | UInt16(bytes[19])
        let minor = UInt16(bytes[20]) << 8 | UInt16(bytes[21])
        return [
            Field("Type", "iBeacon (0x02)"),
            Field("UUID", BluetoothUUID(uuid128: uuidValue).uuidString),
            Field("Major", "\(major) (\(hex(major, digits: 4)))"),
            Field("Minor", "\(minor) (\(hex(minor, digits: 4)))"),
            Field("Measured power", "\(Int8(bitPattern: bytes[22])) dBm"),
        ]
    }

    /// Company names of common Company Identifiers, from the Bluetooth SIG Assigned Numbers
    /// document, §7 "Company Identifiers" (company_identifiers.yaml): Manufacturer Specific
    /// Data and LMP version information carry these.
    public static let companyNames: [UInt16: String] = [
        0x0002: "Intel Corp.",
        0x0006: "Microsoft",
        0x000F: "Broadcom Corporation",
        0x004C: "Apple, Inc.",
        0x0059: "Nordic Semiconductor ASA",
        0x0075: "Samsung Electronics Co. Ltd.",
        0x00E0: "Google",
    ]
}
