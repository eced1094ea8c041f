import BLECrypto
import BLEHost
import BLEWire
import Testing

/// Whole runs of the two cores checked against the specification's published values
/// (Core 5.4, Vol 3, Part H, §2.2.3–§2.2.4 for legacy; Appendix D and the P-256 data set
/// of Vol 2, Part G, §7.1 for Secure Connections).
@Suite("SMP pairing runs against the specification's sample data")
struct SMPSampleDataTests {
    /// The §2.2.3 example: initiator A1:A2:A3:A4:A5:A6 (random), responder
    /// B1:B2:B3:B4:B5:B6 (public); Pairing Request 01 01 00 00 10 07 07 and Pairing Response
    /// 02 03 00 00 08 00 05, which our configurations must produce octet for octet.
    static func legacyRun(mrand: UInt128, srand: UInt128) -> BackToBack {
        let initiator = SMPConfiguration(
            ioCapability: .displayYesNo, bonding: false, secureConnections: false,
            identity: SMPFixtures.initiatorIdentity, signatureKey: SMPFixtures.initiatorCSRK)
        let responder = SMPConfiguration(
            ioCapability: .noInputNoOutput, bonding: false, secureConnections: false, maximumKeySize: 8,
            localKeys: [.encryptionKey, .signingKey], peerKeys: [], signatureKey: SMPFixtures.responderCSRK)
        var run = BackToBack(
            initiator: initiator, responder: responder,
            initiatorAddress: BluetoothAddress(0xA1A2_A3A4_A5A6, kind: .random),
            responderAddress: BluetoothAddress(0xB1B2_B3B4_B5B6, kind: .public),
            initiatorRandom: ScriptedRandom([mrand], seed: 5), responderRandom: ScriptedRandom([srand], seed: 6))
        run.run()
        return run
    }

    @Test("Legacy Just Works sends the §2.2.3 Pairing Request, Response and Mconfirm")
    func legacyConfirm() throws {
        let run = Self.legacyRun(mrand: 0x5783_D521_56AD_6F0E_6388_274E_C670_2EE0, srand: 0x0011_2233)
        let initiatorPDUs = run.sent(.initiator)
        let responderPDUs = run.sent(.responder)
        #expect(initiatorPDUs.first == [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07])
        #expect(responderPDUs.first == [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05])
        // Mconfirm 0x1e1e3fef878988ead2a74dc5bef13b86, least significant octet first.
        #expect(initiatorPDUs.dropFirst().first == SMP.PairingConfirm(confirmValue: 0x1E1E_3FEF_8789_88EA_D2A7_4DC5_BEF1_3B86).encoded())
        let result = try #require(run.result(.initiator))
        #expect(result.keySize == 8)
        #expect(result.level == .unauthenticated)
        #expect(!result.bonded)
        // The responder distributed EncKey and SignKey; the initiator nothing.
        #expect(result.peerKeys.signatureKey == SMPFixtures.responderCSRK)
        #expect(result.peerKeys.longTermKey.map { $0.key >> 64 } == 0)
        #expect(run.result(.responder)?.peerKeys == SMPKeys())
    }

    @Test("Legacy STK is s1 of §2.2.4 masked to the 8-octet key size (§2.3.4)")
    func legacySTK() throws {
        let run = Self.legacyRun(mrand: 0x0102_0304_0506_0708_99AA_BBCC_DDEE_FF00,
                                 srand: 0x000F_0E0D_0C0B_0A09_1122_3344_5566_7788)
        let stk: UInt128 = 0x9A1F_E1F0_E8B0_F49B_5B42_16AE_796D_A062 & 0xFFFF_FFFF_FFFF_FFFF
        #expect(run.initiatorKey == stk)
        #expect(run.responderKey == stk)
        #expect(run.outputs(.initiator).contains(.startEncryption(ltk: stk, ediv: 0, rand: 0)))
    }

    /// Private key B of the P-256 data set (Vol 2, Part G, §7.1); A is the debug key.
    static let privateB = BLECrypto.Value256(
        high: 0x5518_8B3D_32F6_BB9A_900A_FCFB_EED4_E72A, low: 0x59CB_9AC2_F19D_7CFB_6B4F_DD49_F47F_C5FD)

