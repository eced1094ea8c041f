import Yams

/// Numbers from YAML scalars as Yams' `Double.construct(from:)` and `Int64.construct(from:)`
/// read them, with a shortcut for the spellings a scenario almost always uses.
///
/// Yams lower-cases the text and removes `_` separators through Foundation's string search
/// before it parses a number (so that `1_000`, `.inf` and sexagesimal `1:30` read); on a large
/// scenario those searches were a seventh of the load (issue 31). Text made only of digits,
/// signs, `.` and exponents has nothing for them to change, so it goes straight to the
/// standard library's parser, which is what Yams calls after them; anything else goes to Yams.
enum YAMLScalarNumbers {
    /// The scalar as a `Double`, exactly as `Double.construct(from:)` reads it.
    static func double(_ scalar: YAMLTreeScalar) -> Double? {
        guard isPlain(scalar) else { return nil }
        if scalar.text.utf8.allSatisfy(isDecimalFloatByte) { return Double(scalar.text) }
        return Double.construct(from: scalar.yamsScalar)
    }

    /// The scalar as an `Int64`, exactly as `Int64.construct(from:)` reads it.
    static func int64(_ scalar: YAMLTreeScalar) -> Int64? {
        guard isPlain(scalar) else { return nil }
        // Yams reads a leading 0 as octal (and `-0` as nothing), so those go to Yams.
        let text = scalar.text.utf8
        let digits = text.first == UInt8(ascii: "-") ? text.dropFirst() : text[...]
        if let first = digits.first, first != UInt8(ascii: "0"), digits.allSatisfy(isDigit) { return Int64(scalar.text) }
        return Int64.construct(from: scalar.yamsScalar)
    }

    /// Yams reads numbers only from plain scalars: `"5"` is a string.
    private static func isPlain(_ scalar: YAMLTreeScalar) -> Bool { scalar.style == .plain || scalar.style == .any }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isDecimalFloatByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }
}
