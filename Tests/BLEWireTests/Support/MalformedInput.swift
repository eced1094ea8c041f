import BLEWire
import Testing

/// Mutations of a valid PDU for the malformed-input test: every truncation, extensions
/// by one and by many octets, and every single-bit flip.
enum MalformedInput {
    /// The mutated inputs derived from `valid`.
    static func mutations(of valid: [UInt8]) -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        for length in 0 ..< valid.count { inputs.append(Array(valid.prefix(length))) }
        inputs.append(valid + [0x00])
        inputs.append(valid + [0xFF])
        inputs.append(valid + [UInt8](repeating: 0xA5, count: 300))
        for index in valid.indices {
            for bit in 0 ..< 8 {
                var flipped = valid
                flipped[index] ^= UInt8(1) << UInt8(bit)
                inputs.append(flipped)
            }
        }
        return inputs
    }

    /// Feeds every mutation of `valid` to `decode`. The decoder must either throw a
    /// `WireError` (the only error its signature allows) or return a value; a value that
    /// decodes must encode again without trapping. Returns how many inputs were rejected,
    /// so callers can assert that truncation is noticed.
    @discardableResult
    static func check(_ valid: [UInt8], decode: ([UInt8]) throws(WireError) -> [UInt8]) -> Int {
        var rejected = 0
        for input in mutations(of: valid) {
            do {
                _ = try decode(input)
            } catch {
                #expect(!error.field.isEmpty, "a WireError must name its field")
                rejected += 1
            }
        }
        return rejected
    }

    /// The common case: decode as `T` with `init(decoding:)` and re-encode.
    @discardableResult
    static func check<T: WireCodable>(_ valid: [UInt8], as type: T.Type) -> Int {
        check(valid) { (bytes: [UInt8]) throws(WireError) -> [UInt8] in
            try T(decoding: bytes).encoded()
        }
    }
}
