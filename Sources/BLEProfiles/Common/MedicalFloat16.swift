import BLEWire

/// An IEEE 11073-20601 16-bit SFLOAT (GSS §2.3, "medfloat16"): a 12-bit signed mantissa in
/// the low bits and a 4-bit signed exponent in the high bits, value = mantissa × 10^exponent,
/// sent little-endian. Blood pressure, glucose and weight measurements use it.
///
/// The mantissas 0x07FF (NaN), 0x0800 (NRes), 0x07FE (+INF), 0x0802 (−INF) and 0x0801
/// (reserved) are special values, sent with exponent 0 and read as special whatever the exponent.
public enum MedicalFloat16: CharacteristicValue, CustomStringConvertible {
    /// A number: `mantissa` × 10^`exponent`, mantissa within ±2045, exponent within −8…7.
    case finite(mantissa: Int16, exponent: Int8)
    /// A special value.
    case special(MedicalFloatSpecial)

    static let format = MedicalFloatFormat.shortFloat

    /// The finite mantissas: ±(2^11 − 3).
    public static let mantissaRange: ClosedRange<Int16> = -2045 ... 2045
    /// The exponents a 4-bit field holds.
    public static let exponentRange: ClosedRange<Int8> = -8 ... 7

    /// A finite value; `nil` when the mantissa or exponent does not fit.
    public init?(mantissa: Int16, exponent: Int8) {
        guard Self.mantissaRange.contains(mantissa), Self.exponentRange.contains(exponent) else { return nil }
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
        self = .finite(mantissa: Int16(mantissa), exponent: Int8(exponent))
    }

    /// The value from its 16-bit pattern; every pattern is a value.
    public init(bitPattern: UInt16) {
        let (mantissa, exponent) = Self.format.split(UInt32(bitPattern))
        if let special = Self.format.special(mantissa: mantissa) {
            self = .special(special)
        } else {
            self = .finite(mantissa: Int16(mantissa), exponent: Int8(exponent))
        }
    }

    /// The 16-bit pattern; special values use exponent 0.
    public var bitPattern: UInt16 {
        switch self {
        case let .finite(mantissa, exponent):
            let format = Self.format
            let clampedMantissa = min(max(Int64(mantissa), format.finiteMantissas.lowerBound), format.finiteMantissas.upperBound)
            let clampedExponent = min(max(Int64(exponent), format.exponents.lowerBound), format.exponents.upperBound)
            return UInt16(truncatingIfNeeded: format.join(mantissa: clampedMantissa, exponent: clampedExponent))
        case let .special(special):
            return UInt16(truncatingIfNeeded: Self.format.join(mantissa: Self.format.mantissa(of: special), exponent: 0))
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

    /// Reads the two octets, little-endian.
    public init(from reader: inout ByteReader, field: String) throws(WireError) {
        self.init(bitPattern: try reader.readUInt16(field))
    }

    /// Decodes exactly two octets.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "SFLOAT") { reader throws(WireError) in
            try MedicalFloat16(from: &reader, field: "SFLOAT")
        }
    }

    /// The two octets, little-endian.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 2)
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
