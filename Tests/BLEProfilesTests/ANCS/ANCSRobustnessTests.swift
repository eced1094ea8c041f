import BLEProfiles
import BLEWire
import Testing

@Suite("ANCS and AMS decoders on arbitrary octets")
struct ANCSRobustnessTests {
    /// `count` pseudo-random inputs of 0–40 octets, the first octet biased to small values
    /// (command and entity IDs).
    static func inputs(count: Int = 4000) -> [[UInt8]] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        return (0 ..< count).map { _ in
            let length = Int(next() >> 58) % 41
            return (0 ..< length).map { index in index == 0 ? UInt8(next() >> 62) : UInt8(truncatingIfNeeded: next() >> 33) }
        }
    }

    @Test("No input traps; whatever decodes re-encodes to itself")
    func arbitraryOctets() {
        var decoded = 0
        for bytes in Self.inputs() {
            if let command = try? ANCS.ControlPointCommand(decoding: bytes) {
                decoded += 1
                #expect(command.encoded() == bytes, "\(bytes)")
            }
            if let event = try? ANCS.NotificationSourceEvent(decoding: bytes) { #expect(event.encoded() == bytes) }
            if let registration = try? AMS.EntityUpdateRegistration(decoding: bytes) { #expect(registration.encoded() == bytes) }
            if let update = try? AMS.EntityUpdate(decoding: bytes) {
                #expect((try? AMS.EntityUpdate(decoding: update.encoded())) == update)
            }
            _ = try? AMS.EntityAttributeRequest(decoding: bytes)
        }
        #expect(decoded > 0)
    }

    @Test("A reassembler fed arbitrary fragments never traps and always accepts a good response afterwards")
    func reassemblerOnGarbage() throws {
        let command = ANCS.ControlPointCommand.getNotificationAttributes(
            notificationUID: 1, attributes: [.init(.title, maximumLength: 8), .init(.appIdentifier)])
        let good = ANCS.DataSourceResponse.notificationAttributes(notificationUID: 1, attributes: [.init(.title, "Hi"), .init(.appIdentifier, "a.b")])
        var reassembler = ANCS.DataSourceReassembler()
        for bytes in Self.inputs(count: 1000) {
            reassembler.expect(command)
            _ = try? reassembler.append(bytes)
            reassembler.expect(command)
            #expect(try reassembler.append(good.encoded()) == good)
        }
    }
}
