import BLEHost
import BLEWire

/// The `att-client` stateful fuzz target (docs/fuzzing.md): our ``GATTClient`` on its
/// ``ATTBearer`` facing a hostile server. The input starts procedures (discovery, reads,
/// Read Blob, writes, Write Without Response, prepared writes, subscriptions, MTU
/// exchange), makes the peer answer plausibly or send anything (responses with no request
/// outstanding, wrong opcodes, errors naming other requests, notifications, indications,
/// garbage), confirms indications by hand, lets time pass and disconnects. After each step:
///
/// - at most one request outstanding (Core 5.4, Vol 3, Part F, §3.3.2): no request goes
///   out while one waits for its response, and a running procedure always has one waiting;
/// - every procedure completes exactly once, with its result or a typed error;
/// - a response without an outstanding request, or with an opcode that does not answer it,
///   is dropped, not delivered;
/// - every indication the peer sent is confirmed exactly once (§3.4.7.2);
/// - the 30-second transaction timeout (§3.3.3) closes the bearer exactly when it is due;
/// - nothing pending after a disconnection or a timeout, and every later procedure fails at once;
/// - no PDU sent is longer than ATT_MTU (§3.2.8).
struct ATTClientFuzzDriver {
    static let timeout: HostTime = ATTBearerConfiguration.defaultTransactionTimeout

    var bearer: ATTBearer
    var client: GATTClient
    var now: HostTime = 0
    var step = 0
    /// Procedures started and not completed.
    var started: Set<GATTProcedureID> = []
    /// The request on the air and when it went out, from the PDUs sent and the responses delivered.
    var inFlight: (pdu: [UInt8], at: HostTime)?
    /// Indications accepted from the peer and not yet confirmed.
    var owedConfirmations = 0
    /// Why the bearer closed, as the driver saw it happen.
    var closed: ATTBearerError?
    /// Procedures that completed successfully: how deep the input reached.
    var succeeded = 0

    init(receiveMTU: Int, autoConfirm: Bool) {
        bearer = ATTBearer(configuration: ATTBearerConfiguration(receiveMTU: receiveMTU))
        client = GATTClient(configuration: GATTClientConfiguration(confirmsIndicationsAutomatically: autoConfirm))
    }

    /// Runs one input; throws the first broken invariant.
    /// - Returns: how many procedures completed successfully.
    @discardableResult
    static func run(_ octets: [UInt8]) throws(StatefulFuzzViolation) -> Int {
        var input = StatefulFuzzInput(octets)
        let settings = input.byte()
        var fuzz = ATTClientFuzzDriver(receiveMTU: 23 + Int(settings >> 1) * 4, autoConfirm: settings & 1 == 0)
        while !input.isAtEnd, fuzz.step < 512 {
            try fuzz.perform(&input)
            fuzz.step += 1
        }
        // The link ends: nothing may be left pending.
        try fuzz.deliver(fuzz.bearer.disconnected(), peer: nil, closing: .disconnected)
        return fuzz.succeeded
    }

    func fail(_ message: String) -> StatefulFuzzViolation {
        StatefulFuzzViolation(step: step, message: message)
    }

