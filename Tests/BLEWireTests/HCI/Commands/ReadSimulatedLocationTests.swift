import BLEWire
import Testing

/// SwiftBLE's vendor Read Simulated Location byte for byte.
@Suite("HCI Read Simulated Location (vendor)")
struct ReadSimulatedLocationTests {
    @Test("The command is opcode 0xFE01 without parameters; the answer carries position, heading and origin")
    func bytes() throws {
        let packet = try HCI.CommandPacket(HCI.ReadSimulatedLocation())
        #expect(packet.encoded() == [0x01, 0xFE, 0x00])
        #expect(HCI.Opcode.readSimulatedLocation.ogf == 0x3F)
        #expect(HCI.Opcode.readSimulatedLocation.name == "SwiftBLE Read Simulated Location")
        let bytes: [UInt8] = [
            0x00, 0x01,  // success, origin known
            0x18, 0xFC, 0xFF, 0xFF,  // x = -1000 mm
            0x32, 0x00, 0x00, 0x00,  // y = 50 mm
            0xB0, 0x04, 0x00, 0x00,  // z = 1200 mm
            0x28, 0x23,  // heading 90.00°
            0xB8, 0xE8, 0xB3, 0x1E,  // latitude 51.5107000°
            0x10, 0x99, 0xED, 0xFF,  // longitude -0.1206000°
        ]
        let answer = try HCI.ReadSimulatedLocation.ReturnParameters(decoding: bytes)
        #expect(answer == HCI.ReadSimulatedLocation.ReturnParameters(
            status: .success, hasOrigin: true, xMillimetres: -1000, yMillimetres: 50, zMillimetres: 1200,
            headingCentidegrees: 9000, originLatitude: 515_107_000, originLongitude: -1_206_000))
        #expect(answer.encoded() == bytes)
    }

    @Test("A heading of 360° or more, and a truncated answer, are refused")
    func malformed() {
        var bytes: [UInt8] = [0x00, 0x00] + [UInt8](repeating: 0, count: 12) + [0xA0, 0x8C] + [UInt8](repeating: 0, count: 8)
        #expect(throws: WireError.self) { try HCI.ReadSimulatedLocation.ReturnParameters(decoding: bytes) }  // 36 000
        bytes[14] = 0x9F  // 35 999
        #expect((try? HCI.ReadSimulatedLocation.ReturnParameters(decoding: bytes))?.headingCentidegrees == 35_999)
        #expect(throws: WireError.self) { try HCI.ReadSimulatedLocation.ReturnParameters(decoding: Array(bytes.dropLast())) }
    }
}
