/// A fuzzer's input read as a sequence of small decisions: an operation, a connection, a
/// length, some octets. Reading past the end yields zeros, so every input is a valid
/// program and the fuzzer's mutations stay meaningful (docs/fuzzing.md).
///
/// This file is compiled twice: into the module's test target, where the committed
/// corpora are replayed, and into the libFuzzer executable of Fuzz/Stateful.
struct StatefulFuzzInput {
    private let octets: [UInt8]
    private var index = 0

    /// An input over `octets`.
    init(_ octets: [UInt8]) {
        self.octets = octets
    }

    /// Whether every octet has been read.
    var isAtEnd: Bool { index >= octets.count }

    /// The next octet, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard index < octets.count else { return 0 }
        defer { index += 1 }
        return octets[index]
    }

    /// The next two octets, little-endian.
    mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }

    /// A length octet, then that many octets (at most `limit`; fewer at the end).
    mutating func chunk(limit: Int = 255) -> [UInt8] {
        let count = min(Int(byte()), limit)
        let end = min(index + count, octets.count)
        defer { index = end }
        return index < end ? Array(octets[index ..< end]) : []
    }

    /// One of `choices`, picked by the next octet.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }
}

/// An invariant a stateful fuzz target found broken: which step of the input, and what.
struct StatefulFuzzViolation: Error, CustomStringConvertible {
    /// The step (0-based) after which the check failed.
    let step: Int
    /// The invariant and the evidence.
    let message: String

    var description: String { "step \(step): \(message)" }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these octets.
    func containsRun(_ needle: ArraySlice<UInt8>) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        for start in 0 ... (count - needle.count) where self[start] == needle.first {
            if self[start ..< start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
