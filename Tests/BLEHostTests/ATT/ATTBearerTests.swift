import BLEHost
import BLEWire
import Testing

/// The ATT bearer's transaction rules (Core 5.4, Vol 3, Part F, §3.3): one request and
/// one indication outstanding each way, matched answers, the MTU exchange and the PDU sorting.
@Suite("ATT bearer: transactions, MTU and sorting")
struct ATTBearerTests {
    @Test("A second request waits until the first is answered, then goes out in order")
    func requestsQueue() throws {
        var bearer = ATTBearer()
        let first = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        let second = try bearer.sendRequest(pdu("0A 05 00"), at: 10)
        #expect(sentPDUs(first.outputs) == [pdu("0A 03 00")])
        #expect(second.outputs.isEmpty)
        #expect(bearer.hasOutstandingRequest && bearer.queuedRequestCount == 1)
        let answered = bearer.receive(pdu("0B 11 22"), at: 20)
        #expect(answered == [.response(first.id, .readResponse(ATT.ReadResponse(attributeValue: [0x11, 0x22]))), .send(pdu("0A 05 00"))])
        #expect(bearer.nextDeadline == HostTime(30_000_020))
        let last = bearer.receive(pdu("0B"), at: 30)
        #expect(last == [.response(second.id, .readResponse(ATT.ReadResponse(attributeValue: [])))])
        #expect(bearer.nextDeadline == nil)
    }

    @Test("An Error Response answers the request it names; one naming another opcode is ignored and counted")
    func errorResponseMatching() throws {
        var bearer = ATTBearer()
        let read = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        // Error Response for a Write Request (0x12): not ours.
        #expect(bearer.receive(pdu("01 12 03 00 03"), at: 1).isEmpty)
        #expect(bearer.counters.unmatchedResponsesIgnored == 1)
        let error = ATT.ErrorResponse(requestOpcodeInError: .readRequest, attributeHandleInError: 3, errorCode: .readNotPermitted)
        #expect(bearer.receive(pdu("01 0A 03 00 02"), at: 2) == [.response(read.id, .errorResponse(error))])
        #expect(!bearer.hasOutstandingRequest)
    }

