import BLECrypto
import BLEHost
import BLEWire
import Testing

/// Out-of-band pairing in the SMP core (Core 5.4, Vol 3, Part H, §2.3.5.4, §2.3.5.6.4) and
/// the AD form its data travels in (Core Specification Supplement, Part A).
@Suite("SMP out-of-band data and failures")
struct SMPOutOfBandTests {
    static func keyPair() throws -> BLECrypto.P256KeyPair {
        try BLECrypto.P256KeyPair(privateKey: BLECrypto.Value256(high: 7, low: 0x0BB0))
    }

    @Test("An OOB block round-trips through AD structures, values little-endian, address with its type octet")
    func blockRoundTrip() throws {
        let data = try SMPOutOfBandData.local(keyPair: try Self.keyPair(), random: 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF)
        let block = SMPOutOfBandBlock(address: BluetoothAddress(0xC0_5F_00_00_00_01, kind: .random), secureConnections: data,
                                      temporaryKey: 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10)
        let bytes = block.advertisingData.encoded()
        #expect(Array(bytes.prefix(9)) == [0x08, 0x1B, 0x01, 0x00, 0x00, 0x00, 0x5F, 0xC0, 0x01])
        // The random value's structure: length 17, type 0x23, least significant octet first.
        let randomAt = 9 + 18
        #expect(Array(bytes[randomAt ..< randomAt + 3]) == [0x11, 0x23, 0xFF])
        #expect(bytes[randomAt + 17] == 0x00)
        #expect(bytes.suffix(17).first == 0x10 && bytes.last == 0x01)
        let read = try SMPOutOfBandBlock(advertisingData: try AdvertisingData(decoding: bytes))
        #expect(read == block)
    }

    @Test("Bumble's OOB AD (a six-octet address, no type octet) reads; half of the SC data or a short value is refused")
    func blockFromBumble() throws {
        // Made by Bumble 0.0.236: OobData(address=…, shared_data=OobContext().share()).to_ad().
        let bumble = "071b310000005bc01122a2948da1d0f08a1d5cdc1d43abd76d9e1123d165b1499e88e273d3fc9da3adbaf14b"
        let octets = stride(from: 0, to: bumble.count, by: 2).compactMap { index -> UInt8? in
            let start = bumble.index(bumble.startIndex, offsetBy: index)
            return UInt8(bumble[start ..< bumble.index(start, offsetBy: 2)], radix: 16)
        }
        let read = try SMPOutOfBandBlock(advertisingData: try AdvertisingData(decoding: octets))
        #expect(read.address == BluetoothAddress(0xC0_5B_00_00_00_31, kind: .public))
        #expect(read.secureConnections?.confirm == 0x9E6D_D7AB_431D_DC5C_1D8A_F0D0_A18D_94A2)
        #expect(read.secureConnections?.random == 0x4BF1_BAAD_A39D_FCD3_73E2_889E_49B1_65D1)
        #expect(read.temporaryKey == nil)

        let confirmOnly = AdvertisingData(structures: [AdvertisingData.Structure(type: .leSecureConnectionsConfirmationValue,
                                                                                 data: [UInt8](repeating: 1, count: 16))])
        #expect(throws: WireError.self) { try SMPOutOfBandBlock(advertisingData: confirmOnly) }
        let shortKey = AdvertisingData(structures: [AdvertisingData.Structure(type: .securityManagerTKValue, data: [1, 2, 3])])
        #expect(throws: WireError.self) { try SMPOutOfBandBlock(advertisingData: shortKey) }
    }

