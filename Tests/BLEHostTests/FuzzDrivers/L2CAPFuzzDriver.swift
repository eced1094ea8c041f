import BLEHost
import BLEWire

/// The `l2cap` stateful fuzz target (docs/fuzzing.md): a peer's B-frames (signaling
/// commands, K-frames on dynamic CIDs, raw frames) and the host's requests (listen,
/// connect, send, disconnect, consume, parameter updates, timers, the link ending), in
/// the order the input says, against one ``L2CAPLink`` in either role. After each step:
///
/// - one response per request (Core 5.4, Vol 3, Part A, §4): a signaling request is
///   answered at most once with its identifier, and a response or a Command Reject is
///   never answered; this device's own requests never use identifier 0;
/// - credits never negative and never past 65 535 (§10.1): no K-frame goes out without a
///   credit, and the peer is never granted more than the credits announced;
/// - buffers bounded: no SDU delivered is longer than the local MTU, no K-frame sent is
///   longer than the peer's MPS (§3.4.3);
/// - every channel opens once and closes once, and after the ACL link ends no channel,
///   request or timer is left.
struct L2CAPFuzzDriver {
    /// The connection handle of the link under test.
    static let handle: UInt16 = 0x0001

    var link: L2CAPLink
    let configuration: L2CAPConfiguration
    var now: HostTime = 0
    var step = 0
    /// Channels the host asked for and that have not ended.
    var connecting: Set<L2CAPChannelID> = []
    /// Open channels and the credits each announced to the peer.
    var open: [L2CAPChannelID: Int] = [:]
    /// Identifiers of Connection Parameter Update Requests handed to the host (central).
    var parameterRequests: [UInt8] = []

    init(role: L2CAPRole, configuration: L2CAPConfiguration) {
        self.configuration = configuration
        link = L2CAPLink(handle: L2CAPFuzzDriver.handle, role: role, configuration: configuration)
    }

    /// Channels opened so far: how deep the input reached.
    var channelsOpened = 0

    /// Runs one input; throws the first broken invariant.
    /// - Returns: how many channels opened.
    @discardableResult
    static func run(_ octets: [UInt8]) throws(StatefulFuzzViolation) -> Int {
        var input = StatefulFuzzInput(octets)
        let setup = input.byte()
        let hold = Int(setup >> 1) % 4
        let configuration = L2CAPConfiguration(signalingTimeout: 1_000_000, signalingMTU: 23 + UInt16(setup >> 3),
                                               receiveHoldLimit: hold == 0 ? nil : hold)
        var driver = L2CAPFuzzDriver(role: setup & 1 == 0 ? .central : .peripheral, configuration: configuration)
        while !input.isAtEnd, driver.step < 512 {
            try driver.perform(&input)
            driver.step += 1
        }
        return driver.channelsOpened
    }

    func fail(_ message: String) -> StatefulFuzzViolation {
        StatefulFuzzViolation(step: step, message: message)
    }

    /// A CID the input names: mostly the LE dynamic range, sometimes any value.
    static func cid(_ input: inout StatefulFuzzInput) -> UInt16 {
        let choice = input.byte()
        return choice < 0xC0 ? 0x0040 + UInt16(choice & 0x3F) : input.uint16()
    }

    /// The code and identifier of a signaling command in a B-frame to CID 0x0005, if it is one.
    static func signalingCommand(in frame: [UInt8]) -> (code: UInt8, identifier: UInt8)? {
        guard frame.count >= 6, frame[2] == 0x05, frame[3] == 0x00 else { return nil }
        return (frame[4], frame[5])
    }

    /// A channel the host knows, or a made-up one.
    func knownChannel(_ choice: UInt8) -> L2CAPChannelID {
        let known = (Array(open.keys) + Array(connecting)).sorted()
        guard !known.isEmpty else { return L2CAPChannelID(handle: L2CAPFuzzDriver.handle, localCID: .init(rawValue: 0x0040 + UInt16(choice & 0x3F))) }
        return known[Int(choice) % known.count]
    }

