import Foundation

/// The messages of a scripted chat run (`ble chat --send-count N --seed S`): the same seed
/// gives the same messages, so the partner's output can be checked against them without
/// sending the messages anywhere else.
public struct ChatScript: Sendable {
    /// How many messages.
    public let count: Int
    /// The sizes' bounds, in bytes.
    public let sizes: ClosedRange<Int>
    /// The seed the messages are drawn from.
    public let seed: UInt64

    /// A script of `count` messages of `sizes` bytes drawn from `seed`.
    public init(count: Int, sizes: ClosedRange<Int>, seed: UInt64) {
        self.count = Swift.max(0, count)
        self.sizes = Swift.max(0, sizes.lowerBound) ... Swift.min(ChatFrame.maximumMessageLength, Swift.max(0, sizes.upperBound))
        self.seed = seed
    }

    /// Message `index` (0-based).
    public func message(_ index: Int) -> Data {
        var generator = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
        let size = Int.random(in: sizes, using: &generator)
        var bytes = [UInt8](repeating: 0, count: size)
        for position in bytes.indices { bytes[position] = UInt8.random(in: 0 ... 255, using: &generator) }
        return Data(bytes)
    }

    /// Every message, in order.
    public var messages: [Data] { (0 ..< count).map(message) }

    /// The 64-bit FNV-1a hash of `data` as 16 hexadecimal digits: what a scripted run
    /// prints for each message received.
    public static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, identical on every
/// platform, unlike the system's.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
