@testable import BLECommandLine
import BLEHost
import BLEWire
import Testing

/// `ble pair`'s options and output: the SMP configuration the options make, the refusals,
/// and the outcome line.
@Suite("ble pair pieces")
struct PairCommandLineTests {
    @Test("the pairing options make the SMP configuration: IO capability, legacy, SC only, MITM, bonding")
    func configuration() throws {
        let options = try SecurityOptions.parse(["--io", "kbdisplay", "--mitm", "--no-bond", "--sc-only"])
        let configuration = options.configuration()
        #expect(configuration.ioCapability == .keyboardDisplay)
        #expect(configuration.mitmRequired)
        #expect(!configuration.bonding)
        #expect(configuration.secureConnectionsOnly)
        #expect(options.isRequested)
        let legacy = try SecurityOptions.parse(["--legacy", "--io", "display"]).configuration()
        #expect(!legacy.secureConnections)
        #expect(legacy.ioCapability == .displayOnly)
        #expect(legacy.bonding)
        #expect(!(try SecurityOptions.parse([])).isRequested)
    }

    @Test("among JSON lines (ble serve, --json) the passkey and the number to compare are JSON objects, leading zeros kept")
    func agentLinesAmongJSON() {
        #expect(ConsoleAgent.line("passkey", 788_093, json: true) == #"{"event": "passkey", "passkey": "788093"}"#)
        #expect(ConsoleAgent.line("compare", 123, json: true) == #"{"event": "compare", "compare": "000123"}"#)
        #expect(ConsoleAgent.line("passkey", 123, json: false) == "passkey 000123")
    }

    @Test("contradictory or out-of-range options are refused", arguments: [
        ["--legacy", "--sc-only"], ["--io", "phone"], ["--passkey", "1000000"], ["--legacy", "--oob-tk", "0102"],
        ["--oob-tk", String(repeating: "ab", count: 16)], ["--legacy", "--oob-show"], ["--oob-peer", "00:11"],
        ["--oob-peer", "1122" + String(repeating: "00", count: 16)],
    ])
    func refused(arguments: [String]) {
        #expect(throws: (any Error).self) { try SecurityOptions.parse(arguments) }
    }

    @Test("OOB options: --oob-tk and --oob-peer C:R are numbers written most significant first, or AD hex; --oob-show's key pair is the one pairing uses")
    func outOfBand() throws {
        let legacy = try SecurityOptions.parse(["--legacy", "--oob-tk", "0x000102030405060708090a0b0c0d0e0f"])
        #expect(legacy.configuration().legacyOutOfBandKey == 0x0001_0203_0405_0607_0809_0A0B_0C0D_0E0F)
        #expect(legacy.isRequested)
        // The same key as a Security Manager TK Value structure (0x10), least significant first.
        let tkAD = "1110" + "0f0e0d0c0b0a09080706050403020100"
        #expect(try SecurityOptions.parse(["--legacy", "--oob-tk", tkAD]).configuration().legacyOutOfBandKey
            == 0x0001_0203_0405_0607_0809_0A0B_0C0D_0E0F)

        let confirm = "9e6dd7ab431ddc5c1d8af0d0a18d94a2", random = "4bf1baada39dfcd373e2889e49b165d1"
        let peer = try SecurityOptions.parse(["--oob-peer", "\(confirm):\(random)"]).configuration().peerOutOfBand
        #expect(peer == SMPOutOfBandData(random: 0x4BF1_BAAD_A39D_FCD3_73E2_889E_49B1_65D1, confirm: 0x9E6D_D7AB_431D_DC5C_1D8A_F0D0_A18D_94A2))
        // Bumble's AD for the same data (address without its type octet, then 0x22 and 0x23).
        let bumbleAD = "071b310000005bc01122a2948da1d0f08a1d5cdc1d43abd76d9e1123d165b1499e88e273d3fc9da3adbaf14b"
        #expect(try SecurityOptions.parse(["--oob-peer", bumbleAD]).configuration().peerOutOfBand == peer)

        let shown = try SecurityOptions.parse(["--oob-show"])
        let local = try #require(try shown.makeLocalOutOfBand())
        let configuration = shown.configuration(localOutOfBand: local)
        #expect(configuration.localOutOfBand == local.data)
        #expect(configuration.keyPair?.publicX == local.keyPair.publicX)
        #expect(try SMPOutOfBandData.local(keyPair: local.keyPair, random: local.data.random) == local.data, "C commits to the key pair")
        let address = BluetoothAddress(0xC0_5F_00_00_00_01, kind: .random)
        let line = local.sentence(address: address)
        #expect(line.hasPrefix("oob address C0:5F:00:00:00:01/random c \(OutOfBandText.hex(local.data.confirm)) r "))
        let ad = try #require(line.components(separatedBy: " ad ").last)
        #expect(OutOfBandText.peerData(ad) == local.data, "our AD reads back")
        #expect(OutOfBandText.block(ad)?.address == address)
        #expect(try SecurityOptions.parse([]).makeLocalOutOfBand() == nil)
    }

    @Test("the outcome line names the method, level, key size, bonding and the keys received")
    func outcome() {
        let result = SMPPairingResult(level: .authenticated, keySize: 16, bonded: true, secureConnections: false,
                                      method: .passkeyEntry(.responderDisplays), secureConnectionsLongTermKey: nil,
                                      peerKeys: SMPKeys(longTermKey: .init(key: 1, encryptedDiversifier: 2, random: 3), signatureKey: 4),
                                      localKeys: SMPKeys())
        #expect(PairingOutcome.paired(result, saved: true).sentence
            == "paired method passkey-peripheral-displays level 3 key-size 16 sc false bonded true saved true keys ltk,csrk")
        // Every word a name and its value: "saved" alone before "keys none" read as "saved keys: none".
        #expect(PairingOutcome.paired(result, saved: false).sentence.hasSuffix("bonded true saved false keys ltk,csrk"))
        #expect(PairingOutcome.sentence(.failed(.received(.confirmValueFailed))).contains("the device sent"))
        #expect(ConsoleAgent.sixDigits(42) == "000042")
    }

    @Test("Authentication Requirements says that the IO capabilities cannot give MITM protection and suggests leaving out --mitm")
    func mitmRefusedSaysWhy() {
        for refused in [PairingOutcome.sentence(.failed(.received(.authenticationRequirements))),
                        PairingOutcome.sentence(.failed(.sent(.authenticationRequirements)))] {
            #expect(refused.contains("IO capabilities cannot give the protection asked for"), "\(refused)")
            #expect(refused.contains("leave out --mitm"), "\(refused)")
        }
        #expect(!PairingOutcome.sentence(.failed(.received(.confirmValueFailed))).contains("--mitm"))
    }
}
