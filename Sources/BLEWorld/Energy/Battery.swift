import Foundation

/// A device's battery, for projecting how long it lasts at the duty a run measured
/// (``EnergyReport``).
public struct Battery: Hashable, Sendable, CustomStringConvertible {
    /// A short name for reports (`CR2032`, `phone`, `500 mAh`).
    public var name: String
    /// Usable capacity in milliampere-hours.
    public var milliampHours: Double

    /// A battery of `milliampHours`, named `name`.
    public init(name: String, milliampHours: Double) {
        self.name = name
        self.milliampHours = milliampHours
    }

    /// A CR2032 lithium coin cell: 220 mAh, at the low end of the makers' datasheets
    /// (Panasonic CR2032: 225 mAh; Energizer CR2032: 235 mAh, to 2.0 V), since a beacon's
    /// pulses of several milliamperes get less out of a coin cell than the datasheets' light
    /// continuous loads.
    public static let cr2032 = Battery(name: "CR2032", milliampHours: 220)

    /// A phone's battery, as a round 3,000 mAh (today's iPhones are rated between about
    /// 2,000 and 4,700 mAh): for a phone's Bluetooth share of a day, not its runtime.
    public static let phone = Battery(name: "phone", milliampHours: 3_000)

    /// `cr2032`, `phone`, or a capacity such as `500` or `500mAh`; `nil` otherwise.
    public init?(parsing text: String) {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch lowered {
        case "cr2032": self = .cr2032
        case "phone": self = .phone
        default:
            let number = lowered.hasSuffix("mah") ? String(lowered.dropLast(3)).trimmingCharacters(in: .whitespaces) : lowered
            guard let value = Double(number), value.isFinite, value > 0 else { return nil }
            self.init(name: "\(number) mAh", milliampHours: value)
        }
    }

    /// The name.
    public var description: String { name }
}