    @Test("SC Just Works with the sample keys, nonces and addresses derives the Appendix D.2 LTK")
    func secureConnectionsLTK() throws {
        let initiator = SMPConfiguration(bonding: false, keyPair: try BLECrypto.P256KeyPair.debug, localKeys: [], peerKeys: [])
        let responder = SMPConfiguration(bonding: false, keyPair: try BLECrypto.P256KeyPair(privateKey: Self.privateB),
                                         localKeys: [], peerKeys: [])
        var run = BackToBack(
            initiator: initiator, responder: responder,
            initiatorAddress: BluetoothAddress(0x5612_3737_BFCE, kind: .public),
            responderAddress: BluetoothAddress(0xA713_702D_CFC1, kind: .public),
            initiatorRandom: ScriptedRandom([0xD5CB_8454_D177_733E_FFFF_B2EC_712B_AEAB], seed: 7),
            responderRandom: ScriptedRandom([0xA6E8_E7CC_25A7_5F6E_2165_83F7_FF3D_C4CF], seed: 8))
        run.run()
        let ltk: UInt128 = 0x6986_7911_69D7_CD23_9805_22B5_9475_0A38
        #expect(run.initiatorKey == ltk)
        #expect(run.responderKey == ltk)
        #expect(run.result(.initiator)?.secureConnectionsLongTermKey == ltk)
        #expect(run.result(.responder)?.level == .unauthenticated)
        // The public keys on the wire are the data set's, X least significant octet first.
        let debugX = BLECrypto.P256KeyPair.debugPublicX.littleEndianBytes
        #expect(run.sent(.initiator).contains { $0.first == 0x0C && Array($0[1 ... 32]) == debugX })
        let publicBX = BLECrypto.Value256(
            high: 0x1EA1_F0F0_1FAF_1D96_0959_2284_F19E_4C00, low: 0x47B5_8AFD_8615_A69F_5590_77B2_2FAA_A190)
        #expect(run.sent(.responder).contains { $0.first == 0x0C && Array($0[1 ... 32]) == publicBX.littleEndianBytes })
    }
}

@Suite("SMP association model selection (§2.3.5.1)")
struct SMPMethodSelectionTests {
    @Test("Table 2.8 for legacy and Secure Connections")
    func table() {
        typealias M = SMPPairingMethod
        let io: [SMP.IOCapability] = [.displayOnly, .displayYesNo, .keyboardOnly, .noInputNoOutput, .keyboardDisplay]
        // Rows: responder; columns: initiator; legacy.
        let legacy: [[M]] = [
            [.justWorks, .justWorks, .passkeyEntry(.responderDisplays), .justWorks, .passkeyEntry(.responderDisplays)],
            [.justWorks, .justWorks, .passkeyEntry(.responderDisplays), .justWorks, .passkeyEntry(.responderDisplays)],
            [.passkeyEntry(.initiatorDisplays), .passkeyEntry(.initiatorDisplays), .passkeyEntry(.bothEnter), .justWorks,
             .passkeyEntry(.initiatorDisplays)],
            [.justWorks, .justWorks, .justWorks, .justWorks, .justWorks],
            [.passkeyEntry(.initiatorDisplays), .passkeyEntry(.initiatorDisplays), .passkeyEntry(.responderDisplays), .justWorks,
             .passkeyEntry(.initiatorDisplays)],
        ]
        for (row, responder) in io.enumerated() {
            for (column, initiator) in io.enumerated() {
                let expectedLegacy = legacy[row][column]
                #expect(M.fromIOCapabilities(initiator: initiator, responder: responder, secureConnections: false) == expectedLegacy)
                let bothYesNo = [SMP.IOCapability.displayYesNo, .keyboardDisplay]
                let numeric = bothYesNo.contains(initiator) && bothYesNo.contains(responder)
                #expect(M.fromIOCapabilities(initiator: initiator, responder: responder, secureConnections: true)
                    == (numeric ? .numericComparison : expectedLegacy))
            }
        }
    }

    @Test("OOB and MITM rules: legacy needs both OOB flags, SC either; no MITM gives Just Works")
    func rules() {
        func select(_ iOOB: Bool, _ rOOB: Bool, mitm: Bool, sc: Bool) -> SMPPairingMethod {
            .select(initiatorIO: .keyboardDisplay, initiatorOOB: iOOB, initiatorMITM: mitm,
                    responderIO: .keyboardOnly, responderOOB: rOOB, responderMITM: false, secureConnections: sc)
        }
        #expect(select(true, true, mitm: false, sc: false) == .outOfBand)
        #expect(select(true, false, mitm: true, sc: false) == .passkeyEntry(.initiatorDisplays))
        #expect(select(true, false, mitm: false, sc: true) == .outOfBand)
        #expect(select(false, true, mitm: false, sc: true) == .outOfBand)
        #expect(select(false, false, mitm: false, sc: true) == .justWorks)
        #expect(select(false, false, mitm: true, sc: true) == .passkeyEntry(.initiatorDisplays))
    }
}
