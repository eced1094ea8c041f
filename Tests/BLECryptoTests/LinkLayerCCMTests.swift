import Testing
import BLECrypto

/// The encryption sample data of Core 5.4, Vol 6, Part C, §1: LTK, SKDm, SKDs, IVm, IVs,
/// the session key and four packets. The packet bytes were checked against two sources that
/// agree: Bluetoe's test_tools_encryption_tests.cpp and a Python CCM check script of
/// another project's LE tooling (header, length, payload, MIC as on air).
@Suite("Link Layer AES-CCM")
struct LinkLayerCCMTests {
    typealias CCM = BLECrypto.LinkLayerCCM

    static let longTermKey: UInt128 = 0x4C68_3841_39F5_74D8_36BC_F34E_9DFB_01BF
    static let skdCentral: UInt64 = 0xACBD_CEDF_E0F1_0213
    static let skdPeripheral: UInt64 = 0x0213_2435_4657_6879
    static let ivCentral: UInt32 = 0xBADC_AB24
    static let ivPeripheral: UInt32 = 0xDEAF_BABE

    static func sample() throws -> CCM {
        try CCM(longTermKey: longTermKey, skdCentral: skdCentral, skdPeripheral: skdPeripheral,
                ivCentral: ivCentral, ivPeripheral: ivPeripheral)
    }

    /// A packet of the sample: header octet, counter, direction, plaintext, encrypted+MIC.
    struct Packet: Sendable, CustomTestStringConvertible {
        let name: String
        let header: UInt8
        let counter: UInt64
        let direction: CCM.Direction
        let plaintext: [UInt8]
        let encrypted: [UInt8]
        var testDescription: String { name }
    }

    static let packets: [Packet] = [
        Packet(name: "LL_START_ENC_RSP1, central", header: 0x0F, counter: 0, direction: .centralToPeripheral,
               plaintext: [0x06], encrypted: octets("9f cd a7 f4 48")),
        Packet(name: "LL_START_ENC_RSP2, peripheral", header: 0x07, counter: 0, direction: .peripheralToCentral,
               plaintext: [0x06], encrypted: octets("a3 4c 13 a4 15")),
        Packet(name: "Data packet 1, central", header: 0x0E, counter: 1, direction: .centralToPeripheral,
               plaintext: octets("17 00 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70 71 31 32 33 34 35 36 37 38 39 30"),
               encrypted: octets("7a 70 d6 64 15 22 6d f2 6b 17 83 9a 06 04 05 59 6b d6 56 4f 79 6b 5b 9c e6 ff 32 f7 5a 6d 33")),
        Packet(name: "Data packet 2, peripheral", header: 0x06, counter: 1, direction: .peripheralToCentral,
               plaintext: octets("17 00 37 36 35 34 33 32 31 30 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50 51"),
               encrypted: octets("f3 88 81 e7 bd 94 c9 c3 69 b9 a6 68 46 dd 47 86 aa 8c 39 ce 54 0d 0d ae 3a dc df 89 b9 60 88")),
    ]