    /// Reads one operation from `input`, applies it and checks the invariants.
    mutating func perform(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        let operation = input.byte() % 16
        let before = creditsByRemote()
        var credited: [UInt16: Int] = [:]  // credits the peer grants this step, by its CID
        var request: (code: UInt8, identifier: UInt8)?
        let outputs: [L2CAPOutput]
        switch operation {
        case 0 ... 3:
            let code = input.pick([0x01, 0x06, 0x07, 0x12, 0x13, 0x14, 0x15, 0x16, input.byte()] as [UInt8])
            let identifier = input.byte() | (input.byte() == 0 ? 0 : 1)
            var data: [UInt8] = []
            switch code {
            case 0x06, 0x07: data = littleEndian(L2CAPFuzzDriver.cid(&input)) + littleEndian(L2CAPFuzzDriver.cid(&input))
            case 0x14: data = littleEndian(input.uint16()) + littleEndian(L2CAPFuzzDriver.cid(&input)) + littleEndian(input.uint16()) + littleEndian(input.uint16()) + littleEndian(input.uint16())
            case 0x15: data = littleEndian(L2CAPFuzzDriver.cid(&input)) + littleEndian(input.uint16()) + littleEndian(input.uint16()) + littleEndian(input.uint16()) + littleEndian(input.uint16())
            case 0x16:
                let cid = L2CAPFuzzDriver.cid(&input)
                let credits = input.uint16()
                credited[cid, default: 0] += Int(credits)
                data = littleEndian(cid) + littleEndian(credits)
            default: data = input.chunk(limit: 40)
            }
            request = (code, identifier)
            outputs = link.receive(frame: fuzzBFrame(0x0005, [code, identifier] + littleEndian(UInt16(data.count)) + data), at: now)
        case 4, 5:
            let cid = L2CAPFuzzDriver.cid(&input)
            let payload = input.chunk()
            let frame = input.byte() & 1 == 0 ? littleEndian(UInt16(payload.count)) + payload : payload  // a whole SDU, or a bare segment
            request = L2CAPFuzzDriver.signalingCommand(in: fuzzBFrame(cid, frame))
            outputs = link.receive(frame: fuzzBFrame(cid, frame), at: now)
        case 6:
            let frame = input.chunk()
            request = L2CAPFuzzDriver.signalingCommand(in: frame)
            outputs = link.receive(frame: frame, at: now)
        case 7:
            link.listen(psm: UInt16(input.byte()), mtu: input.uint16(), mps: input.uint16(), initialCredits: UInt16(input.byte()))
            outputs = []
        case 8:
            let (id, sent) = link.connect(psm: UInt16(input.byte()), mtu: input.uint16(), mps: input.uint16(),
                                          initialCredits: UInt16(input.byte()), at: now)
            if id.localCID != .null { connecting.insert(id) }
            outputs = sent
        case 9:
            let channel = knownChannel(input.byte())
            let count = Int(input.uint16() % 2048)
            outputs = link.send(sdu: (0 ..< count).map { UInt8(truncatingIfNeeded: $0) }, on: channel, at: now)
        case 10:
            outputs = link.disconnect(knownChannel(input.byte()), at: now)
        case 11:
            outputs = link.sduConsumed(on: knownChannel(input.byte()))
        case 12:
            now += HostTime(input.byte()) * 50_000
            outputs = link.timerFired(at: now)
        case 13:
            if parameterRequests.isEmpty {
                outputs = link.requestConnectionParameterUpdate(intervalMin: input.uint16(), intervalMax: input.uint16(),
                                                                latency: input.uint16(), timeout: input.uint16(), at: now)
            } else {
                let identifier = parameterRequests.removeFirst()
                let answer = link.answerConnectionParameterUpdate(identifier: identifier, accept: input.byte() & 1 == 1)
                if fuzzSentFrames(answer).count != 1 { throw fail("the host's answer to update request \(identifier) sent \(answer)") }
                return
            }
        case 14:  // the host answers an identifier of its choosing: only a waiting request gets a response
            let identifier = input.byte()
            let waiting = parameterRequests.firstIndex(of: identifier)
            outputs = link.answerConnectionParameterUpdate(identifier: identifier, accept: true)
            try checkFrames(outputs, credited: credited, before: before)
            if fuzzSentFrames(outputs).count != (waiting == nil ? 0 : 1) {
                throw fail("the answer to parameter update identifier \(identifier) (waiting: \(waiting != nil)) sent \(outputs)")
            }
            if let waiting { parameterRequests.remove(at: waiting) }
            return
        default:
            try endLink()
            return
        }
        try checkFrames(outputs, credited: credited, before: before)
        try checkEvents(outputs)
        try checkSignalingAnswers(outputs, to: request, exact: operation <= 3)
        try checkChannels()
    }

