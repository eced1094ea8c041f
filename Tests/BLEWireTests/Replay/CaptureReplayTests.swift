import BLEWire
import Testing

/// Real exchanges captured from Bumble 0.0.236 hosts on its virtual controllers (a scan,
/// connection, Secure Connections pairing with bonding, GATT discovery, reads, a write and
/// notifications), replayed through every decoder.
@Suite("Replaying captures of real exchanges")
struct CaptureReplayTests {
    @Test("The GATT client's capture decodes completely and re-encodes byte for byte")
    func clientCapture() throws {
        var replay = CaptureReplay()
        try replay.replay(try CaptureReplay.fixture("bumble-scan-gatt-client-sc-pairing.btsnoop"))
        #expect(replay.failures == [])
        #expect(replay.counts["record"] == 256)
        // 0x2087 LE Read All Local Supported Features (Core 6.0) is newer than our table.
        #expect(replay.unknownCommandOpcodes == [0x2087])
        #expect(replay.counts["unknown event", default: 0] == 0)
        #expect(replay.localNames.contains("BumbleGATT"))
        // Pairing Request, Public Key, Confirm/Random, DHKey Check and identity keys flowed.
        #expect(replay.smpCodes.isSuperset(of: [0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0C, 0x0D]))
        // Exchange MTU, Find Information, Read By Type, Read By Group Type, Read, Write, notifications.
        #expect(replay.attOpcodes.isSuperset(of: [0x02, 0x03, 0x04, 0x05, 0x08, 0x09, 0x10, 0x11, 0x0A, 0x0B, 0x12, 0x13, 0x1B]))
        #expect(replay.counts["return parameters", default: 0] > 20)
    }

    @Test("The GATT server's capture decodes completely and re-encodes byte for byte")
    func serverCapture() throws {
        var replay = CaptureReplay()
        try replay.replay(try CaptureReplay.fixture("bumble-gatt-server-sc-pairing.btsnoop"))
        #expect(replay.failures == [])
        #expect(replay.counts["record"] == 234)
        #expect(replay.unknownCommandOpcodes == [0x2087])
        #expect(replay.counts["att", default: 0] > 40)
        #expect(replay.counts["smp", default: 0] >= 10)
    }
}
