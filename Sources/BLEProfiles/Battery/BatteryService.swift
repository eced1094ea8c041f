import BLEHost
import BLEWire

/// Battery Level (GSS §3.27, characteristic 0x2A19): the charge left, 0–100 percent.
public struct BatteryLevel: CharacteristicValue, Comparable, CustomStringConvertible {
    /// The Battery Level characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A19

    /// Percent of full charge, 0–100.
    public let percent: UInt8

    /// A level; `nil` above 100 percent (101–255 are reserved).
    public init?(percent: UInt8) {
        guard percent <= 100 else { return nil }
        self.percent = percent
    }

    /// 100 percent.
    public static let full = BatteryLevel(unchecked: 100)

    private init(unchecked percent: UInt8) { self.percent = percent }

    /// Decodes the one octet, refusing 101–255.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "BatteryLevel") { reader throws(WireError) in
            try ProfileDecoding.enumeration(&reader, "BatteryLevel") { BatteryLevel(percent: $0) }
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [percent] }

    /// Orders by charge.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.percent < rhs.percent }

    /// `87 %`.
    public var description: String { "\(percent) %" }
}

/// The Battery Service (BAS 1.0, service 0x180F): one Battery Level, readable, and notified
/// to subscribed clients when it changes (BAS §3.1).
public struct BatteryService: Hashable, Sendable {
    /// The Battery Service's UUID.
    public static let uuid: BluetoothUUID = 0x180F

    /// The level a client reads before the first update.
    public var level: BatteryLevel
    /// Whether the level can be notified (BAS §3.1.1: notify is optional).
    public var notifies: Bool

    /// A battery service; full and notifying by default.
    public init(level: BatteryLevel = .full, notifies: Bool = true) {
        self.level = level
        self.notifies = notifies
    }

    /// The service: Battery Level read (+ notify), a stored one-octet value the runtime
    /// replaces (and notifies) when the level changes.
    public var definition: GATTServiceDefinition {
        GATTServiceDefinition(uuid: Self.uuid, characteristics: [
            GATTCharacteristicDefinition(uuid: BatteryLevel.uuid, properties: notifies ? [.read, .notify] : [.read],
                                         permissions: .readable, value: .stored(level.encoded()), maximumLength: 1),
        ])
    }
}