    /// Credit and size rules on every frame sent.
    func checkFrames(_ outputs: [L2CAPOutput], credited: [UInt16: Int], before: [UInt16: Int]) throws(StatefulFuzzViolation) {
        var kFrames: [UInt16: Int] = [:]
        for frame in fuzzSentFrames(outputs) {
            guard frame.count >= 4, Int(frame[0]) | Int(frame[1]) << 8 == frame.count - 4 else {
                throw fail("a frame sent has a wrong length field: \(frame)")
            }
            let cid = UInt16(frame[2]) | UInt16(frame[3]) << 8
            if cid == 0x0005 {
                if frame.count < 6 || frame[5] == 0 { throw fail("a signaling command was sent with identifier 0: \(frame)") }
                continue
            }
            kFrames[cid, default: 0] += 1
            if let status = link.status(forRemote: cid, among: Array(open.keys) + Array(connecting)),
               frame.count - 4 > Int(status.peerMPS) {
                throw fail("a \(frame.count - 4)-octet K-frame exceeds the peer's MPS \(status.peerMPS)")
            }
        }
        for (cid, count) in kFrames where count > before[cid, default: 0] + credited[cid, default: 0] {
            throw fail("\(count) K-frames went to CID \(cid) with \(before[cid, default: 0]) credits held and \(credited[cid, default: 0]) granted")
        }
    }

    /// Channels open, refuse and close once each; SDUs fit the local MTU.
    mutating func checkEvents(_ outputs: [L2CAPOutput]) throws(StatefulFuzzViolation) {
        for output in outputs {
            switch output {
            case let .channelOpened(id, _, _):
                if open[id] != nil { throw fail("channel \(id) opened twice") }
                connecting.remove(id)
                channelsOpened += 1
                open[id] = link.channelStatus(id)?.receiveCredits ?? 0
            case let .channelRefused(id, _):
                if id.localCID != .null, connecting.remove(id) == nil { throw fail("channel \(id) was refused but was not connecting") }
            case let .channelClosed(id, _):
                if open.removeValue(forKey: id) == nil, connecting.remove(id) == nil { throw fail("channel \(id) closed twice or was never open") }
            case let .sdu(sdu, channel):
                guard open[channel] != nil, let status = link.channelStatus(channel) else { throw fail("an SDU arrived on \(channel), which is not open") }
                if sdu.count > Int(status.localMTU) { throw fail("a \(sdu.count)-octet SDU exceeds the local MTU \(status.localMTU)") }
            case let .connectionParameterUpdateRequested(_, _, _, _, identifier):
                if link.role != .central { throw fail("a peripheral was asked to apply parameters") }
                if !parameterRequests.contains(identifier) { parameterRequests.append(identifier) }
            default:
                break
            }
        }
    }

