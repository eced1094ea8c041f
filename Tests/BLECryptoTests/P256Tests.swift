import Testing
import BLECrypto

/// P-256 sample data: the debug key pair of Core 5.4, Vol 3, Part H, §2.3.5.6.1 and the
/// ECDH samples of Appendix D (private keys A and B, their public keys, the DHKey). Sample 1
/// appears in Bumble's tests/smp_test.py (most significant first) and BlueZ's
/// unit/test-ecc.c (least significant first), which agree; sample 2 is from BlueZ.
@Suite("P-256 key pairs and DHKey")
struct P256Tests {
    typealias Value256 = BLECrypto.Value256
    typealias KeyPair = BLECrypto.P256KeyPair

    static let privateA = Value256(high: 0x3F49_F6D4_A3C5_5F38_74C9_B3E3_D210_3F50, low: 0x4AFF_607B_EB40_B799_5899_B8A6_CD3C_1ABD)
    static let privateB = Value256(high: 0x5518_8B3D_32F6_BB9A_900A_FCFB_EED4_E72A, low: 0x59CB_9AC2_F19D_7CFB_6B4F_DD49_F47F_C5FD)
    static let publicAX = Value256(high: 0x20B0_03D2_F297_BE2C_5E2C_83A7_E9F9_A5B9, low: 0xEFF4_9111_ACF4_FDDB_CC03_0148_0E35_9DE6)
    static let publicAY = Value256(high: 0xDC80_9C49_652A_EB6D_6332_9ABF_5A52_155C, low: 0x7663_45C2_8FED_3024_741C_8ED0_1589_D28B)
    static let publicBX = Value256(high: 0x1EA1_F0F0_1FAF_1D96_0959_2284_F19E_4C00, low: 0x47B5_8AFD_8615_A69F_5590_77B2_2FAA_A190)
    static let publicBY = Value256(high: 0x4C55_F33E_429D_AD37_7356_703A_9AB8_5160, low: 0x472D_1130_E28E_3676_5F89_AFF9_15B1_214A)
    static let dhKey1 = Value256(high: 0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B, low: 0x9979_6B13_B4F8_66F1_868D_34F3_73BF_A698)

    @Test("The debug key pair has the specified public key and is recognised")
    func debugKeyPair() throws {
        let debug = try KeyPair.debug
        #expect(debug.privateKeyValue == Self.privateA)
        #expect(debug.publicX == KeyPair.debugPublicX)
        #expect(debug.publicY == KeyPair.debugPublicY)
        #expect(debug.publicX == Self.publicAX)
        #expect(debug.publicY == Self.publicAY)
        #expect(debug.isDebug)
        #expect(KeyPair.isDebugPublicKey(x: Self.publicAX, y: Self.publicAY))
        #expect(!KeyPair.isDebugPublicKey(x: Self.publicBX, y: Self.publicBY))
        #expect(!KeyPair().isDebug)
    }

    @Test("Both sides of ECDH sample 1 compute the sample DHKey")
    func sample1() throws {
        let a = try KeyPair(privateKey: Self.privateA)
        let b = try KeyPair(privateKey: Self.privateB)
        #expect(b.publicX == Self.publicBX)
        #expect(b.publicY == Self.publicBY)
        #expect(try a.dhKey(peerX: b.publicX, peerY: b.publicY) == Self.dhKey1)
        #expect(try b.dhKey(peerX: a.publicX, peerY: a.publicY) == Self.dhKey1)
    }

    @Test("Both sides of ECDH sample 2 compute the sample DHKey")
    func sample2() throws {
        let a = try KeyPair(privateKey: Value256(high: 0x06A5_1669_3C9A_A31A_6084_545D_0C5D_B641, low: 0xB485_72B9_7203_DDFF_B7AC_73F7_D045_7663))
        let b = try KeyPair(privateKey: Value256(high: 0x529A_A067_0D72_CD64_9750_2ED4_7350_2B03, low: 0x7E88_03B5_C608_29A5_A3CA_A219_5055_30BA))
        #expect(a.publicX == Value256(high: 0x2C31_A47B_5779_809E_F44C_B5EA_AF5C_3E43, low: 0xD5F8_FAAD_4A87_94CB_987E_9B03_745C_78DD))
        #expect(a.publicY == Value256(high: 0x9195_1218_3898_DFBE_CD52_E240_8E43_871F, low: 0xD021_1091_17BD_3ED4_EAF8_4377_4371_5D4F))
        #expect(b.publicX == Value256(high: 0xF465_E43F_F23D_3F1B_9DC7_DFC0_4DA8_7581, low: 0x84DB_C966_2047_96EC_CF0D_6CF5_E165_00CC))
        #expect(b.publicY == Value256(high: 0x0201_D048_BCBB_D899_EEEF_C424_164E_33C2, low: 0x01C2_B010_CA6B_4D43_A8A1_55CA_D8EC_B279))
        let expected = Value256(high: 0xAB85_843A_2F6D_883F_62E5_684B_38E3_0733, low: 0x5FE6_E194_5ECD_1960_4105_C6F2_3221_EB69)
        #expect(try a.dhKey(peerX: b.publicX, peerY: b.publicY) == expected)
        #expect(try b.dhKey(peerX: a.publicX, peerY: a.publicY) == expected)
    }

