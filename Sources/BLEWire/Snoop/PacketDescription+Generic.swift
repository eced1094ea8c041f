extension BTSnoop.PacketDescription {
    /// The fields of any decoded value, for the PDUs without a describer of their own: walks
    /// it with `Mirror` and formats each stored property by what it is and what it is called
    /// — names in words, handles and opcodes in hex, RSSI and TX power in dBm, intervals in
    /// milliseconds beside their raw value, octets in hex, enumerations as their case in words
    /// with the raw value — so that no Swift type name reaches the output.
    public static func generic(_ value: Any) -> [Field] {
        fields(of: value, depth: 0)
    }

    /// The title and fields of an enumeration case carrying a PDU (`ATT.PDU`, `SMP.PDU`,
    /// `L2CAP.LESignalingCommand`): the case name in words after `prefix`, the payload's fields.
    static func genericCase(_ value: Any, prefix: String) -> BTSnoop.PacketDescription {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum, let child = mirror.children.first, let label = child.label else {
            return BTSnoop.PacketDescription(prefix + words(String(describing: type(of: value))), generic(value))
        }
        return BTSnoop.PacketDescription(prefix + words(label), fields(of: child.value, depth: 0))
    }

    /// How deep `generic(_:)` walks nested values before it stops.
    private static let maximumDepth = 6

    private static func fields(of value: Any, depth: Int) -> [Field] {
        let mirror = Mirror(reflecting: value)
        var result: [Field] = []
        for child in mirror.children {
            let label = child.label ?? ""
            // A tuple's unlabelled element (an enum case's payload) stands for its own fields.
            if label.isEmpty || label.hasPrefix(".") {
                if let (text, children) = format(child.value, name: "", depth: depth + 1) {
                    if text.isEmpty { result += children } else { result.append(Field("Value", text, children)) }
                }
                continue
            }
            if let (text, children) = format(child.value, name: label, depth: depth + 1) {
                result.append(Field(fieldName(label), text, children))
            }
        }
        return result
    }

    /// One value as text and the fields below it; `nil` for an absent optional.
    static func format(_ value: Any, name: String, depth: Int) -> (String, [Field])? {
        let key = name.lowercased()
        switch value {
        case let address as BluetoothAddress: return (describe(address), [])
        case let uuid as BluetoothUUID: return (describe(uuid), [])
        case let opcode as HCI.Opcode: return (describe(opcode), [])
        case let opcode as ATT.Opcode: return (describe(opcode), [])
        case let status as HCI.StatusCode: return (status.name + " (\(hex(status.rawValue, digits: 2)))", [])
        case let error as ATT.ErrorCode: return (error.name + " (\(hex(error.rawValue, digits: 2)))", [])
        case let reason as SMP.PairingFailedReason: return (reason.name + " (\(hex(reason.rawValue, digits: 2)))", [])
        case let key128 as UInt128: return (hex(littleEndian: key128), [])
        case let coordinate as SMP.PublicKeyCoordinate:
            return (hex(littleEndian: coordinate.low) + hex(littleEndian: coordinate.high), [])
        case let flag as Bool:
            return (key.contains("enable") ? (flag ? "Enabled" : "Disabled") : (flag ? "Yes" : "No"), [])
        case let bytes as [UInt8]: return (bytes.isEmpty ? "(none)" : Hex.encode(bytes), [])
        case let bytes as ArraySlice<UInt8>: return (bytes.isEmpty ? "(none)" : Hex.encode(bytes), [])
        case let range as ClosedRange<UInt16>: return (hex(range.lowerBound, digits: 4) + "-" + hex(range.upperBound, digits: 4), [])
        case let text as String: return ("\"\(text)\"", [])
        case let number as any BinaryInteger: return (integer(number, name: key), [])
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return nil }
            return format(wrapped.value, name: name, depth: depth)
        case .collection, .set, .dictionary:
            return collection(mirror, depth: depth)
        default: break
        }
        if let described = value as? any CustomStringConvertible {
            return (lowercasingHex(described.description), [])
        }
        if mirror.displayStyle == .enum {
            guard let payload = mirror.children.first else {
                // A case without payload: its name in words, and its raw value when it has one.
                let caseName = words(String(describing: value))
                if let (raw, octets) = rawInteger(of: value) { return ("\(caseName) (\(hex(raw, digits: 2 * octets)))", []) }
                return (caseName, [])
            }
            guard depth < maximumDepth else { return (words(payload.label ?? ""), []) }
            let inner = format(payload.value, name: "", depth: depth + 1)
            let label = words(payload.label ?? "")
            guard let (text, children) = inner else { return (label, []) }
            return (text.isEmpty ? label : "\(label): \(text)", children)
        }
        // An option set or other raw-valued struct: its raw value in hex.
        if let (raw, octets) = rawInteger(of: value) { return (hex(raw, digits: 2 * octets), []) }
        guard depth < maximumDepth, !mirror.children.isEmpty else { return ("", []) }
        return ("", fields(of: value, depth: depth))
    }

    /// A list: its count, and each element below it — a plain value as a line of its own, a
    /// structure as "Entry n" with its fields.
    private static func collection(_ mirror: Mirror, depth: Int) -> (String, [Field]) {
        let elements = Array(mirror.children)
        var children: [Field] = []
        if depth < maximumDepth {
            for (index, element) in elements.enumerated() {
                guard let (text, inner) = format(element.value, name: "", depth: depth + 1) else { continue }
                if text.isEmpty {
                    children.append(Field("Entry \(index + 1)", "", inner))
                } else {
                    children.append(Field(text, "", inner))
                }
            }
        }
        return (elements.count == 1 ? "1 entry" : "\(elements.count) entries", children)
    }

    /// The raw value of a `RawRepresentable` whose raw value is an integer, and its width in octets.
    private static func rawInteger(of value: Any) -> (UInt64, Int)? {
        guard let representable = value as? any RawRepresentable else { return nil }
        func raw(_ value: some RawRepresentable) -> Any { value.rawValue }
        guard let number = raw(representable) as? any BinaryInteger else { return nil }
        return (UInt64(truncatingIfNeeded: number), max(1, number.bitWidth / 8))
    }

    /// An integer by what its name says it is: handles, opcodes, masks and features in hex;
    /// RSSI and TX power in dBm; intervals, windows and timeouts in milliseconds beside the
    /// raw value; anything else in decimal.
    static func integer(_ number: some BinaryInteger, name key: String) -> String {
        let octets = max(1, number.bitWidth / 8)
        if key.contains("handle") || key.contains("opcode") || key.contains("mask") || key.contains("feature")
            || key.contains("flags") || key.hasSuffix("bits") || key.contains("psm") || key.hasSuffix("cid")
            || key.contains("channelidentifier") || key.contains("diversifier") || key.contains("randomnumber") {
            return hex(UInt64(truncatingIfNeeded: number), digits: 2 * octets)
        }
        if key == "rssi" || key.contains("power") { return "\(number) dBm" }
        if key.contains("companyidentifier") || key == "manufacturername" {
            let company = UInt16(truncatingIfNeeded: number)
            return (companyNames[company].map { $0 + " " } ?? "") + "(\(hex(company, digits: 4)))"
        }
        let raw = " (" + hex(UInt64(truncatingIfNeeded: number), digits: 2 * octets) + ")"
        if key.contains("supervisiontimeout") || key == "timeout" { return milliseconds(Int(number) * 10_000) + raw }
        if key.contains("connectioninterval") || key.contains("connintervalm") || key.hasPrefix("intervalm") {
            return milliseconds(Int(number) * 1250) + raw
        }
        if key.contains("scaninterval") || key.contains("scanwindow") || key.contains("advertisinginterval") {
            return milliseconds(Int(number) * 625) + raw
        }
        return "\(number)"
    }

    /// `text` with its `0x…` numbers in lower case, as the rest of the output writes them.
    static func lowercasingHex(_ text: String) -> String {
        var result = ""
        var inNumber = false
        var previous: Character = " "
        for character in text {
            if inNumber, character.isHexDigit {
                result += character.lowercased()
                continue
            }
            inNumber = previous == "0" && character == "x"
            result.append(character)
            previous = character
        }
        return result
    }

    /// `microseconds` as milliseconds with up to three decimals: `60 ms`, `7.5 ms`.
    static func milliseconds(_ microseconds: Int) -> String {
        let whole = microseconds / 1000
        var fraction = String(microseconds % 1000)
        guard microseconds % 1000 != 0 else { return "\(whole) ms" }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction) ms"
    }

    /// `0x0040`: lower-case hex with at least `digits` digits, as `btmon` prints it.
    public static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A 128-bit value's octets in wire order (least significant first), as `btmon` prints keys.
    static func hex(littleEndian value: UInt128) -> String {
        Hex.encode((0 ..< 16).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// `C0:6A:77:00:00:01 (Random)`.
    public static func describe(_ address: BluetoothAddress) -> String {
        "\(address) (\(address.kind == .public ? "Public" : "Random"))"
    }

    /// `Primary Service (0x2800)`, `0xfeaa`, or the 128-bit form for a UUID off the base.
    public static func describe(_ uuid: BluetoothUUID) -> String {
        let number: String
        if let short = uuid.uuid16 {
            number = hex(short, digits: 4)
        } else if let medium = uuid.uuid32 {
            number = hex(medium, digits: 8)
        } else {
            return uuid.uuidString.lowercased()
        }
        if let short = uuid.uuid16, let name = uuidNames[short] { return "\(name) (\(number))" }
        return number
    }

    /// `LE Set Scan Enable (0x200c)`.
    static func describe(_ opcode: HCI.Opcode) -> String {
        "\(opcode.name ?? "Unknown") (\(hex(opcode.rawValue, digits: 4)))"
    }

    /// `Read By Group Type Request (0x10)`.
    static func describe(_ opcode: ATT.Opcode) -> String {
        (attOpcodeNames[opcode.rawValue].map { $0 + " " } ?? "") + "(\(hex(opcode.rawValue, digits: 2)))"
    }

    /// The names of the 16-bit UUIDs a GATT exchange shows most: the attribute types of
    /// Bluetooth SIG Assigned Numbers §3.5–§3.8 and common services and characteristics
    /// (§3.4, §3.8).
    static let uuidNames: [UInt16: String] = [
        0x1800: "Generic Access Profile", 0x1801: "Generic Attribute Profile", 0x180A: "Device Information",
        0x180D: "Heart Rate", 0x180F: "Battery Service", 0x1812: "Human Interface Device", 0x181A: "Environmental Sensing",
        0x2800: "Primary Service", 0x2801: "Secondary Service", 0x2802: "Include", 0x2803: "Characteristic",
        0x2900: "Characteristic Extended Properties", 0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration", 0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format", 0x2A00: "Device Name", 0x2A01: "Appearance",
        0x2A04: "Peripheral Preferred Connection Parameters", 0x2A05: "Service Changed", 0x2A19: "Battery Level",
        0x2A23: "System ID", 0x2A24: "Model Number String", 0x2A25: "Serial Number String",
        0x2A26: "Firmware Revision String", 0x2A27: "Hardware Revision String", 0x2A28: "Software Revision String",
        0x2A29: "Manufacturer Name String", 0x2A37: "Heart Rate Measurement", 0x2B29: "Client Supported Features",
        0x2B2A: "Database Hash", 0x2B3A: "Server Supported Features", 0xFEAA: "Eddystone",
    ]
}