    /// Reads one operation from `input`, applies it and checks the invariants.
    mutating func perform(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        switch input.byte() % 16 {
        case 0 ... 3:  // the app starts a procedure
            let procedure = ATTClientFuzzDriver.procedure(&input)
            let (id, clientStep) = client.start(procedure, on: &bearer, at: now)
            started.insert(id)
            try check(clientStep, peer: nil)
        case 4 ... 7:  // the peer answers the request in flight plausibly
            try receive(ATTClientFuzzDriver.plausibleAnswer(to: inFlight?.pdu ?? [], &input))
        case 8:  // the peer sends any PDU of a kind a server sends, or anything
            let any = input.byte()
            let opcode: UInt8 = input.pick([0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21, 0x1B, 0x1D, 0x23, 0x1E, any])
            try receive([opcode] + input.chunk(limit: 40))
        case 9:  // a notification or an indication
            let isIndication = input.byte() & 1 == 1
            try receive([isIndication ? 0x1D : 0x1B] + littleEndian(UInt16(input.byte())) + input.chunk(limit: 30))
        case 10:  // the peer's client asks our server something; the host refuses it
            let opcode: UInt8 = input.pick([0x02, 0x0A, 0x12, 0x08])
            let request = [opcode] + input.chunk(limit: 6)
            let outputs = bearer.receive(request, at: now)
            var answered: [ATTBearerOutput] = []
            for output in outputs {
                if case .incomingRequest = output {
                    answered += bearer.sendResponse([0x01, request[0], 0x00, 0x00, 0x06])
                }
            }
            try deliver(outputs + answered, peer: nil, closing: nil)
        case 11:  // Write Without Response or Signed Write
            let value = input.chunk(limit: 520)
            let handle = UInt16(input.byte()) + 1
            // A Write Command has 3 octets of header, a signed one 15 (Part F, §3.4.5.3, §3.4.5.4).
            let signed = input.byte() & 1 == 1
            let outputs: [ATTBearerOutput]
            do throws(GATTClientError) {
                if signed {
                    outputs = try client.signedWrite(value, to: handle, csrk: 0x1234, signCounter: UInt32(step), on: &bearer)
                } else {
                    outputs = try client.writeWithoutResponse(value, to: handle, on: &bearer)
                }
            } catch {
                if case .valueTooLong = error, value.count + (signed ? 15 : 3) <= bearer.mtu {
                    throw fail("a \(value.count)-octet command refused at ATT_MTU \(bearer.mtu)")
                }
                outputs = []
            }
            try deliver(outputs, peer: nil, closing: nil)
        case 12:  // the app confirms an indication by hand
            try deliver(bearer.confirmIndication(), peer: nil, closing: nil)
        case 13:  // time passes, by up to 51 s
            now += HostTime(input.byte()) * 200_000
            let due = inFlight.map { now >= $0.at + ATTClientFuzzDriver.timeout } ?? false
            let outputs = bearer.tick(now: now)
            if due, closed == nil, outputs.isEmpty { throw fail("a request unanswered for 30 s did not time out") }
            if !due, closed == nil, !outputs.isEmpty { throw fail("the bearer timed out before 30 s: \(outputs)") }
            try deliver(outputs, peer: nil, closing: due ? .timedOut : nil)
        case 14:  // the link ends; a new one starts when the input says so
            try deliver(bearer.disconnected(), peer: nil, closing: .disconnected)
            if input.byte() & 1 == 1 {
                self = ATTClientFuzzDriver(receiveMTU: bearer.configuration.receiveMTU, autoConfirm: client.configuration.confirmsIndicationsAutomatically)
                    .continuing(from: self)
            }
        default:  // raw octets
            try receive(input.chunk(limit: 64))
        }
    }

    /// A fresh connection's driver keeping the step, time and depth of `previous`.
    func continuing(from previous: ATTClientFuzzDriver) -> ATTClientFuzzDriver {
        var next = self
        next.now = previous.now
        next.step = previous.step
        next.succeeded = previous.succeeded
        return next
    }

    /// A procedure from the input.
    static func procedure(_ input: inout StatefulFuzzInput) -> GATTProcedure {
        let start = UInt16(input.byte()) + 1
        let range = start ... UInt16(min(Int(start) + Int(input.byte()) * 4, 0xFFFF))
        let handle = UInt16(input.byte()) + 1
        let uuid = BluetoothUUID(UInt16(0x2A00) + UInt16(input.byte() % 8))
        switch input.byte() % 14 {
        case 0: return .exchangeMTU
        case 1: return .discoverAllPrimaryServices
        case 2: return .discoverPrimaryServices(uuid)
        case 3: return .findIncludedServices(in: range)
        case 4: return .discoverAllCharacteristics(in: range)
        case 5: return .discoverCharacteristics(uuid, in: range)
        case 6:
            let characteristic = GATTDiscoveredCharacteristic(uuid: uuid, declarationHandle: handle, valueHandle: handle &+ 1,
                                                              properties: [.read, .notify], endHandle: handle &+ UInt16(input.byte() % 8))
            return .discoverAllDescriptors(of: characteristic)
        case 7: return .read(handle)
        case 8: return .readLong(handle)
        case 9: return input.byte() & 1 == 0 ? .readMultiple([handle, handle &+ 1]) : .readMultipleVariable([handle, handle &+ 2])
        case 10: return .readUsingCharacteristicUUID(uuid, in: range)
        case 11: return .write(handle, input.chunk(limit: 80))
        case 12: return input.byte() & 1 == 0 ? .writeLong(handle, input.chunk(limit: 200))
            : .reliableWrite([GATTHandleValue(handle: handle, value: input.chunk(limit: 40)), GATTHandleValue(handle: handle &+ 2, value: input.chunk(limit: 40))])
        default: return .configure(input.byte() & 1 == 0 ? .notification : .indication, descriptor: handle)
        }
    }

