import BLEProfiles
import BLEWire
import Testing

@Suite("AMS codecs")
struct AMSCodecTests {

    @Test("The UUIDs are Apple's, least significant octet first on the wire")
    func uuids() {
        #expect(wire(AMS.service) == hex("DCF855AD02C5F48E3A43360F2B50D389"))
        #expect(wire(AMS.remoteCommand) == hex("C251CAF7560EDFB88A4AB157D8813C9B"))
        #expect(wire(AMS.entityUpdate) == hex("02C196BA92BB0C9A1F418D80CEAB7C2F"))
        #expect(wire(AMS.entityAttribute) == hex("D7D5BB70A8A3ABA6D846AB238CF3B2C6"))
    }

    @Test("The published Entity Update registrations and notifications decode and re-encode")
    func entityUpdates() throws {
        let player = try AMS.EntityUpdateRegistration(decoding: hex("00000102"))
        #expect(player == AMS.EntityUpdateRegistration(entity: .player, attributes: [0, 1, 2]))
        #expect(player.encoded() == hex("00000102"))
        #expect(try AMS.EntityUpdateRegistration(decoding: hex("0200010203")).attributes == [0, 1, 2, 3])
        #expect(try AMS.EntityUpdateRegistration(decoding: hex("02")).attributes.isEmpty)
        let paused = try AMS.EntityUpdate(decoding: hex("000100") + Array("0,0.0,0.000".utf8))
        #expect(paused == AMS.EntityUpdate(entity: .player, attribute: 1, value: "0,0.0,0.000"))
        #expect(AMS.PlaybackInfo(paused.value) == AMS.PlaybackInfo(state: 0, rate: 0, elapsed: 0))
        let playing = try #require(AMS.PlaybackInfo("1,1.0,0.014"))
        #expect(playing.text == "1,1.0,0.014")
        #expect(abs(playing.elapsed(after: 2) - 2.014) < 1e-9)
        let duration = AMS.EntityUpdate(entity: .track, attribute: AMS.TrackAttributeID.duration.rawValue, value: "120.000")
        #expect(duration.encoded() == hex("020300") + Array("120.000".utf8))
        #expect(try AMS.EntityUpdate(decoding: duration.encoded()) == duration)
    }

    @Test("A value longer than a notification is cut on a character boundary and flagged truncated")
    func truncatedUpdate() throws {
        let title = String(repeating: "é", count: 20)  // 40 octets
        let update = AMS.EntityUpdate(entity: .track, attribute: AMS.TrackAttributeID.title.rawValue, value: title, attMTU: 23)
        #expect(update.truncated)
        #expect(update.encoded().count <= 20)
        #expect(update.value == String(repeating: "é", count: 8))  // 3 + 16 of the 20 octets
        #expect(try AMS.EntityUpdate(decoding: update.encoded()).truncated)
        let short = AMS.EntityUpdate(entity: .track, attribute: 2, value: "Song", attMTU: 23)
        #expect(!short.truncated && short.value == "Song")
    }

    @Test("Malformed writes get Invalid Command; short or foreign notifications are refused")
    func malformed() {
        #expect(throws: AMS.ErrorCode.invalidCommand) { try AMS.EntityUpdateRegistration(decoding: []) }
        #expect(throws: AMS.ErrorCode.invalidCommand) { try AMS.EntityUpdateRegistration(decoding: hex("03")) }
        #expect(throws: AMS.ErrorCode.invalidCommand) { try AMS.EntityUpdateRegistration(decoding: hex("0003")) }
        #expect(throws: AMS.ErrorCode.invalidCommand) { try AMS.EntityAttributeRequest(decoding: hex("02")) }
        #expect(throws: AMS.ErrorCode.invalidCommand) { try AMS.EntityAttributeRequest(decoding: hex("0204")) }
        #expect((try? AMS.EntityAttributeRequest(decoding: hex("0202"))) == AMS.EntityAttributeRequest(entity: .track, attribute: 2))
        #expect(throws: WireError.self) { try AMS.EntityUpdate(decoding: hex("0001")) }
        #expect(throws: WireError.self) { try AMS.EntityUpdate(decoding: hex("050100")) }
        #expect(throws: WireError.self) { try AMS.EntityUpdate(decoding: hex("020200FFFFFFFF")) }
        for code in AMS.ErrorCode.allCases { #expect(code.attError == .unlisted(code.rawValue)) }
        #expect(AMS.RemoteCommandID.allCases.map(\.rawValue) == Array(0 ... 13))
    }
}
