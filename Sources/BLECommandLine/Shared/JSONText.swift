import BLEWorld

/// A JSON value whose object keys keep the order written, for the nested documents of
/// `ble gatt dump --json` and `ble serve` (OutputLine covers the flat lines).
indirect enum JSONText {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case integer(Int)
    /// A finite number with at most three decimals (non-finite ones print as null).
    case number(Double)
    case bool(Bool)
    case null

    /// Lowercase hex of `bytes`, or null without them: how the documents write values.
    static func hex(_ bytes: [UInt8]?) -> JSONText {
        guard let bytes else { return .null }
        return .string(hexText(bytes))
    }

    /// The value on one line.
    var rendered: String {
        switch self {
        case let .object(fields):
            return "{" + fields.map { SimulationLog.quote($0.0) + ": " + $0.1.rendered }.joined(separator: ", ") + "}"
        case let .array(items): return "[" + items.map(\.rendered).joined(separator: ", ") + "]"
        case let .string(text): return SimulationLog.quote(text)
        case let .integer(value): return String(value)
        case let .number(value): return OutputLine.Value.number(value).json
        case let .bool(value): return value ? "true" : "false"
        case .null: return "null"
        }
    }
}

/// Lowercase hex, two digits per octet.
func hexText(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return text
}

/// Octets from hex text (spaces, colons and a leading 0x allowed); `nil` when it is not hex.
func bytes(fromHex text: String) -> [UInt8]? {
    var cleaned = text.lowercased()
    if cleaned.hasPrefix("0x") { cleaned.removeFirst(2) }
    let digits = cleaned.filter { !" :-_".contains($0) }
    guard digits.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index ..< next], radix: 16) else { return nil }
        result.append(byte)
        index = next
    }
    return result
}