    /// A server's answer to `request` built from the input: its response with plausible
    /// content, or an Error Response naming it.
    static func plausibleAnswer(to request: [UInt8], _ input: inout StatefulFuzzInput) -> [UInt8] {
        guard let opcode = request.first else { return [0x01, 0x0A, 0x01, 0x00, 0x0A] }
        let choice = input.byte()
        let startHandle = request.count >= 3 ? UInt16(request[1]) | UInt16(request[2]) << 8 : 1
        if choice % 5 == 4 { return [0x01, opcode] + littleEndian(startHandle) + [choice % 3 == 0 ? 0x0A : input.byte()] }
        let first = startHandle &+ UInt16(input.byte() % 4)
        let last = first &+ UInt16(input.byte() % 6)
        switch opcode {
        case 0x02: return [0x03] + littleEndian(UInt16(input.byte()) * 4)
        case 0x10: return [0x11, 6] + littleEndian(first) + littleEndian(last) + littleEndian(0x1800 + UInt16(input.byte() % 16))
        case 0x06: return [0x07] + littleEndian(first) + littleEndian(last)
        case 0x08:
            let type = request.count >= 7 ? UInt16(request[5]) | UInt16(request[6]) << 8 : 0
            if type == 0x2803 {
                return [0x09, 7] + littleEndian(first) + [input.byte()] + littleEndian(first &+ 1) + littleEndian(0x2A00 + UInt16(input.byte() % 8))
            }
            if type == 0x2802 { return [0x09, 8] + littleEndian(first) + littleEndian(last) + littleEndian(last &+ 3) + [0x0F, 0x18] }
            return [0x09, 4] + littleEndian(first) + [input.byte(), input.byte()]
        case 0x04: return [0x05, 0x01] + littleEndian(first) + littleEndian(input.byte() & 1 == 0 ? 0x2902 : 0x2901)
        case 0x0A, 0x0C, 0x0E: return [opcode + 1] + input.chunk(limit: 600)
        case 0x20:
            let value = input.chunk(limit: 40)
            return [0x21] + littleEndian(UInt16(value.count)) + value
        case 0x12, 0x18: return [opcode + 1]
        case 0x16:
            var echo: [UInt8] = [0x17] + request.dropFirst()
            if choice & 0x40 != 0, echo.count > 5 { echo[5] ^= 0xFF }  // a wrong echo now and then
            return echo
        default: return [opcode + 1] + input.chunk(limit: 20)
        }
    }

    /// The peer sends `pdu`: into the bearer, then the client.
    mutating func receive(_ pdu: [UInt8]) throws(StatefulFuzzViolation) {
        if pdu.first == 0x1D, !bearer.indicationAwaitingConfirmation, !bearer.isClosed { owedConfirmations += 1 }
        let outputs = bearer.receive(pdu, at: now)
        try deliver(outputs, peer: pdu, closing: nil)
    }

    /// Checks the bearer's `outputs` (for the peer's `pdu`, if any), hands them to the client
    /// and checks what comes out. `closing` is the close reason these outputs must carry.
    mutating func deliver(_ outputs: [ATTBearerOutput], peer pdu: [UInt8]?, closing: ATTBearerError?) throws(StatefulFuzzViolation) {
        var answered = false
        for output in outputs {
            switch output {
            case let .response(_, response):
                guard let request = inFlight?.pdu, let peer = pdu else { throw fail("a response was delivered with no request outstanding: \(response)") }
                let answers = peer.first == request[0] &+ 1 || (peer.first == 0x01 && peer.count >= 2 && peer[1] == request[0])
                if !answers { throw fail("PDU \(peer.prefix(4)) was delivered as the answer to request 0x\(String(request[0], radix: 16))") }
                answered = true
            case .requestFailed:
                if inFlight == nil, closing == nil { throw fail("a request failed with none outstanding") }
                answered = true
            case let .closed(reason):
                guard let closing, reason == closing else { throw fail("the bearer closed for \(reason), expected \(String(describing: closing))") }
                closed = reason
                owedConfirmations = 0
            default:
                break
            }
        }
        if answered { inFlight = nil }
        try check(client.handle(outputs, on: &bearer, at: now), peer: pdu)
    }

