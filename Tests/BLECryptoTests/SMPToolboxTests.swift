import Testing
import BLECrypto

/// The sample data of Core 5.4, Vol 3, Part H, §2.2.3, §2.2.4 and Appendix D. Each value
/// was checked against two implementations' tests that agree: Bumble's tests/smp_test.py
/// and Zephyr's SMP self-test (subsys/bluetooth/host/smp.c), the latter least significant
/// octet first.
@Suite("Security Manager toolbox sample data")
struct SMPToolboxTests {
    static let pkax = BLECrypto.Value256(
        high: 0x20B0_03D2_F297_BE2C_5E2C_83A7_E9F9_A5B9, low: 0xEFF4_9111_ACF4_FDDB_CC03_0148_0E35_9DE6)
    static let pkbx = BLECrypto.Value256(
        high: 0x5518_8B3D_32F6_BB9A_900A_FCFB_EED4_E72A, low: 0x59CB_9AC2_F19D_7CFB_6B4F_DD49_F47F_C5FD)
    static let dhKey = BLECrypto.Value256(
        high: 0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B, low: 0x9979_6B13_B4F8_66F1_868D_34F3_73BF_A698)
    static let na: UInt128 = 0xD5CB_8454_D177_733E_FFFF_B2EC_712B_AEAB
    static let nb: UInt128 = 0xA6E8_E7CC_25A7_5F6E_2165_83F7_FF3D_C4CF
    static let a1 = BLECrypto.addressField(isRandom: false, address: 0x5612_3737_BFCE)
    static let a2 = BLECrypto.addressField(isRandom: false, address: 0xA713_702D_CFC1)
    static let macKey: UInt128 = 0x2965_F176_A108_4A02_FD3F_6A20_CE63_6E20
    static let key: UInt128 = 0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B

    @Test("c1 gives the confirm value of the §2.2.3 example")
    func c1() throws {
        let confirm = try BLECrypto.c1(
            k: 0, r: 0x5783_D521_56AD_6F0E_6388_274E_C670_2EE0,
            preq: 0x07_0710_0000_0101, pres: 0x05_0008_0000_0302,
            iat: 1, ia: 0xA1A2_A3A4_A5A6, rat: 0, ra: 0xB1B2_B3B4_B5B6)
        #expect(confirm == 0x1E1E_3FEF_8789_88EA_D2A7_4DC5_BEF1_3B86)
    }

    @Test("c1 depends on each address type bit and each address")
    func c1Inputs() throws {
        func confirm(iat: UInt8 = 1, ia: UInt64 = 0xA1A2_A3A4_A5A6, rat: UInt8 = 0, ra: UInt64 = 0xB1B2_B3B4_B5B6) throws -> UInt128 {
            try BLECrypto.c1(k: 0, r: 0x5783_D521_56AD_6F0E_6388_274E_C670_2EE0,
                             preq: 0x07_0710_0000_0101, pres: 0x05_0008_0000_0302,
                             iat: iat, ia: ia, rat: rat, ra: ra)
        }
        let sample = try confirm()
        #expect(try confirm(iat: 0) != sample)
        #expect(try confirm(rat: 1) != sample)
        #expect(try confirm(ia: 0xA1A2_A3A4_A5A7) != sample)
        #expect(try confirm(ra: 0xB1B2_B3B4_B5B7) != sample)
    }

    @Test("s1 gives the STK of the §2.2.4 example")
    func s1() throws {
        let stk = try BLECrypto.s1(
            k: 0, r1: 0x000F_0E0D_0C0B_0A09_1122_3344_5566_7788, r2: 0x0102_0304_0506_0708_99AA_BBCC_DDEE_FF00)
        #expect(stk == 0x9A1F_E1F0_E8B0_F49B_5B42_16AE_796D_A062)
    }

    @Test("ah hashes prand 0x708194 to 0x0DFBAA (Appendix D)")
    func ah() throws {
        #expect(try BLECrypto.ah(k: Self.key, r: 0x70_8194) == 0x0D_FBAA)
        // Bits above the 24 of prand are not part of r'.
        #expect(try BLECrypto.ah(k: Self.key, r: 0xFF70_8194) == 0x0D_FBAA)
    }

    @Test("f4 gives the confirm value of Appendix D.1")
    func f4() throws {
        let value = try BLECrypto.f4(u: Self.pkax, v: Self.pkbx, x: Self.na, z: 0)
        #expect(value == 0xF2C9_16F1_07A9_BD1C_F1ED_A1BE_A974_872D)
    }

