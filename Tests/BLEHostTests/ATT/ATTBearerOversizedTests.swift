import BLEHost
import BLEWire
import Testing

/// PDUs from the peer longer than ATT_MTU (Core 5.4, Vol 3, Part F, §3.2.8), which a server may
/// not send: refused, counted, and never holding up a transaction.
@Suite("ATT bearer: PDUs longer than ATT_MTU from the peer")
struct ATTBearerOversizedTests {
    /// `count` octets after `opcode`.
    private static func filled(_ opcode: UInt8, _ count: Int) -> [UInt8] { [opcode] + Array(repeating: 0x5A, count: count) }

    @Test("A 24-octet Read Response at ATT_MTU 23 fails the Read with pduTooLong and the next request goes out; 23 octets are taken")
    func overlongResponse() throws {
        var bearer = ATTBearer()
        let read = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        let next = try bearer.sendRequest(pdu("0A 05 00"), at: 0)
        #expect(bearer.receive(Self.filled(0x0B, 23), at: 1) == [.requestFailed(read.id, .pduTooLong(length: 24, mtu: 23)), .send(pdu("0A 05 00"))])
        #expect(bearer.counters.oversizedPDUsReceived == 1)
        #expect(bearer.receive(Self.filled(0x0B, 22), at: 2) == [.response(next.id, .readResponse(ATT.ReadResponse(attributeValue: Array(repeating: 0x5A, count: 22)[...])))])
    }

    @Test("An overlong response or Error Response that answers nothing outstanding is ignored and counted")
    func overlongUnmatched() throws {
        var bearer = ATTBearer()
        #expect(bearer.receive(Self.filled(0x0B, 40), at: 0).isEmpty)
        _ = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        #expect(bearer.receive([0x01, 0x12] + Array(repeating: 0, count: 30), at: 0).isEmpty, "an Error Response for a Write Request")
        #expect(bearer.counters.oversizedPDUsReceived == 2 && bearer.counters.unmatchedResponsesIgnored == 2)
        #expect(bearer.hasOutstandingRequest)
    }

    @Test("An overlong notification is dropped; an overlong indication is dropped and confirmed at once")
    func overlongNotificationAndIndication() {
        var bearer = ATTBearer()
        #expect(bearer.receive(Self.filled(0x1B, 30), at: 0).isEmpty)
        #expect(bearer.receive(Self.filled(0x23, 30), at: 0).isEmpty)
        #expect(bearer.receive(Self.filled(0x1D, 30), at: 0) == [.send([0x1E])])
        #expect(!bearer.indicationAwaitingConfirmation)
        #expect(bearer.counters.oversizedPDUsReceived == 3)
        // After an MTU exchange the same 31 octets fit.
        var large = ATTBearer()
        _ = try? large.sendRequest(pdu("02 00 02"), at: 0)
        _ = large.receive(pdu("03 00 01"), at: 0)
        #expect(large.mtu == 256)
        #expect(large.receive([0x1B, 0x21, 0x00] + Array(repeating: 1, count: 28), at: 0).count == 1)
        #expect(large.counters.oversizedPDUsReceived == 0)
    }
}