    /// Checks one step of the client: what it sends, what it completes, and its state after.
    mutating func check(_ clientStep: GATTClientStep, peer pdu: [UInt8]?) throws(StatefulFuzzViolation) {
        for output in clientStep.outputs {
            switch output {
            case let .send(sent):
                if sent.count > bearer.mtu { throw fail("a \(sent.count)-octet PDU sent at ATT_MTU \(bearer.mtu)") }
                guard let opcode = sent.first else { throw fail("an empty PDU was sent") }
                if closed != nil { throw fail("PDU \(sent.prefix(4)) sent after the bearer closed") }
                if opcode == 0x1E {
                    owedConfirmations -= 1
                    if owedConfirmations < 0 { throw fail("a confirmation was sent for no indication") }
                } else if [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20].contains(opcode) {
                    if let previous = inFlight { throw fail("request 0x\(String(opcode, radix: 16)) sent while 0x\(String(previous.pdu[0], radix: 16)) is outstanding") }
                    inFlight = (sent, now)
                }
                // Read Long asks for no octet past 512, the longest attribute value (Part F, §3.2.9).
                if opcode == 0x0C, sent.count >= 5, Int(sent[3]) | Int(sent[4]) << 8 >= 512 {
                    throw fail("a Read Blob Request at offset \(Int(sent[3]) | Int(sent[4]) << 8), past the 512 octets an attribute holds")
                }
            case .response, .requestFailed:
                throw fail("the client left the answer to its own request to the host: \(output)")
            default:
                break
            }
        }
        for event in clientStep.events {
            guard case let .completed(id, result) = event else { continue }
            if started.remove(id) == nil { throw fail("\(id) completed twice or was never started") }
            switch result {
            case .success: succeeded += 1
            case .failure(.timedOut) where closed != .timedOut, .failure(.disconnected) where closed != .disconnected:
                throw fail("\(id) failed with \(result) on a bearer that did not close so")
            case .failure:
                break
            }
        }
        try checkState()
    }

    /// The invariants of the state between steps.
    func checkState() throws(StatefulFuzzViolation) {
        if bearer.hasOutstandingRequest != (inFlight != nil) {
            throw fail("the bearer's outstanding request (\(bearer.hasOutstandingRequest)) disagrees with the PDUs sent and answered")
        }
        if bearer.isClosed {
            if !started.isEmpty || client.isBusy || client.queuedProcedureCount != 0 { throw fail("procedures \(started) pending after the bearer closed") }
            if bearer.hasOutstandingRequest || bearer.queuedRequestCount != 0 || bearer.nextDeadline != nil { throw fail("requests pending after the bearer closed") }
            return
        }
        // A running procedure is never stuck: its request is on the air.
        if client.isBusy, !bearer.hasOutstandingRequest { throw fail("a procedure runs with no request outstanding") }
        if !client.isBusy, client.queuedProcedureCount != 0 { throw fail("procedures queued while none runs") }
        if started.count != (client.isBusy ? 1 : 0) + client.queuedProcedureCount {
            throw fail("\(started.count) procedures started and not completed, the client holds \(client.queuedProcedureCount) and busy \(client.isBusy)")
        }
        if bearer.mtu < ATTBearerConfiguration.defaultMTU || bearer.mtu > bearer.configuration.receiveMTU { throw fail("ATT_MTU \(bearer.mtu) out of range") }
        if owedConfirmations > (client.configuration.confirmsIndicationsAutomatically ? 0 : 1) || (owedConfirmations == 1) != bearer.indicationAwaitingConfirmation {
            throw fail("\(owedConfirmations) indications unconfirmed, bearer awaiting: \(bearer.indicationAwaitingConfirmation)")
        }
    }
}
