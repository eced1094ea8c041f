import BLEWire

/// The IEEE 11073-20601 number formats health devices send (GSS §2.3, "medfloat32" FLOAT
/// and "medfloat16" SFLOAT): a signed mantissa times ten to a signed exponent, with a few
/// mantissa values set aside for special values. Both widths share this description.
struct MedicalFloatFormat: Sendable {
    /// Bits of the mantissa (24 for FLOAT, 12 for SFLOAT).
    let mantissaBits: Int
    /// Bits of the exponent (8 for FLOAT, 4 for SFLOAT).
    let exponentBits: Int

    static let float = MedicalFloatFormat(mantissaBits: 24, exponentBits: 8)
    static let shortFloat = MedicalFloatFormat(mantissaBits: 12, exponentBits: 4)

    /// 2^(mantissaBits − 1) − 1: the largest mantissa the field holds, which is NaN.
    var nanMantissa: Int64 { (1 << (mantissaBits - 1)) - 1 }
    /// Finite values leave the two highest and three lowest mantissas to the special values.
    var finiteMantissas: ClosedRange<Int64> { -(nanMantissa - 2) ... (nanMantissa - 2) }
    var exponents: ClosedRange<Int64> { -(1 << (exponentBits - 1)) ... (1 << (exponentBits - 1)) - 1 }

    /// Splits a bit pattern into its signed mantissa and exponent.
    func split(_ pattern: UInt32) -> (mantissa: Int64, exponent: Int64) {
        let mantissaMask = (UInt32(1) << mantissaBits) - 1
        let exponentMask = (UInt32(1) << exponentBits) - 1
        var mantissa = Int64(pattern & mantissaMask)
        if mantissa >= 1 << (mantissaBits - 1) { mantissa -= 1 << mantissaBits }
        var exponent = Int64((pattern >> mantissaBits) & exponentMask)
        if exponent >= 1 << (exponentBits - 1) { exponent -= 1 << exponentBits }
        return (mantissa, exponent)
    }

    /// Joins a mantissa and exponent (both already in range) into a bit pattern.
    func join(mantissa: Int64, exponent: Int64) -> UInt32 {
        let mantissaMask = (UInt64(1) << mantissaBits) - 1
        let exponentMask = (UInt64(1) << exponentBits) - 1
        let low = UInt64(bitPattern: mantissa) & mantissaMask
        let high = UInt64(bitPattern: exponent) & exponentMask
        return UInt32(truncatingIfNeeded: high << mantissaBits | low)
    }

    /// The special value a mantissa stands for, if it is one of the five reserved ones.
    func special(mantissa: Int64) -> MedicalFloatSpecial? {
        switch mantissa {
        case nanMantissa: return .nan
        case nanMantissa - 1: return .positiveInfinity
        case -(nanMantissa + 1): return .notAtThisResolution
        case -nanMantissa: return .reserved
        case -(nanMantissa - 1): return .negativeInfinity
        default: return nil
        }
    }

    /// The mantissa of a special value (sent with exponent 0).
    func mantissa(of special: MedicalFloatSpecial) -> Int64 {
        switch special {
        case .nan: return nanMantissa
        case .positiveInfinity: return nanMantissa - 1
        case .notAtThisResolution: return -(nanMantissa + 1)
        case .reserved: return -nanMantissa
        case .negativeInfinity: return -(nanMantissa - 1)
        }
    }

    /// The closest mantissa and exponent to `value` with at most `fractionDigits` digits after
    /// the decimal point, giving up precision when the mantissa would not fit; `nil` when even
    /// the largest exponent cannot hold it.
    func finite(_ value: Double, fractionDigits: Int) -> (mantissa: Int64, exponent: Int64)? {
        var exponent = max(min(-Int64(fractionDigits), exponents.upperBound), exponents.lowerBound)
        while exponent <= exponents.upperBound {
            let scaled = (exponent < 0 ? value * powerOfTen(-exponent) : value / powerOfTen(exponent)).rounded()
            if scaled.magnitude <= Double(finiteMantissas.upperBound) {
                return (Int64(scaled), exponent)
            }
            exponent += 1
        }
        return nil
    }
}

/// 10^exponent for exponent ≥ 0 (exact up to 10^22); callers divide for negative exponents.
func powerOfTen(_ exponent: Int64) -> Double {
    var result = 1.0
    for _ in 0 ..< max(exponent, 0) { result *= 10 }
    return result
}

/// mantissa × 10^exponent, dividing for negative exponents so 364e-1 is exactly 36.4.
func medicalDouble(mantissa: Int64, exponent: Int64) -> Double {
    exponent < 0 ? Double(mantissa) / powerOfTen(-exponent) : Double(mantissa) * powerOfTen(exponent)
}

/// The special values of the IEEE 11073-20601 FLOAT and SFLOAT formats (GSS §2.3).
public enum MedicalFloatSpecial: Hashable, Sendable, CaseIterable {
    /// Not a Number: no valid value.
    case nan
    /// Not at this Resolution: the value cannot be shown with the format's precision.
    case notAtThisResolution
    /// Positive infinity.
    case positiveInfinity
    /// Negative infinity.
    case negativeInfinity
    /// Reserved for future use.
    case reserved
}
