// Shared by every fuzz target; compiled into the same module as BLEWire.

/// The fuzz oracle for one decoder: decoding arbitrary bytes must not trap, and a value
/// that decodes must survive an encode/decode round trip unchanged. A mismatch is a bug,
/// so it traps on purpose: libFuzzer saves the input as a crash artifact.
@inline(never)
func fuzzRoundTrip<Value: Equatable>(
    _ bytes: [UInt8],
    decode: ([UInt8]) throws(WireError) -> Value,
    encode: (Value) -> [UInt8]
) {
    guard let value = try? decode(bytes) else { return }
    let again = encode(value)
    guard let decodedAgain = try? decode(again), decodedAgain == value else {
        fatalError("round trip changed the value for input \(Hex.encode(bytes))")
    }
}

/// `fuzzRoundTrip` for a `WireCodable` type decoded with `init(decoding:)`.
@inline(never)
func fuzzRoundTrip<Value: WireCodable & Equatable>(_ bytes: [UInt8], as type: Value.Type) {
    fuzzRoundTrip(bytes, decode: { (input: [UInt8]) throws(WireError) -> Value in try Value(decoding: input) }, encode: { $0.encoded() })
}

/// Copies libFuzzer's input into an array.
func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}
