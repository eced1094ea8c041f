import Foundation

/// The UUIDs of the chat app, as strings so that both Core Bluetooth and OpenCoreBluetooth
/// turn them into `CBUUID(string:)`.
public enum ChatUUIDs {
    /// The discovery service every chat device advertises while it is running (no
    /// characteristics: its presence in an advertisement says "a chat device is here").
    public static let discoveryService = "6F9A41C2-6B1E-4A53-9D3B-2F6C5D0E7A10"
    /// The session service the peripheral of a chat session publishes.
    public static let sessionService = "9F37E282-60B6-42B1-A02F-7341DA5E2EBA"
    /// The session characteristic: the central writes frames to it (write with response),
    /// the peripheral notifies frames on it.
    public static let sessionCharacteristic = "890AA912-C414-440D-88A2-C7F66179589B"
}

/// A chat device's app-level identifier: four random bytes chosen at start-up and carried
/// in the advertised local name.
///
/// Core Bluetooth gives every observer its own identifier for a peer (and a peer's address
/// may be private and rotate), so two chat devices recognise each other by this value
/// instead of by anything the Bluetooth stack reports.
public struct ChatDeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier's value.
    public var rawValue: UInt32

    /// An identifier with the given value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A fresh random identifier from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> ChatDeviceID {
        ChatDeviceID(rawValue: UInt32.random(in: .min ... .max, using: &generator))
    }

    /// A fresh random identifier from the system's generator.
    public static func random() -> ChatDeviceID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// Eight uppercase hexadecimal digits, e.g. `"0A1B2C3D"`.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Parses eight hexadecimal digits; `nil` for anything else.
    public init?(_ text: Substring) {
        guard text.count == 8, text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else { return nil }
        rawValue = value
    }

    /// Orders identifiers by value: the tie-break when two devices invite each other.
    public static func < (lhs: ChatDeviceID, rhs: ChatDeviceID) -> Bool { lhs.rawValue < rhs.rawValue }
}
