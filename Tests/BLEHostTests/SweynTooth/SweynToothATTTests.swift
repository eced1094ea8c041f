import BLEHost
import BLEWire
import Testing

/// The ATT SweynTooth attacks (Garbelini et al., USENIX ATC 2020) against our ATT bearer
/// and GATT server, and the same peer as a server that never answers our client. What the
/// bearer refuses it counts (``ATTBearer/counters``); what the server refuses it answers
/// with the Error Response Core 5.4, Vol 3, Part F, §3.4.1.1 names.
@Suite("SweynTooth: ATT attacks against the bearer and the GATT server")
struct SweynToothATTTests {
    @Test("Sequential ATT Deadlock (CVE-2019-19192): a second request before our response is ignored and counted; requests flow after it")
    func sequentialRequests() throws {
        var bearer = ATTBearer()
        var server = try GATTFixture.server()
        let read = hex("0A 0300")
        #expect(bearer.receive(read, at: 0) == [.incomingRequest(read)])
        // §3.3.2: one request at a time per bearer. The attacker's second, sent in the same
        // connection event, breaks that rule: no second answer is owed, none is sent.
        #expect(bearer.receive(hex("0A 0500"), at: 1) == [])
        #expect(bearer.counters.protocolViolations == 1)
        let answer = server.answer("0A 0300")
        let response = try #require(answer)
        #expect(sentPDUs(bearer.sendResponse(response)) == [response])
        // The bearer is not stuck: the next request goes up and is answered.
        #expect(bearer.receive(hex("0A 0500"), at: 2) == [.incomingRequest(hex("0A 0500"))])
        #expect(server.answer("0A 0500") == hex("0B 0000"))
    }

    @Test("Sequential ATT Deadlock, our side as client: a server that never answers ends the bearer after the 30 s transaction timeout")
    func silentServer() throws {
        var bearer = ATTBearer()
        let (request, sent) = try bearer.sendRequest(hex("0A 0300"), at: 0)
        #expect(sentPDUs(sent) == [hex("0A 0300")])
        // A response to nothing we asked is ignored and counted (§3.4.1), not taken as ours.
        #expect(bearer.receive(hex("09 04 0300 0102"), at: 1_000) == [])
        #expect(bearer.counters.unmatchedResponsesIgnored == 1)
        #expect(bearer.tick(now: 29_999_999) == [])
        // §3.3.3: no response within 30 s fails the transaction and closes the bearer.
        #expect(bearer.tick(now: 30_000_000) == [.requestFailed(request, .timedOut), .closed(.timedOut)])
        #expect(throws: ATTBearerError.timedOut) { try bearer.sendRequest(hex("0A 0300"), at: 30_000_001) }
    }

    @Test("Truncated L2CAP (CVE-2019-17517): a Read Request cut to its opcode gets Invalid PDU, and the server answers the next")
    func truncatedReadRequest() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0A") == hex("01 0A 0000 04"))
        #expect(server.answer("0A 03") == hex("01 0A 0000 04"))
        #expect(server.answer("0A 0300") == hex("0B") + Array("SwiftBLE".utf8))
    }

    @Test("The authors' malformed Exchange MTU Requests (truncated, padded to 114 octets) get Invalid PDU from the bearer")
    func malformedExchangeMTU() {
        var bearer = ATTBearer()
        let invalidPDU = hex("01 02 0000 04")
        #expect(sentPDUs(bearer.receive(hex("02"), at: 0)) == [invalidPDU])
        #expect(sentPDUs(bearer.receive(hex("02 F700") + [UInt8](repeating: 0, count: 111), at: 1)) == [invalidPDU])
        // A well-formed one is still answered.
        #expect(sentPDUs(bearer.receive(hex("02 F700"), at: 2)).count == 1)
    }
}