    @Test("f5 gives the MacKey and LTK of Appendix D.2")
    func f5() throws {
        let keys = try BLECrypto.f5(w: Self.dhKey, n1: Self.na, n2: Self.nb, a1: Self.a1, a2: Self.a2)
        #expect(keys.macKey == Self.macKey)
        #expect(keys.longTermKey == 0x6986_7911_69D7_CD23_9805_22B5_9475_0A38)
    }

    @Test("f5 binds the address types: a random A1 gives other keys")
    func f5AddressType() throws {
        let sample = try BLECrypto.f5(w: Self.dhKey, n1: Self.na, n2: Self.nb, a1: Self.a1, a2: Self.a2)
        let random = BLECrypto.addressField(isRandom: true, address: 0x5612_3737_BFCE)
        #expect(random == 0x01_5612_3737_BFCE)
        let other = try BLECrypto.f5(w: Self.dhKey, n1: Self.na, n2: Self.nb, a1: random, a2: Self.a2)
        #expect(other.macKey != sample.macKey)
        #expect(other.longTermKey != sample.longTermKey)
    }

    @Test("f6 gives the DHKey check of Appendix D.3")
    func f6() throws {
        let check = try BLECrypto.f6(
            w: Self.macKey, n1: Self.na, n2: Self.nb, r: 0x12A3_343B_B453_BB54_08DA_42D2_0C2D_0FC8,
            ioCap: 0x01_0102, a1: Self.a1, a2: Self.a2)
        #expect(check == 0xE3C4_7398_9CD0_E8C5_D26C_0B09_DA95_8F61)
    }

    @Test("g2 gives the numeric comparison value of Appendix D.4")
    func g2() throws {
        // AES-CMAC mod 2^32 is 0x2F9ED5BA; the user sees 0x2F9ED5BA mod 10^6 = 938554.
        let value = try BLECrypto.g2(u: Self.pkax, v: Self.pkbx, x: Self.na, y: Self.nb)
        #expect(value == 938_554)
        #expect(value == 0x2F9E_D5BA % 1_000_000)
    }

    @Test("h6 with keyID \"lebr\" gives the value of Appendix D")
    func h6() throws {
        #expect(try BLECrypto.h6(w: Self.key, keyID: 0x6C65_6272) == 0x2D9A_E102_E76D_C91C_E8D3_A9E2_80B1_6399)
    }

    @Test("h7 with SALT \"tmp1\" gives the value of Appendix D")
    func h7() throws {
        #expect(try BLECrypto.h7(salt: 0x746D_7031, w: Self.key) == 0xFB17_3597_C6A3_C0EC_D299_8C2A_75A5_7011)
    }

    static let tmp1: UInt32 = 0x746D_7031
    static let tmp2: UInt32 = 0x746D_7032
    static let lebr: UInt32 = 0x6C65_6272
    static let brle: UInt32 = 0x6272_6C65

    @Test("LTK to link key conversion (§2.4.2.4) gives the Appendix D values, with and without CT2")
    func ltkToLinkKey() throws {
        // Bumble tests/smp_test.py, test_ltk_to_link_key.
        let ltk: UInt128 = 0x368D_F9BC_E326_4B58_BD06_6C33_334F_BF64
        let withoutCT2 = try BLECrypto.h6(w: try BLECrypto.h6(w: ltk, keyID: Self.tmp1), keyID: Self.lebr)
        #expect(withoutCT2 == 0xBC1C_A4EF_633F_C1BD_0D82_30AF_EE38_8FB0)
        let withCT2 = try BLECrypto.h6(w: try BLECrypto.h7(salt: UInt128(Self.tmp1), w: ltk), keyID: Self.lebr)
        #expect(withCT2 == 0x287A_D379_DCA4_0253_0A39_F1F4_3047_B835)
    }

    @Test("Link key to LTK conversion (§2.4.2.5) gives the Appendix D values, with and without CT2")
    func linkKeyToLTK() throws {
        // Bumble tests/smp_test.py, test_link_key_to_ltk.
        let linkKey: UInt128 = 0x0504_0302_0100_0908_0706_0504_0302_0100
        let withoutCT2 = try BLECrypto.h6(w: try BLECrypto.h6(w: linkKey, keyID: Self.tmp2), keyID: Self.brle)
        #expect(withoutCT2 == 0xA813_FB72_F1A3_DFA1_8A2C_9A43_F10D_0A30)
        let withCT2 = try BLECrypto.h6(w: try BLECrypto.h7(salt: UInt128(Self.tmp2), w: linkKey), keyID: Self.brle)
        #expect(withCT2 == 0xE85E_09EB_5ECC_B3E2_6941_8A13_3211_BC79)
    }
}
