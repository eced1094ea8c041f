import Testing
import BLECrypto

@Suite("AES-128 and AES-CMAC")
struct AESTests {
    @Test("e encrypts the FIPS-197 Appendix C.1 example")
    func fips197() throws {
        let result = try BLECrypto.e(
            key: 0x0001_0203_0405_0607_0809_0A0B_0C0D_0E0F,
            plaintext: 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF)
        #expect(result == 0x69C4_E0D8_6A7B_0430_D8CD_B780_70B4_C55A)
    }

    @Test("e computes the session key of the LE Encrypt sample (Vol 6, Part C, §1)")
    func leEncryptSample() throws {
        // LTK and SKD as the HCI_LE_Encrypt command of the sample carries them; the same
        // values appear in PureSwift/Bluetooth's HCI tests and Bluetoe's encryption tests.
        let result = try BLECrypto.e(
            key: 0x4C68_3841_39F5_74D8_36BC_F34E_9DFB_01BF,
            plaintext: 0x0213_2435_4657_6879_ACBD_CEDF_E0F1_0213)
        #expect(result == 0x99AD_1B52_26A3_7E3E_058E_3B8E_27C2_C666)
    }

    static let rfcKey: UInt128 = 0x2B7E_1516_28AE_D2A6_ABF7_1588_09CF_4F3C
    static let rfcMessage = octets("""
        6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51
        30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710
        """)

    @Test("AES-CMAC gives the tags of RFC 4493 §4 examples 1 to 4", arguments: [
        (0, UInt128(0xBB1D_6929_E959_3728_7FA3_7D12_9B75_6746)),
        (16, UInt128(0x070A_16B4_6B4D_4144_F79B_DD9D_D04A_287C)),
        (40, UInt128(0xDFA6_6747_DE9A_E630_30CA_3261_1497_C827)),
        (64, UInt128(0x51F0_BEBF_7E3B_9D92_FC49_7417_7936_3CFE)),
    ])
    func rfc4493(length: Int, tag: UInt128) throws {
        #expect(Self.rfcMessage.count == 64)
        let message = Self.rfcMessage.prefix(length)
        #expect(try BLECrypto.aesCMAC(key: Self.rfcKey, message: message) == tag)
    }

    @Test("AES-CMAC subkeys K1 and K2 are those of RFC 4493 §4")
    func subkeys() throws {
        // K1 = fbeed618 35713366 7c85e08f 7236a8de, K2 = f7ddac30 6ae266cc f90bc11e e46d513b.
        // They are observable through a one-block message: tag = E(M xor K1), and for an
        // empty message tag = E(0x80 00.. xor K2).
        let k1: UInt128 = 0xFBEE_D618_3571_3366_7C85_E08F_7236_A8DE
        let k2: UInt128 = 0xF7DD_AC30_6AE2_66CC_F90B_C11E_E46D_513B
        let block: UInt128 = 0x6BC1_BEE2_2E40_9F96_E93D_7E11_7393_172A
        #expect(try BLECrypto.e(key: Self.rfcKey, plaintext: block ^ k1)
            == BLECrypto.aesCMAC(key: Self.rfcKey, message: Self.rfcMessage.prefix(16)))
        #expect(try BLECrypto.e(key: Self.rfcKey, plaintext: UInt128(0x80) << 120 ^ k2)
            == BLECrypto.aesCMAC(key: Self.rfcKey, message: [UInt8]()))
    }

    /// RFC 4493 §2.4 written plainly over a whole array, to check the streaming version at
    /// every length around the block boundaries.
    static func referenceCMAC(key: UInt128, message: [UInt8]) throws -> UInt128 {
        func double(_ value: UInt128) -> UInt128 { (value << 1) ^ (value >> 127 == 1 ? 0x87 : 0) }
        let k1 = double(try BLECrypto.e(key: key, plaintext: 0))
        let k2 = double(k1)
        func block(_ index: Int) -> UInt128 {
            var value: UInt128 = 0
            for position in 0 ..< 16 {
                let offset = index * 16 + position
                let octet: UInt8 = offset < message.count ? message[offset] : (offset == message.count ? 0x80 : 0)
                value = value << 8 | UInt128(octet)
            }
            return value
        }
        let count = max(1, (message.count + 15) / 16)
        let complete = !message.isEmpty && message.count % 16 == 0
        var chain: UInt128 = 0
        for index in 0 ..< count - 1 { chain = try BLECrypto.e(key: key, plaintext: chain ^ block(index)) }
        let last = block(count - 1) ^ (complete ? k1 : k2)
        return try BLECrypto.e(key: key, plaintext: chain ^ last)
    }

    @Test("AES-CMAC agrees with a plain RFC 4493 reference for every length 0 to 100")
    func streamingMatchesReference() throws {
        var generator = SeededGenerator(seed: 4493)
        for length in 0 ... 100 {
            let key = generator.uint128()
            let message = generator.bytes(length)
            let streamed = try BLECrypto.aesCMAC(key: key, message: message)
            #expect(try streamed == Self.referenceCMAC(key: key, message: message), "length \(length)")
            // The same octets through a non-array collection.
            #expect(try BLECrypto.aesCMAC(key: key, message: message.lazy.map { $0 }) == streamed)
        }
    }

    @Test("AES-CMAC changes when any one bit of the message changes")
    func everyBitMatters() throws {
        let base = try BLECrypto.aesCMAC(key: Self.rfcKey, message: Self.rfcMessage.prefix(40))
        var seen: Set<UInt128> = [base]
        for index in 0 ..< 40 {
            for bit in 0 ..< 8 {
                var message = Array(Self.rfcMessage.prefix(40))
                message[index] ^= 1 << bit
                seen.insert(try BLECrypto.aesCMAC(key: Self.rfcKey, message: message))
            }
        }
        #expect(seen.count == 1 + 40 * 8)
    }
}