    @Test("Legacy OOB with different Temporary Keys fails with Confirm Value Failed: the responder checks Mconfirm")
    func legacyWrongKey() {
        var initiator = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: false)
        var responder = SMPFixtures.configuration(.noInputNoOutput, initiator: false, secureConnections: false)
        initiator.legacyOutOfBandKey = 0x1111
        responder.legacyOutOfBandKey = 0x2222
        var run = BackToBack(initiator: initiator, responder: responder)
        run.run()
        #expect(run.initiator.method == .outOfBand)
        #expect(run.failure(.responder) == .sent(.confirmValueFailed))
        #expect(run.failure(.initiator) == .received(.confirmValueFailed))
        #expect(run.initiatorKey == nil && run.responderKey == nil)
    }

    @Test("SC OOB with a changed confirm value fails with Confirm Value Failed on the side that checks it",
          arguments: [BackToBack.Side.initiator, .responder])
    func secureConnectionsWrongConfirm(checker: BackToBack.Side) throws {
        let sender = try SMPOutOfBandData.local(keyPair: try Self.keyPair(), random: 0x5555)
        var wrong = sender
        wrong.confirm ^= 1
        var initiator = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: true)
        var responder = SMPFixtures.configuration(.noInputNoOutput, initiator: false, secureConnections: true)
        if checker == .initiator {
            responder.keyPair = try Self.keyPair()
            responder.localOutOfBand = sender
            initiator.peerOutOfBand = wrong
        } else {
            initiator.keyPair = try Self.keyPair()
            initiator.localOutOfBand = sender
            responder.peerOutOfBand = wrong
        }
        var run = BackToBack(initiator: initiator, responder: responder)
        run.run()
        let other: BackToBack.Side = checker == .initiator ? .responder : .initiator
        #expect(run.failure(checker) == .sent(.confirmValueFailed))
        #expect(run.failure(other) == .received(.confirmValueFailed))
        #expect(run.initiatorKey == nil)
    }

    @Test("Our OOB key pair is used by OOB pairings only: a Just Works pairing sends a fresh public key")
    func outOfBandKeyPairOnlyForOutOfBand() throws {
        let pair = try Self.keyPair()
        var initiator = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: true)
        initiator.keyPair = pair
        initiator.localOutOfBand = try SMPOutOfBandData.local(keyPair: pair, random: 0x77)
        let responder = SMPFixtures.configuration(.noInputNoOutput, initiator: false, secureConnections: true)
        var run = BackToBack(initiator: initiator, responder: responder)
        run.run()
        #expect(run.result(.initiator)?.method == .justWorks)
        let publicKey = try #require(run.sent(.initiator).first { $0.first == SMP.Code.pairingPublicKey.rawValue })
        #expect(Array(publicKey[1 ... 32]) != pair.publicX.littleEndianBytes, "a fresh key, not the one the OOB data commits to")

        // The peer holds our data: OOB runs with the committed key pair, which the peer checks.
        var responderWithData = responder
        responderWithData.peerOutOfBand = initiator.localOutOfBand
        var oob = BackToBack(initiator: initiator, responder: responderWithData)
        oob.run()
        #expect(oob.result(.responder)?.method == .outOfBand)
        let sent = try #require(oob.sent(.initiator).first { $0.first == SMP.Code.pairingPublicKey.rawValue })
        #expect(Array(sent[1 ... 32]) == pair.publicX.littleEndianBytes)
    }

    @Test("The OOB flag claims only data for the pairing that runs: a legacy TK alone does not claim SC data")
    func flagFollowsKind() throws {
        // The initiator offers SC and holds only a TK: its flag stays clear, Just Works runs.
        var initiator = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: true)
        initiator.legacyOutOfBandKey = 0x1234
        var responder = SMPFixtures.configuration(.noInputNoOutput, initiator: false, secureConnections: true)
        responder.legacyOutOfBandKey = 0x1234
        var run = BackToBack(initiator: initiator, responder: responder)
        run.run()
        let request = try #require(run.sent(.initiator).first)
        #expect(request[2] == 0x00, "OOB data flag of the Pairing Request")
        #expect(run.result(.initiator)?.method == .justWorks)

        // A responder offering SC answers a legacy initiator with its TK: both flags set, legacy OOB.
        var legacy = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: false)
        legacy.legacyOutOfBandKey = 0x1234
        var both = BackToBack(initiator: legacy, responder: responder)
        both.run()
        #expect(both.sent(.responder).first?[2] == 0x01, "OOB data flag of the Pairing Response")
        #expect(both.result(.responder)?.method == .outOfBand)
        #expect(both.result(.responder)?.level == .authenticated)
        #expect(both.initiatorKey != nil && both.initiatorKey == both.responderKey)
    }
}
