import BLEProfiles
import BLEWire
import Testing

@Suite("IEEE 11073 FLOAT and SFLOAT")
struct MedicalFloatTests {
    @Test("36.4 as a FLOAT is mantissa 364, exponent −1: octets 6C 01 00 FF")
    func thirtySixPointFour() throws {
        let value = MedicalFloat32(36.4, fractionDigits: 1)
        #expect(value == .finite(mantissa: 364, exponent: -1))
        #expect(value.bitPattern == 0xFF00_016C)
        #expect(value.encoded() == [0x6C, 0x01, 0x00, 0xFF])
        #expect(try MedicalFloat32(decoding: [0x6C, 0x01, 0x00, 0xFF]).doubleValue == 36.4)
    }

    @Test("A negative mantissa is 24-bit two's complement: −1.5 is F1 FF FF FF")
    func negativeMantissa() throws {
        let value = MedicalFloat32(-1.5, fractionDigits: 1)
        #expect(value == .finite(mantissa: -15, exponent: -1))
        #expect(value.encoded() == [0xF1, 0xFF, 0xFF, 0xFF])
        #expect(try MedicalFloat32(decoding: [0xF1, 0xFF, 0xFF, 0xFF]).doubleValue == -1.5)
    }

    @Test("A positive exponent multiplies: mantissa 12, exponent 3 is 12000")
    func positiveExponent() throws {
        let value = try MedicalFloat32(decoding: [0x0C, 0x00, 0x00, 0x03])
        #expect(value == .finite(mantissa: 12, exponent: 3))
        #expect(value.doubleValue == 12000)
    }

    @Test("FLOAT special values have the mantissas of IEEE 11073-20601 with exponent 0")
    func floatSpecials() throws {
        let expected: [(MedicalFloatSpecial, UInt32)] = [
            (.nan, 0x007F_FFFF), (.notAtThisResolution, 0x0080_0000), (.positiveInfinity, 0x007F_FFFE),
            (.negativeInfinity, 0x0080_0002), (.reserved, 0x0080_0001),
        ]
        for (special, pattern) in expected {
            #expect(MedicalFloat32.special(special).bitPattern == pattern)
            #expect(MedicalFloat32(bitPattern: pattern) == .special(special))
        }
        #expect(MedicalFloat32(.nan, fractionDigits: 1) == .special(.nan))
        #expect(MedicalFloat32(-.infinity, fractionDigits: 1) == .special(.negativeInfinity))
        #expect(MedicalFloat32.special(.positiveInfinity).doubleValue == .infinity)
        #expect(MedicalFloat32.special(.notAtThisResolution).doubleValue.isNaN)
    }

    @Test("A special mantissa reads as special whatever its exponent")
    func specialWithExponent() {
        #expect(MedicalFloat32(bitPattern: 0xFF7F_FFFF) == .special(.nan))
        #expect(MedicalFloat16(bitPattern: 0xF7FF) == .special(.nan))
    }

    @Test("SFLOAT 36.4 is F16C, octets 6C F1; its specials are 07FF, 0800, 07FE, 0802, 0801")
    func shortFloat() throws {
        let value = MedicalFloat16(36.4, fractionDigits: 1)
        #expect(value == .finite(mantissa: 364, exponent: -1))
        #expect(value.encoded() == [0x6C, 0xF1])
        #expect(try MedicalFloat16(decoding: [0x6C, 0xF1]).doubleValue == 36.4)
        let expected: [(MedicalFloatSpecial, UInt16)] = [
            (.nan, 0x07FF), (.notAtThisResolution, 0x0800), (.positiveInfinity, 0x07FE),
            (.negativeInfinity, 0x0802), (.reserved, 0x0801),
        ]
        for (special, pattern) in expected {
            #expect(MedicalFloat16.special(special).bitPattern == pattern)
            #expect(MedicalFloat16(bitPattern: pattern) == .special(special))
        }
        #expect(MedicalFloat16(mantissa: 2046, exponent: 0) == nil)
        #expect(MedicalFloat16(mantissa: 1, exponent: 8) == nil)
        #expect(MedicalFloat16(-2045, fractionDigits: 0) == .finite(mantissa: -2045, exponent: 0))
    }

    @Test("A value too precise for the mantissa gives up decimal places instead of overflowing")
    func precisionGivesWay() {
        #expect(MedicalFloat16(123.45, fractionDigits: 2) == .finite(mantissa: 1235, exponent: -1))
        #expect(MedicalFloat32(123_456_789, fractionDigits: 0) == .finite(mantissa: 1_234_568, exponent: 2))
        #expect(MedicalFloat16(1e30, fractionDigits: 0) == .special(.positiveInfinity))
    }

    @Test("Every bit pattern decodes, and finite ones re-encode unchanged")
    func roundTrips() throws {
        var pattern: UInt32 = 0x1234_5678
        for _ in 0 ..< 2000 {
            pattern = pattern &* 1_664_525 &+ 1_013_904_223
            let value = MedicalFloat32(bitPattern: pattern)
            if case .finite = value { #expect(value.bitPattern == pattern) }
            #expect(try MedicalFloat32(decoding: value.encoded()) == value)
            let short = MedicalFloat16(bitPattern: UInt16(truncatingIfNeeded: pattern))
            if case .finite = short { #expect(short.bitPattern == UInt16(truncatingIfNeeded: pattern)) }
            #expect(try MedicalFloat16(decoding: short.encoded()) == short)
        }
    }

    @Test("Too few or too many octets are refused")
    func malformed() {
        #expect(throws: WireError.self) { try MedicalFloat32(decoding: [0x6C, 0x01, 0x00]) }
        #expect(throws: WireError.self) { try MedicalFloat32(decoding: [0x6C, 0x01, 0x00, 0xFF, 0x00]) }
        #expect(throws: WireError.self) { try MedicalFloat16(decoding: [0x6C]) }
    }
}