    @Test("A response that matches nothing outstanding is ignored and counted")
    func unmatchedResponse() throws {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("0B 01 02"), at: 0).isEmpty)
        _ = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        // A Write Response while a Read waits.
        #expect(bearer.receive(pdu("13"), at: 0).isEmpty)
        #expect(bearer.counters.unmatchedResponsesIgnored == 2)
        #expect(bearer.hasOutstandingRequest)
    }

    @Test("A malformed response with the right opcode fails the request with a typed error and the next one goes out")
    func malformedResponse() throws {
        var bearer = ATTBearer()
        let mtu = try bearer.sendRequest(pdu("02 05 02"), at: 0)
        let read = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        let outputs = bearer.receive(pdu("03 17"), at: 5)
        #expect(outputs.count == 2)
        guard case let .requestFailed(id, .malformedResponse(error)) = outputs.first else {
            Issue.record("expected a malformed-response failure, got \(outputs)")
            return
        }
        #expect(id == mtu.id && error.field == "ATT.ExchangeMTUResponse.serverRxMTU")
        #expect(outputs.last == .send(pdu("0A 03 00")))
        #expect(bearer.mtu == 23)
        // A truncated Error Response for the outstanding Read fails it too.
        let failed = bearer.receive(pdu("01 0A 03"), at: 6)
        guard case let .requestFailed(readID, .malformedResponse) = failed.first else {
            Issue.record("expected a malformed-response failure, got \(failed)")
            return
        }
        #expect(readID == read.id)
    }

    @Test("Client MTU exchange: the smaller MTU applies once the response arrives, and only one exchange is allowed")
    func clientMTUExchange() throws {
        var bearer = ATTBearer(configuration: ATTBearerConfiguration(receiveMTU: 247))
        let exchange = try bearer.exchangeMTU(at: 0)
        #expect(sentPDUs(exchange.outputs) == [pdu("02 F7 00")])
        #expect(bearer.mtu == 23)
        let outputs = bearer.receive(pdu("03 05 02"), at: 1)
        #expect(outputs == [.mtuChanged(247), .response(exchange.id, .exchangeMTUResponse(ATT.ExchangeMTUResponse(serverRxMTU: 517)))])
        #expect(bearer.mtu == 247)
        #expect(throws: ATTBearerError.mtuAlreadyExchanged) { try bearer.exchangeMTU(at: 2) }
    }

    @Test("A server Rx MTU below 23 leaves ATT_MTU at 23")
    func tinyServerMTU() throws {
        var bearer = ATTBearer()
        _ = try bearer.exchangeMTU(at: 0)
        _ = bearer.receive(pdu("03 10 00"), at: 1)
        #expect(bearer.mtu == 23)
    }

    @Test("The peer's Exchange MTU Request is answered by the bearer and ATT_MTU becomes the smaller MTU")
    func serverMTUExchange() {
        var bearer = ATTBearer(configuration: ATTBearerConfiguration(receiveMTU: 517))
        #expect(bearer.receive(pdu("02 9E 00"), at: 0) == [.send(pdu("03 05 02")), .mtuChanged(158)])
        #expect(bearer.mtu == 158)
        #expect(!bearer.isAwaitingLocalResponse)
        // A malformed one gets Invalid PDU.
        #expect(bearer.receive(pdu("02 9E"), at: 1) == [.send(pdu("01 02 00 00 04"))])
    }

    @Test("Peer requests go up undecoded one at a time; a second before our response is ignored")
    func incomingRequests() {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("0A 01"), at: 0) == [.incomingRequest(pdu("0A 01"))])
        #expect(bearer.receive(pdu("0A 02 00"), at: 0).isEmpty)
        #expect(bearer.counters.protocolViolations == 1)
        #expect(bearer.sendResponse(pdu("01 0A 00 00 04")) == [.send(pdu("01 0A 00 00 04"))])
        #expect(bearer.sendResponse(pdu("0B")).isEmpty)
        // An opcode nobody knows, without the command flag, is a request for the server
        // to answer with Request Not Supported.
        #expect(bearer.receive(pdu("3F 00"), at: 0) == [.incomingRequest(pdu("3F 00"))])
    }

    @Test("Write Commands go up; unknown commands are ignored as §3.3.1 says")
    func incomingCommands() {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("52 03 00 AA"), at: 0) == [.incomingCommand(pdu("52 03 00 AA"))])
        #expect(bearer.receive(pdu("7F 01"), at: 0).isEmpty)
        #expect(bearer.counters.unknownCommandsIgnored == 1)
    }

    @Test("An indication from the peer is confirmed exactly once; another before the confirmation is ignored")
    func indicationConfirmedOnce() {
        var bearer = ATTBearer()
        let indication = ATT.HandleValueIndication(attributeHandle: 0x0010, attributeValue: [0x01])
        #expect(bearer.receive(pdu("1D 10 00 01"), at: 0) == [.indication(indication)])
        #expect(bearer.receive(pdu("1D 10 00 02"), at: 0).isEmpty)
        #expect(bearer.counters.protocolViolations == 1)
        #expect(bearer.confirmIndication() == [.send([0x1E])])
        #expect(bearer.confirmIndication().isEmpty)
        // A malformed indication is confirmed at once so the peer's transaction ends.
        #expect(bearer.receive(pdu("1D 10"), at: 0) == [.send([0x1E])])
        #expect(bearer.confirmIndication().isEmpty)
    }

    @Test("Our indications go out one at a time; each confirmation releases the next")
    func outgoingIndications() throws {
        var bearer = ATTBearer()
        let first = try bearer.sendIndication(pdu("1D 03 00 01"), at: 0)
        let second = try bearer.sendIndication(pdu("1D 03 00 02"), at: 0)
        #expect(sentPDUs(first.outputs) == [pdu("1D 03 00 01")] && second.outputs.isEmpty)
        #expect(bearer.queuedIndicationCount == 1)
        #expect(bearer.receive([0x1E], at: 7) == [.indicationConfirmed(first.id), .send(pdu("1D 03 00 02"))])
        #expect(bearer.receive([0x1E], at: 8) == [.indicationConfirmed(second.id)])
        #expect(bearer.receive([0x1E], at: 9).isEmpty)
        #expect(bearer.counters.unmatchedResponsesIgnored == 1)
    }

    @Test("After 30 s without an answer the bearer closes, fails everything pending and queued, and sends nothing more")
    func transactionTimeout() throws {
        var bearer = ATTBearer()
        let read = try bearer.sendRequest(pdu("0A 03 00"), at: 1_000)
        let queued = try bearer.sendRequest(pdu("0A 04 00"), at: 2_000)
        let indication = try bearer.sendIndication(pdu("1D 03 00 01"), at: 5_000)
        let waiting = try bearer.sendIndication(pdu("1D 03 00 02"), at: 5_000)
        #expect(bearer.nextDeadline == HostTime(30_001_000))
        #expect(bearer.tick(now: 30_000_999).isEmpty)
        let outputs = bearer.tick(now: 30_001_000)
        #expect(outputs == [.requestFailed(read.id, .timedOut), .requestFailed(queued.id, .timedOut),
                            .indicationFailed(indication.id, .timedOut), .indicationFailed(waiting.id, .timedOut), .closed(.timedOut)])
        #expect(bearer.isClosed && bearer.nextDeadline == nil)
        // A late response is ignored; nothing more may be sent.
        #expect(bearer.receive(pdu("0B 01"), at: 30_002_000).isEmpty)
        #expect(bearer.counters.pdusIgnoredAfterClose == 1)
        #expect(throws: ATTBearerError.timedOut) { try bearer.sendRequest(pdu("0A 03 00"), at: 30_003_000) }
        #expect(throws: ATTBearerError.timedOut) { try bearer.sendNotification(pdu("1B 03 00 01")) }
        #expect(bearer.confirmIndication().isEmpty && bearer.disconnected().isEmpty)
    }

    @Test("An unconfirmed indication times out too")
    func indicationTimeout() throws {
        var bearer = ATTBearer(configuration: ATTBearerConfiguration(transactionTimeout: 1_000))
        let indication = try bearer.sendIndication(pdu("1D 03 00 01"), at: 0)
        #expect(bearer.tick(now: 1_000) == [.indicationFailed(indication.id, .timedOut), .closed(.timedOut)])
    }

    @Test("Disconnection fails everything with disconnected")
    func disconnection() throws {
        var bearer = ATTBearer()
        let read = try bearer.sendRequest(pdu("0A 03 00"), at: 0)
        #expect(bearer.disconnected() == [.requestFailed(read.id, .disconnected), .closed(.disconnected)])
        #expect(throws: ATTBearerError.disconnected) { try bearer.sendCommand(pdu("52 03 00 01")) }
    }

    @Test("PDUs longer than ATT_MTU and PDUs of the wrong kind are refused")
    func sizeAndKindChecks() {
        var bearer = ATTBearer()
        let long = [0x1B, 0x03, 0x00] + [UInt8](repeating: 0xAB, count: 21)
        #expect(throws: ATTBearerError.pduTooLong(length: 24, mtu: 23)) { try bearer.sendNotification(long) }
        #expect(throws: ATTBearerError.wrongKindOfPDU(0x0B)) { try bearer.sendRequest(pdu("0B 00"), at: 0) }
        #expect(throws: ATTBearerError.wrongKindOfPDU(0x12)) { try bearer.sendCommand(pdu("12 03 00 01")) }
        #expect(throws: ATTBearerError.wrongKindOfPDU(0)) { try bearer.sendIndication([], at: 0) }
    }

    @Test("Notifications go up decoded; malformed ones are dropped and counted")
    func notifications() throws {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("1B 21 00 0A 0B"), at: 0)
            == [.notification(ATT.HandleValueNotification(attributeHandle: 0x21, attributeValue: [0x0A, 0x0B]))])
        #expect(bearer.receive(pdu("1B 21"), at: 0).isEmpty)
        #expect(bearer.receive([], at: 0).isEmpty)
        #expect(bearer.counters.malformedPDUsReceived == 2)
        let multiple = bearer.receive(pdu("23 01 00 01 00 AA 02 00 02 00 BB CC"), at: 0)
        guard case let .multipleNotification(notification) = multiple.first else {
            Issue.record("expected a multiple notification, got \(multiple)")
            return
        }
        #expect(notification.handleLengthValueTuples.map(\.attributeHandle) == [1, 2])
        #expect(try bearer.sendNotification(pdu("1B 03 00 01")) == [.send(pdu("1B 03 00 01"))])
    }
}