    @Test("The session key and IV derive as the sample shows")
    func sessionKey() throws {
        #expect(try CCM.sessionKey(longTermKey: Self.longTermKey, skdCentral: Self.skdCentral, skdPeripheral: Self.skdPeripheral)
            == 0x99AD_1B52_26A3_7E3E_058E_3B8E_27C2_C666)
        let ccm = try Self.sample()
        #expect(ccm.sessionKey == 0x99AD_1B52_26A3_7E3E_058E_3B8E_27C2_C666)
        // IV octets in the nonce: 24 ab dc ba be ba af de.
        #expect(ccm.initializationVector == 0xDEAF_BABE_BADC_AB24)
    }

    @Test("The sample packets encrypt to the sample bytes", arguments: packets)
    func encrypt(packet: Packet) throws {
        let ccm = try Self.sample()
        let result = try ccm.encrypt(payload: packet.plaintext, header: packet.header, counter: packet.counter, direction: packet.direction)
        #expect(result == packet.encrypted)
    }

    @Test("The sample packets decrypt to the sample plaintext", arguments: packets)
    func decrypt(packet: Packet) throws {
        let ccm = try Self.sample()
        let result = try ccm.decrypt(packet.encrypted, header: packet.header, counter: packet.counter, direction: packet.direction)
        #expect(result == packet.plaintext)
        // Through a slice that does not start at index 0.
        let framed = [0x00, 0x1F] + packet.encrypted
        #expect(try ccm.decrypt(framed.dropFirst(2), header: packet.header, counter: packet.counter, direction: packet.direction) == packet.plaintext)
    }

    @Test("Any flipped bit of payload or MIC fails with micFailure", arguments: packets)
    func flippedBits(packet: Packet) throws {
        let ccm = try Self.sample()
        for index in packet.encrypted.indices {
            for bit in 0 ..< 8 {
                var damaged = packet.encrypted
                damaged[index] ^= 1 << bit
                #expect(throws: BLECrypto.Error.micFailure) {
                    try ccm.decrypt(damaged, header: packet.header, counter: packet.counter, direction: packet.direction)
                }
            }
        }
    }

    @Test("A wrong counter, direction, LLID or key fails with micFailure")
    func wrongContext() throws {
        let ccm = try Self.sample()
        let packet = Self.packets[2]
        #expect(throws: BLECrypto.Error.micFailure) {
            try ccm.decrypt(packet.encrypted, header: packet.header, counter: 2, direction: packet.direction)
        }
        #expect(throws: BLECrypto.Error.micFailure) {
            try ccm.decrypt(packet.encrypted, header: packet.header, counter: packet.counter, direction: .peripheralToCentral)
        }
        #expect(throws: BLECrypto.Error.micFailure) {
            try ccm.decrypt(packet.encrypted, header: 0x0D, counter: packet.counter, direction: packet.direction)
        }
        let otherKey = CCM(sessionKey: ccm.sessionKey ^ 1, initializationVector: ccm.initializationVector)
        #expect(throws: BLECrypto.Error.micFailure) {
            try otherKey.decrypt(packet.encrypted, header: packet.header, counter: packet.counter, direction: packet.direction)
        }
    }

    @Test("NESN, SN and MD are not authenticated; the other header bits are")
    func headerMask() throws {
        let ccm = try Self.sample()
        let packet = Self.packets[2]
        for bit in 0 ..< 8 {
            let header = packet.header ^ (1 << bit)
            if CCM.headerMask & (1 << bit) == 0 {
                #expect(try ccm.decrypt(packet.encrypted, header: header, counter: packet.counter, direction: packet.direction) == packet.plaintext)
            } else {
                #expect(throws: BLECrypto.Error.micFailure) {
                    try ccm.decrypt(packet.encrypted, header: header, counter: packet.counter, direction: packet.direction)
                }
            }
        }
    }

    @Test("Lengths and counters outside the Link Layer's ranges are refused")
    func limits() throws {
        let ccm = try Self.sample()
        #expect(throws: BLECrypto.Error.payloadTooLong(248)) {
            try ccm.encrypt(payload: [UInt8](repeating: 0, count: 248), header: 0x02, counter: 0, direction: .centralToPeripheral)
        }
        #expect(throws: BLECrypto.Error.payloadTooLong(248)) {
            try ccm.decrypt([UInt8](repeating: 0, count: 252), header: 0x02, counter: 0, direction: .centralToPeripheral)
        }
        for length in 0 ..< 4 {
            #expect(throws: BLECrypto.Error.encryptedPayloadTooShort(length)) {
                try ccm.decrypt([UInt8](repeating: 0, count: length), header: 0x02, counter: 0, direction: .centralToPeripheral)
            }
        }
        #expect(throws: BLECrypto.Error.packetCounterOutOfRange(1 << 39)) {
            try ccm.encrypt(payload: [1], header: 0x02, counter: 1 << 39, direction: .centralToPeripheral)
        }
        #expect(throws: BLECrypto.Error.packetCounterOutOfRange(1 << 39)) {
            try ccm.decrypt([1, 2, 3, 4, 5], header: 0x02, counter: 1 << 39, direction: .centralToPeripheral)
        }
        let full = [UInt8](repeating: 0xA5, count: 247)
        let sealed = try ccm.encrypt(payload: full, header: 0x02, counter: CCM.maximumPacketCounter, direction: .peripheralToCentral)
        #expect(sealed.count == 251)
        #expect(try ccm.decrypt(sealed, header: 0x02, counter: CCM.maximumPacketCounter, direction: .peripheralToCentral) == full)
    }

    @Test("An empty payload carries only a MIC, and that MIC is checked")
    func emptyPayload() throws {
        let ccm = try Self.sample()
        let sealed = try ccm.encrypt(payload: [UInt8](), header: 0x01, counter: 5, direction: .centralToPeripheral)
        #expect(sealed.count == 4)
        #expect(try ccm.decrypt(sealed, header: 0x01, counter: 5, direction: .centralToPeripheral) == [])
        #expect(throws: BLECrypto.Error.micFailure) {
            try ccm.decrypt(sealed, header: 0x01, counter: 6, direction: .centralToPeripheral)
        }
    }

    @Test("decrypt(encrypt(x)) == x for random payloads of 0 to 247 octets")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0xCC)
        for round in 0 ..< 300 {
            let ccm = CCM(sessionKey: generator.uint128(), initializationVector: generator.next())
            let length = round < 248 ? round : Int.random(in: 0 ... 247, using: &generator)
            let payload = generator.bytes(length)
            let header = UInt8.random(in: 0 ... 255, using: &generator)
            let counter = UInt64.random(in: 0 ... CCM.maximumPacketCounter, using: &generator)
            let direction = CCM.Direction.allCases.randomElement(using: &generator) ?? .centralToPeripheral
            let sealed = try ccm.encrypt(payload: payload, header: header, counter: counter, direction: direction)
            #expect(sealed.count == length + 4)
            if length >= 8 { #expect(Array(sealed.prefix(length)) != payload) }
            #expect(try ccm.decrypt(sealed, header: header, counter: counter, direction: direction) == payload)
        }
    }
}