    @Test("A key pair agrees with itself as BlueZ's sample 3 shows")
    func sample3() throws {
        let a = try KeyPair(privateKey: Self.privateA)
        let expected = Value256(high: 0x70AA_D7E6_49F9_1C7C_AE5F_79FC_3299_2787, low: 0xC387_57A8_728B_7B55_DA7B_B3CB_4800_AB2D)
        #expect(try a.dhKey(peerX: a.publicX, peerY: a.publicY) == expected)
    }

    @Test("Generated key pairs agree on the DHKey and differ from each other")
    func generatedPairsAgree() throws {
        for _ in 0 ..< 20 {
            let a = KeyPair()
            let b = KeyPair()
            #expect(a.publicX != b.publicX)
            let fromA = try a.dhKey(peerX: b.publicX, peerY: b.publicY)
            let fromB = try b.dhKey(peerX: a.publicX, peerY: a.publicY)
            #expect(fromA == fromB)
            // A pair rebuilt from its private key has the same public key.
            let rebuilt = try KeyPair(privateKey: a.privateKeyValue)
            #expect(rebuilt.publicX == a.publicX)
            #expect(rebuilt.publicY == a.publicY)
        }
    }

    @Test("A public key not on the curve is rejected")
    func notOnCurve() throws {
        let a = try KeyPair(privateKey: Self.privateA)
        var y = Self.publicBY
        y.low ^= 1
        #expect(throws: BLECrypto.Error.invalidPublicKey) { try a.dhKey(peerX: Self.publicBX, peerY: y) }
        #expect(throws: BLECrypto.Error.invalidPublicKey) { try a.dhKey(peerX: Self.publicBY, peerY: Self.publicBX) }
    }

    @Test("Every single-bit change of a peer's Y coordinate is rejected")
    func everyBitOfY() throws {
        let a = try KeyPair(privateKey: Self.privateA)
        for bit in 0 ..< 256 {
            var y = Self.publicBY
            if bit < 128 { y.low ^= 1 << bit } else { y.high ^= 1 << (bit - 128) }
            #expect(throws: BLECrypto.Error.invalidPublicKey) { try a.dhKey(peerX: Self.publicBX, peerY: y) }
        }
    }

    @Test("The point at infinity and coordinates not below the field prime are rejected")
    func infinityAndOutOfRange() throws {
        let a = try KeyPair(privateKey: Self.privateA)
        let zero = Value256(high: 0, low: 0)
        #expect(throws: BLECrypto.Error.invalidPublicKey) { try a.dhKey(peerX: zero, peerY: zero) }
        // p = 2^256 - 2^224 + 2^192 + 2^96 - 1. (x + p, y) is the same point modulo p, but
        // encodings must be reduced.
        let p = Value256(high: 0xFFFF_FFFF_0000_0001_0000_0000_0000_0000, low: 0x0000_0000_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF)
        #expect(throws: BLECrypto.Error.invalidPublicKey) { try a.dhKey(peerX: p, peerY: Self.publicBY) }
        // y + p does not overflow 256 bits for this y (its top word is below 2^32 - p's).
        let yPlusP = Self.add(Self.publicBY, p)
        #expect(throws: BLECrypto.Error.invalidPublicKey) { try a.dhKey(peerX: Self.publicBX, peerY: yPlusP) }
    }

    static func add(_ a: Value256, _ b: Value256) -> Value256 {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return Value256(high: a.high &+ b.high &+ (carry ? 1 : 0), low: low)
    }

    @Test("Private keys of zero or not below the curve order are refused")
    func invalidPrivateKeys() {
        let order = Value256(high: 0xFFFF_FFFF_0000_0000_FFFF_FFFF_FFFF_FFFF, low: 0xBCE6_FAAD_A717_9E84_F3B9_CAC2_FC63_2551)
        #expect(throws: BLECrypto.Error.invalidPrivateKey) { try KeyPair(privateKey: Value256(high: 0, low: 0)) }
        #expect(throws: BLECrypto.Error.invalidPrivateKey) { try KeyPair(privateKey: order) }
        #expect(throws: BLECrypto.Error.invalidPrivateKey) { try KeyPair(privateKey: Value256(high: ~0, low: ~0)) }
        var belowOrder = order
        belowOrder.low -= 1
        #expect(throws: Never.self) { try KeyPair(privateKey: belowOrder) }
    }

    @Test("256-bit values convert to and from the SMP wire's little-endian octets")
    func wireOrder() throws {
        // BlueZ's test-ecc.c writes public key A's X least significant first.
        let wire = octets("e69d350e480103ccdbfdf4ac1191f4efb9a5f9e9a7832c5e2cbe97f2d203b020")
        #expect(try Value256(littleEndian: wire) == Self.publicAX)
        #expect(Self.publicAX.littleEndianBytes == wire)
        #expect(Self.publicAX.bigEndianBytes == wire.reversed())
        #expect(try Value256(bigEndian: wire.reversed()) == Self.publicAX)
        #expect(Self.publicAX.description == "20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6")
        #expect(throws: BLECrypto.Error.invalidLength(expected: 32, actual: 31)) { try Value256(littleEndian: wire.dropLast()) }
        #expect(throws: BLECrypto.Error.invalidLength(expected: 32, actual: 33)) { try Value256(bigEndian: wire + [0]) }
        var generator = SeededGenerator(seed: 256)
        for _ in 0 ..< 300 {
            let value = Value256(high: generator.uint128(), low: generator.uint128())
            #expect(try Value256(littleEndian: value.littleEndianBytes) == value)
            #expect(try Value256(bigEndian: value.bigEndianBytes) == value)
        }
    }
}
