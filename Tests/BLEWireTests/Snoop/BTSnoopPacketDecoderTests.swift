import BLEWire
import Foundation
import Testing

@Suite("btsnoop packet decoder")
struct BTSnoopPacketDecoderTests {
    /// A capture of a Bumble GATT server pairing with Secure Connections (H4 datalink), from
    /// the wire decoders' fixtures.
    static func fixture() throws -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Tests/BLEWireTests/Fixtures/bumble-gatt-server-sc-pairing.btsnoop")
        return Array(try Data(contentsOf: url))
    }

    static func lines(_ bytes: [UInt8]) throws -> [BTSnoop.DecodedPacket] {
        var reader = try BTSnoop.Reader(bytes)
        var decoder = BTSnoop.PacketDecoder(datalink: reader.header.datalink)
        var lines: [BTSnoop.DecodedPacket] = []
        while let record = try reader.next() { lines.append(decoder.decode(record, number: lines.count + 1)) }
        return lines
    }

    @Test("A real capture decodes with nothing malformed: commands and their completions by name, SMP and ATT inside ACL")
    func realCapture() throws {
        let lines = try Self.lines(Self.fixture())
        #expect(lines.count == 234)
        #expect(!lines.contains { $0.isMalformed }, "\(lines.filter(\.isMalformed).map(\.summary))")
        #expect(lines[0].direction == .sent && lines[0].kind == "Command" && lines[0].summary == "Reset", "\(lines[0])")
        #expect(lines[1].summary == "Command Complete (Reset)")
        #expect(lines[1].fields.map(\.text) == ["Opcode: Reset (0x0c03)", "Num HCI command packets: 1", "Status: Success (0x00)"])
        #expect(lines.contains { $0.summary == "SMP Pairing Request" && $0.direction == .received })
        #expect(lines.contains { $0.summary.hasPrefix("ATT ") && $0.channel == 0x0004 })
        // The 65-octet public key came in three fragments and is decoded once, whole.
        #expect(lines.filter { $0.summary == "SMP Pairing Public Key" }.count == 2)
        #expect(lines.contains { $0.summary == "L2CAP CID 0x0006: 23 of 65 octets" })
        #expect(lines.allSatisfy { $0.seconds >= 0 })
    }

    @Test("Malformed packets are shown as such and decoding goes on")
    func malformed() throws {
        var writer = BTSnoop.Writer()
        var bytes: [UInt8] = []  // the writer puts the file header before the first record
        let packets: [[UInt8]] = [
            [0x01, 0x03, 0x0C, 0x00],  // Reset
            [0x04, 0x0E, 0x02, 0x01],  // an event shorter than its length says
            [0x02, 0x40, 0x10, 0x02, 0x00, 0x01, 0x02],  // a continuation with no start
            [0x02, 0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0xFF],  // ATT opcode 0xFF
            [0x01, 0x03, 0x0C, 0x00],  // Reset again
        ]
        for (index, packet) in packets.enumerated() {
            bytes += try writer.bytes(forH4Packet: packet, direction: index.isMultiple(of: 2) ? .sent : .received,
                                      unixMicroseconds: 1_000_000 * Int64(index))
        }
        let lines = try Self.lines(bytes)
        #expect(lines.map(\.isMalformed) == [false, true, true, true, false], "\(lines.map(\.summary))")
        #expect(lines[3].summary.hasPrefix("malformed on CID 0x0004"), "\(lines[3].summary)")
        #expect(lines[4].summary == "Reset")
        #expect(lines[4].seconds == 4)
    }
}
