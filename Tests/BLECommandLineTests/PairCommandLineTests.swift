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
        let configuration = options.configuration
        #expect(configuration.ioCapability == .keyboardDisplay)
        #expect(configuration.mitmRequired)
        #expect(!configuration.bonding)
        #expect(configuration.secureConnectionsOnly)
        #expect(options.isRequested)
        let legacy = try SecurityOptions.parse(["--legacy", "--io", "display"]).configuration
        #expect(!legacy.secureConnections)
        #expect(legacy.ioCapability == .displayOnly)
        #expect(legacy.bonding)
        #expect(!(try SecurityOptions.parse([])).isRequested)
    }

    @Test("contradictory or out-of-range options are refused", arguments: [
        ["--legacy", "--sc-only"], ["--io", "phone"], ["--passkey", "1000000"],
    ])
    func refused(arguments: [String]) {
        #expect(throws: (any Error).self) { try SecurityOptions.parse(arguments) }
    }

    @Test("the outcome line names the method, level, key size, bonding and the keys received")
    func outcome() {
        let result = SMPPairingResult(level: .authenticated, keySize: 16, bonded: true, secureConnections: false,
                                      method: .passkeyEntry(.responderDisplays), secureConnectionsLongTermKey: nil,
                                      peerKeys: SMPKeys(longTermKey: .init(key: 1, encryptedDiversifier: 2, random: 3), signatureKey: 4),
                                      localKeys: SMPKeys())
        #expect(PairingOutcome.paired(result, saved: true).sentence
            == "paired method passkey-peripheral-displays level 3 key-size 16 sc false bonded true saved keys ltk,csrk")
        #expect(PairingOutcome.sentence(.failed(.received(.confirmValueFailed))).contains("the device sent"))
        #expect(ConsoleAgent.sixDigits(42) == "000042")
    }
}
