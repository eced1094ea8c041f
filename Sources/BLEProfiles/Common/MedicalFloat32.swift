import BLEWire

/// An IEEE 11073-20601 32-bit FLOAT (GSS §2.3, "medfloat32"): a 24-bit signed mantissa in
/// the low octets and an 8-bit signed exponent in the high octet, value = mantissa × 10^exponent,
/// sent little-endian. Health Thermometer temperatures use it.
///
/// The mantissas 0x7FFFFF (NaN), 0x800000 (NRes), 0x7FFFFE (+INF), 0x800002 (−INF) and
/// 0x800001 (reserved) are special values. They are sent with exponent 0; a decoder reads
/// them as special whatever the exponent, as devices in the field send them either way.
public enum MedicalFloat32: CharacteristicValue, CustomStringConvertible {
    /// A number: `mantissa` × 10^`exponent`, mantissa within ±8 388 605.
    case finite(mantissa: Int32, exponent: Int8)
    /// A special value.
    case special(MedicalFloatSpecial)

    static let format = MedicalFloatFormat.float

    /// The finite mantissas: ±(2^23 − 3).
    public static let mantissaRange: ClosedRange<Int32> = -8_388_605 ... 8_388_605

    /// A finite value; `nil` when the mantissa is outside ``mantissaRange``.
    public init?(mantissa: Int32, exponent: Int8) {
        guard Self.mantissaRange.contains(mantissa) else { return nil }
        self = .finite(mantissa: mantissa, exponent: exponent)
    }

    /// The closest value to `value` with at most `fractionDigits` digits after the decimal
    /// point (fewer when the mantissa would overflow); NaN and the infinities map to their
    /// special values, magnitudes beyond the format to the infinities.
    public init(_ value: Double, fractionDigits: Int) {
        if value.isNaN { self = .special(.nan); return }
        if value.isInfinite { self = .special(value > 0 ? .positiveInfinity : .negativeInfinity); return }
        guard let (mantissa, exponent) = Self.format.finite(value, fractionDigits: fractionDigits) else {
            self = .special(value > 0 ? .positiveInfinity : .negativeInfinity)
            return
        }
        self = .finite(mantissa: Int32(mantissa), exponent: Int8(exponent))
    }

    /// The value from its 32-bit pattern; every pattern is a value.
    public init(bitPattern: UInt32) {
        let (mantissa, exponent) = Self.format.split(bitPattern)
        if let special = Self.format.special(mantissa: mantissa) {
            self = .special(special)
        } else {
            self = .finite(mantissa: Int32(mantissa), exponent: Int8(exponent))
        }
    }

    /// The 32-bit pattern; special values use exponent 0.
    public var bitPattern: UInt32 {
        switch self {
        case let .finite(mantissa, exponent):
            let clamped = min(max(Int64(mantissa), Self.format.finiteMantissas.lowerBound), Self.format.finiteMantissas.upperBound)
            return Self.format.join(mantissa: clamped, exponent: Int64(exponent))
        case let .special(special):
            return Self.format.join(mantissa: Self.format.mantissa(of: special), exponent: 0)
        }
    }

    /// The value as a `Double`: NaN for NaN, NRes and reserved, ±infinity for the infinities.
    public var doubleValue: Double {
        switch self {
        case let .finite(mantissa, exponent): return medicalDouble(mantissa: Int64(mantissa), exponent: Int64(exponent))
        case .special(.positiveInfinity): return .infinity
        case .special(.negativeInfinity): return -.infinity
        case .special: return .nan
        }
    }

    /// Reads the four octets, little-endian.
    public init(from reader: inout ByteReader, field: String) throws(WireError) {
        self.init(bitPattern: try reader.readUInt32(field))
    }

    /// Decodes exactly four octets.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "FLOAT") { reader throws(WireError) in
            try MedicalFloat32(from: &reader, field: "FLOAT")
        }
    }

    /// The four octets, little-endian.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.write(bitPattern)
        return writer.bytes
    }

    /// `364e-1`, or the special value's name.
    public var description: String {
        switch self {
        case let .finite(mantissa, exponent): return "\(mantissa)e\(exponent)"
        case let .special(special): return "\(special)"
        }
    }
}
