/// Hexadecimal text for octets, as logs, the CLI's JSON and test fixtures use it.
public enum Hex {
    /// Lowercase hex of `bytes` with no separators, e.g. `"0201061aff"`.
    public static func encode<Octets: Sequence>(_ bytes: Octets, uppercase: Bool = false) -> String where Octets.Element == UInt8 {
        let digits: [UInt8] = Array(uppercase ? "0123456789ABCDEF".utf8 : "0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Octets from hex text; spaces, colons, dashes, underscores and line breaks are
    /// ignored, so fixtures can be pasted from captures. Returns `nil` on any other
    /// character or an odd number of digits.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        for scalar in text.utf8 {
            let nibble: UInt8
            switch scalar {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = scalar - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = scalar - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): nibble = scalar - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                continue
            default:
                return nil
            }
            if let pending = high {
                out.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}