    /// A peer's signaling command is answered at most once, requests exactly once, and a
    /// response or Command Reject never (§4, §4.1).
    /// `exact`: the command was framed by the driver, so it reached the signaling channel whole.
    func checkSignalingAnswers(_ outputs: [L2CAPOutput], to request: (code: UInt8, identifier: UInt8)?, exact: Bool) throws(StatefulFuzzViolation) {
        let answerCodes: Set<UInt8> = [0x01, 0x07, 0x13, 0x15]
        let answers = fuzzSentFrames(outputs).filter { $0.count >= 6 && $0[2] == 0x05 && $0[3] == 0x00 && answerCodes.contains($0[4]) }
        guard let request else {
            if !answers.isEmpty { throw fail("signaling answers without a request: \(answers)") }
            return
        }
        if answers.contains(where: { $0[5] != request.identifier }) { throw fail("an answer carries another identifier: \(answers)") }
        if answers.count > 1 { throw fail("command \(hexByte(request.code)) was answered \(answers.count) times") }
        if request.identifier == 0 || request.code == 0x01, !answers.isEmpty {
            throw fail("command \(hexByte(request.code)) with identifier \(request.identifier) was answered: \(answers)")
        }
        if exact, request.code == 0x14, request.identifier != 0, answers.count != 1 {
            throw fail("LE Credit Based Connection Request \(request.identifier) got \(answers.count) answers")
        }
    }

    /// Credits are never negative nor past their bounds, for every channel the host knows.
    func checkChannels() throws(StatefulFuzzViolation) {
        for (id, announced) in open {
            guard let status = link.channelStatus(id) else { throw fail("open channel \(id) has no state") }
            if status.sendCredits < 0 || status.sendCredits > Int(UInt16.max) { throw fail("send credits \(status.sendCredits) on \(id)") }
            if status.receiveCredits < 0 { throw fail("receive credits \(status.receiveCredits) on \(id)") }
            if announced > 0, status.receiveCredits > max(announced, 1) { throw fail("the peer holds \(status.receiveCredits) credits on \(id), more than the \(announced) announced") }
        }
    }

    /// The ACL link ends: every channel closes once and nothing is left.
    mutating func endLink() throws(StatefulFuzzViolation) {
        let outputs = link.linkDisconnected()
        try checkEvents(outputs)
        if !fuzzSentFrames(outputs).isEmpty { throw fail("frames were sent on a disconnected link") }
        if !open.isEmpty || !connecting.isEmpty { throw fail("channels not closed by the link's end: \(open.keys), \(connecting)") }
        if link.nextDeadline != nil { throw fail("a signaling timer survived the link's end") }
        for cid in UInt16(0x0040) ... 0x007F where link.channelStatus(L2CAPChannelID(handle: L2CAPFuzzDriver.handle, localCID: .init(rawValue: cid))) != nil {
            throw fail("channel \(cid) survived the link's end")
        }
        link = L2CAPLink(handle: L2CAPFuzzDriver.handle, role: link.role, configuration: configuration)
        parameterRequests = []
    }

    /// The send credits of every open channel, by the peer's CID.
    func creditsByRemote() -> [UInt16: Int] {
        var credits: [UInt16: Int] = [:]
        for id in open.keys {
            if let status = link.channelStatus(id), let remote = status.remoteCID { credits[remote.rawValue] = status.sendCredits }
        }
        return credits
    }
}

extension L2CAPLink {
    /// The status of the channel among `channels` whose peer endpoint is `remote`.
    func status(forRemote remote: UInt16, among channels: [L2CAPChannelID]) -> L2CAPChannelStatus? {
        channels.lazy.compactMap { self.channelStatus($0) }.first { $0.remoteCID?.rawValue == remote }
    }
}

/// `value` little-endian.
func littleEndian(_ value: UInt16) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
}

/// `payload` as a B-frame to `cid` (Core 5.4, Vol 3, Part A, §3.1).
func fuzzBFrame(_ cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
    littleEndian(UInt16(truncatingIfNeeded: payload.count)) + littleEndian(cid) + payload
}

/// The frames among `outputs`.
func fuzzSentFrames(_ outputs: [L2CAPOutput]) -> [[UInt8]] {
    outputs.compactMap { if case let .sendFrame(frame) = $0 { return frame } else { return nil } }
}