/// Two bearers wired back to back, as the two ends of one connection.
@Suite("ATT bearer: two ends of one connection")
struct ATTBearerPairTests {
    @Test("An MTU exchange between two bearers leaves both at the smaller receive MTU")
    func mtuExchangeBetweenBearers() throws {
        var client = ATTBearer(configuration: ATTBearerConfiguration(receiveMTU: 517))
        var server = ATTBearer(configuration: ATTBearerConfiguration(receiveMTU: 185))
        let request = try client.exchangeMTU(at: 0)
        var toServer = sentPDUs(request.outputs)
        var answered: [ATTBearerOutput] = []
        while !toServer.isEmpty {
            let toClient = toServer.flatMap { sentPDUs(server.receive($0, at: 0)) }
            toServer = []
            for bytes in toClient { answered += client.receive(bytes, at: 0) }
        }
        #expect(client.mtu == 185 && server.mtu == 185)
        #expect(answered.first == .mtuChanged(185))
    }

    @Test("Indications between two bearers: one at a time, each confirmed once, all delivered in order")
    func indicationsBetweenBearers() throws {
        var server = ATTBearer()
        var client = ATTBearer()
        var wire: [[UInt8]] = []
        for index in 0 ..< 100 {
            wire += sentPDUs(try server.sendIndication([0x1D, 0x03, 0x00, UInt8(index)], at: 0).outputs)
        }
        var delivered: [UInt8] = []
        var confirmed = 0
        while let bytes = wire.first {
            wire.removeFirst()
            for output in client.receive(bytes, at: 0) {
                guard case let .indication(indication) = output else { continue }
                delivered += indication.attributeValue
                for confirmation in sentPDUs(client.confirmIndication()) {
                    for reply in server.receive(confirmation, at: 0) {
                        if case .indicationConfirmed = reply { confirmed += 1 }
                        if case let .send(next) = reply { wire.append(next) }
                    }
                }
            }
        }
        #expect(delivered == (0 ..< 100).map { UInt8($0) })
        #expect(confirmed == 100 && !server.hasOutstandingIndication)
        #expect(client.counters.protocolViolations == 0)
    }
}
