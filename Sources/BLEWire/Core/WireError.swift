/// The one error every decoder in `BLEWire` throws: which field was wrong, and why.
///
/// Decoding is total: bytes from a peer, a controller or a file never trap, they
/// produce a `WireError` that names the field so a log line or a test failure says
/// exactly where the input went wrong.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the field.
    public enum Reason: Hashable, Sendable {
        /// The input ended before the field: `needed` octets, `available` left.
        case truncated(needed: Int, available: Int)
        /// Octets were left over after a PDU whose length is fixed or declared.
        case trailingBytes(Int)
        /// A length field disagrees with the octets that follow it.
        case lengthMismatch(declared: Int, actual: Int)
        /// The field holds a value the specification reserves or forbids.
        case invalidValue(UInt64)
        /// The opcode, event code or type identifies nothing this decoder knows.
        case unknownCode(UInt64)
        /// The value breaks a rule stated in words (e.g. "exceeds the 31-octet budget").
        case constraint(String)
    }

    /// The field that could not be decoded, e.g. `"ATT.ReadByTypeResponse.length"`.
    public var field: String
    /// Why it could not be decoded.
    public var reason: Reason

    /// Creates an error for `field` with `reason`.
    public init(field: String, reason: Reason) {
        self.field = field
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case let .truncated(needed, available):
            return "\(field): truncated, needs \(needed) octet(s) but \(available) remain"
        case let .trailingBytes(count):
            return "\(field): \(count) unexpected octet(s) after the end"
        case let .lengthMismatch(declared, actual):
            return "\(field): length field says \(declared) but \(actual) octet(s) follow"
        case let .invalidValue(value):
            return "\(field): invalid value 0x\(String(value, radix: 16, uppercase: true))"
        case let .unknownCode(code):
            return "\(field): unknown code 0x\(String(code, radix: 16, uppercase: true))"
        case let .constraint(text):
            return "\(field): \(text)"
        }
    }
}
