import BLEWorld
import Foundation

/// One line of output of `ble l2cap` and `ble bench`: a readable sentence, or with `--json`
/// one JSON object whose keys keep the order written (as `ble scan --json` and
/// `ble sim run --json` print).
struct OutputLine {
    /// A JSON value of a field.
    enum Value {
        case string(String)
        case integer(Int)
        /// A finite number, printed with at most three decimals; non-finite ones print as null.
        case number(Double)
        case bool(Bool)
        case null
        /// A JSON array.
        case array([Value])
        /// A JSON object, keys in the order given.
        case object([(String, Value)])

        var json: String {
            switch self {
            case let .string(text): return SimulationLog.quote(text)
            case let .integer(value): return String(value)
            case let .number(value):
                guard value.isFinite else { return "null" }
                let rounded = (value * 1000).rounded() / 1000
                return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
            case let .bool(value): return value ? "true" : "false"
            case .null: return "null"
            case let .array(values): return "[" + values.map(\.json).joined(separator: ", ") + "]"
            case let .object(fields): return "{" + fields.map { SimulationLog.quote($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
            }
        }
    }

    /// The sentence printed without `--json`.
    var text: String
    /// The object printed with `--json`, keys in order.
    var fields: [(String, Value)]

    /// `{"key": value, …}`.
    var json: String {
        "{" + fields.map { SimulationLog.quote($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
    }

    /// Writes the line to stdout at once (not through stdio's buffer), so a process
    /// reading a pipe sees each event as it happens.
    func print(json: Bool) {
        FileHandle.standardOutput.write(Data(((json ? self.json : text) + "\n").utf8))
    }
}

extension Double {
    /// The value with `digits` decimals, for sentences.
    func formatted(decimals digits: Int) -> String {
        guard isFinite else { return "\(self)" }
        var scale = 1.0
        for _ in 0 ..< digits { scale *= 10 }
        let scaled = Int64((self * scale).rounded())
        let whole = scaled / Int64(scale), fraction = abs(scaled % Int64(scale))
        guard digits > 0 else { return String(whole) }
        let fractionText = String(fraction)
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}

extension String {
    /// The text with leading zeros up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
