import BLEHost
import BLEWire
import Testing

/// Fixed channels and the LE signaling channel (Core 5.4, Vol 3, Part A, §2.1, §4). Byte
/// fixtures follow the frame layouts of §3.1 and §4 (Figure 4.3 and the per-command figures).
@Suite("L2CAP link: fixed channels and signaling")
struct L2CAPSignalingTests {
    @Test("ATT and SMP payloads pass through their fixed channels both ways")
    func fixedChannels() {
        var pair = L2CAPLinkPair()
        // ATT Exchange MTU Request, MTU 517, on CID 0x0004.
        pair.run(.central) { link, _ in link.sendATT([0x02, 0x05, 0x02]) }
        #expect(pair.frames.map(\.1) == [[0x03, 0x00, 0x04, 0x00, 0x02, 0x05, 0x02]])
        #expect(pair.takeEvents(.peripheral) == [.att([0x02, 0x05, 0x02])])
        // SMP Security Request, AuthReq 0x01, on CID 0x0006.
        pair.run(.peripheral) { link, _ in link.sendSMP([0x0B, 0x01]) }
        #expect(pair.frames.last?.1 == [0x02, 0x00, 0x06, 0x00, 0x0B, 0x01])
        #expect(pair.takeEvents(.central) == [.smp([0x0B, 0x01])])
        #expect(pair.central.counters.framesSent == 1 && pair.central.counters.framesReceived == 1)
    }

    @Test("An unknown signaling code gets Command Reject, not understood, with the same identifier")
    func unknownCode() {
        var link = L2CAPLink(handle: 1, role: .central)
        // Information Request (0x0A, BR/EDR only), identifier 7, InfoType 0x0002.
        let out = link.receive(frame: [0x06, 0x00, 0x05, 0x00, 0x0A, 0x07, 0x02, 0x00, 0x02, 0x00], at: 0)
        #expect(out == [.sendFrame([0x06, 0x00, 0x05, 0x00, 0x01, 0x07, 0x02, 0x00, 0x00, 0x00])])
        let unassigned = link.receive(frame: [0x04, 0x00, 0x05, 0x00, 0xFF, 0x21, 0x00, 0x00], at: 0)
        #expect(unassigned == [.sendFrame([0x06, 0x00, 0x05, 0x00, 0x01, 0x21, 0x02, 0x00, 0x00, 0x00])])
        #expect(link.counters.commandRejectsSent == 2)
    }

    @Test("A known command with malformed data gets Command Reject with the same identifier")
    func malformedKnownCommand() {
        var link = L2CAPLink(handle: 1, role: .peripheral)
        let reject: (UInt8) -> [L2CAPOutput] = { id in [.sendFrame([0x06, 0x00, 0x05, 0x00, 0x01, id, 0x02, 0x00, 0x00, 0x00])] }
        // Disconnection Request with 3 data octets instead of 4.
        #expect(link.receive(frame: bFrame(5, [0x06, 0x09, 0x03, 0x00, 0x40, 0x00, 0x41]), at: 0) == reject(0x09))
        // LE Credit Based Connection Request with 8 data octets instead of 10.
        #expect(link.receive(frame: bFrame(5, [0x14, 0x0A, 0x08, 0x00, 0x80, 0x00, 0x40, 0x00, 0x17, 0x00, 0x17, 0x00]), at: 0)
            == reject(0x0A))
        // Length field claims more data than the C-frame holds.
        #expect(link.receive(frame: bFrame(5, [0x16, 0x0B, 0x04, 0x00, 0x40, 0x00]), at: 0) == reject(0x0B))
    }

    @Test("Command Reject is never answered, and identifier 0 is discarded")
    func noRejectLoops() {
        var link = L2CAPLink(handle: 1, role: .central)
        // Command Reject with a reserved reason 0x0003: malformed, but must not be rejected.
        #expect(link.receive(frame: bFrame(5, [0x01, 0x04, 0x02, 0x00, 0x03, 0x00]), at: 0).isEmpty)
        // Command Reject answering nothing we sent.
        #expect(link.receive(frame: bFrame(5, [0x01, 0x05, 0x02, 0x00, 0x00, 0x00]), at: 0).isEmpty)
        // An unknown code with identifier 0.
        #expect(link.receive(frame: bFrame(5, [0x0A, 0x00, 0x02, 0x00, 0x02, 0x00]), at: 0).isEmpty)
        // Too short to hold code and identifier.
        #expect(link.receive(frame: bFrame(5, [0x0A]), at: 0).isEmpty)
        #expect(link.counters.commandRejectsSent == 0)
        #expect(link.counters.signalingCommandsDiscarded == 4)
    }

    @Test("A C-frame longer than MTUsig gets Command Reject, signaling MTU exceeded, naming 23")
    func signalingMTUExceeded() {
        var link = L2CAPLink(handle: 1, role: .central)
        let command: [UInt8] = [0x0A, 0x33, 0x14, 0x00] + [UInt8](repeating: 0xAA, count: 20)  // 24 octets
        #expect(link.receive(frame: bFrame(5, command), at: 0)
            == [.sendFrame([0x08, 0x00, 0x05, 0x00, 0x01, 0x33, 0x04, 0x00, 0x01, 0x00, 0x17, 0x00])])
    }

    @Test("A Disconnection Request for an unknown CID gets Command Reject, invalid CID, with both CIDs")
    func invalidCID() {
        var link = L2CAPLink(handle: 1, role: .central)
        let out = link.receive(frame: bFrame(5, [0x06, 0x05, 0x04, 0x00, 0x45, 0x00, 0x50, 0x00]), at: 0)
        #expect(out == [.sendFrame([0x0A, 0x00, 0x05, 0x00, 0x01, 0x05, 0x06, 0x00, 0x02, 0x00, 0x45, 0x00, 0x50, 0x00])])
    }

    @Test("Frames for an unknown CID or with a wrong length are dropped and counted")
    func droppedFrames() {
        var link = L2CAPLink(handle: 1, role: .central)
        #expect(link.receive(frame: bFrame(0x0041, [0x02, 0x00, 0xAB, 0xCD]), at: 0).isEmpty)
        #expect(link.receive(frame: bFrame(0x0003, [0x01]), at: 0).isEmpty)
        #expect(link.receive(frame: [0x05, 0x00, 0x04, 0x00, 0x01], at: 0).isEmpty)
        #expect(link.receive(frame: [0x04, 0x00], at: 0).isEmpty)
        #expect(link.counters.unknownCIDFramesDropped == 2)
        #expect(link.counters.malformedFramesDropped == 2)
    }

    // MARK: Connection Parameter Update (§4.20, §4.21)

    @Test("A peripheral answers a Connection Parameter Update Request with Command Reject")
    func peripheralRejectsParameterUpdate() {
        var link = L2CAPLink(handle: 1, role: .peripheral)
        // Interval 6–12, latency 0, timeout 200 (2 s), identifier 3.
        let request = bFrame(5, [0x12, 0x03, 0x08, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xC8, 0x00])
        #expect(request == [0x0C, 0x00, 0x05, 0x00, 0x12, 0x03, 0x08, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xC8, 0x00])
        #expect(link.receive(frame: request, at: 0) == [.sendFrame([0x06, 0x00, 0x05, 0x00, 0x01, 0x03, 0x02, 0x00, 0x00, 0x00])])
    }

    @Test("The central hands a valid parameter update to the host and sends its acceptance")
    func parameterUpdateAccepted() {
        var pair = L2CAPLinkPair()
        pair.run(.peripheral) { link, now in
            link.requestConnectionParameterUpdate(intervalMin: 24, intervalMax: 40, latency: 4, timeout: 500, at: now)
        }
        #expect(pair.frames.first?.1 == [0x0C, 0x00, 0x05, 0x00, 0x12, 0x01, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x04, 0x00, 0xF4, 0x01])
        #expect(pair.takeEvents(.central)
            == [.connectionParameterUpdateRequested(intervalMin: 24, intervalMax: 40, latency: 4, timeout: 500, identifier: 1)])
        #expect(pair.peripheral.nextDeadline == 30_000_000)
        pair.run(.central) { link, _ in link.answerConnectionParameterUpdate(identifier: 1, accept: true) }
        #expect(pair.frames.last?.1 == [0x06, 0x00, 0x05, 0x00, 0x13, 0x01, 0x02, 0x00, 0x00, 0x00])
        #expect(pair.takeEvents(.peripheral) == [.connectionParameterUpdateAnswered(accepted: true)])
        #expect(pair.peripheral.nextDeadline == nil)
        // A second answer to the same identifier sends nothing.
        #expect(pair.central.answerConnectionParameterUpdate(identifier: 1, accept: true).isEmpty)
    }

    @Test("The central's rejection reaches the peripheral as not accepted")
    func parameterUpdateRejected() {
        var pair = L2CAPLinkPair()
        pair.run(.peripheral) { link, now in
            link.requestConnectionParameterUpdate(intervalMin: 6, intervalMax: 6, latency: 0, timeout: 10, at: now)
        }
        guard case let .connectionParameterUpdateRequested(_, _, _, _, identifier)? = pair.takeEvents(.central).first else {
            Issue.record("no request reached the central")
            return
        }
        pair.run(.central) { link, _ in link.answerConnectionParameterUpdate(identifier: identifier, accept: false) }
        #expect(pair.frames.last?.1 == [0x06, 0x00, 0x05, 0x00, 0x13, identifier, 0x02, 0x00, 0x01, 0x00])
        #expect(pair.takeEvents(.peripheral) == [.connectionParameterUpdateAnswered(accepted: false)])
    }

    @Test("Out-of-range parameters are rejected by the central without asking the host")
    func parameterUpdateOutOfRange() {
        let cases: [(UInt16, UInt16, UInt16, UInt16)] = [
            (5, 40, 0, 500),     // interval below 6
            (24, 3201, 0, 3200), // interval above 3200
            (40, 24, 0, 500),    // min above max
            (24, 40, 500, 3200), // latency above 499
            (24, 40, 0, 9),      // timeout below 10
            (24, 40, 0, 3201),   // timeout above 3200
            (24, 40, 4, 250),    // valid: 2.5 s > (1 + 4) × 50 ms × 2 = 0.5 s
        ]
        for (index, (minimum, maximum, latency, timeout)) in cases.enumerated() {
            var pair = L2CAPLinkPair()
            pair.run(.peripheral) { link, now in
                link.requestConnectionParameterUpdate(intervalMin: minimum, intervalMax: maximum, latency: latency,
                                                      timeout: timeout, at: now)
            }
            let valid = index == cases.count - 1
            if valid {
                #expect(pair.takeEvents(.central).count == 1)
            } else {
                #expect(pair.takeEvents(.central).isEmpty, "case \(index)")
                #expect(pair.takeEvents(.peripheral) == [.connectionParameterUpdateAnswered(accepted: false)], "case \(index)")
                #expect(pair.central.counters.parameterUpdatesRejectedOutOfRange == 1)
            }
        }
        // Timeout must exceed (1 + latency) × intervalMax × 2: 3200 × 10 ms vs (1 + 10) × 3200 × 2.5 ms.
        let tooShort = L2CAP.ConnectionParameterUpdateRequest(intervalMin: 3200, intervalMax: 3200, latency: 10, timeout: 3200)
        #expect(!L2CAPLink.isValidConnectionParameterUpdate(tooShort))
        let justEnough = L2CAP.ConnectionParameterUpdateRequest(intervalMin: 400, intervalMax: 400, latency: 7, timeout: 801)
        #expect(L2CAPLink.isValidConnectionParameterUpdate(justEnough))
        let boundary = L2CAP.ConnectionParameterUpdateRequest(intervalMin: 400, intervalMax: 400, latency: 7, timeout: 800)
        #expect(!L2CAPLink.isValidConnectionParameterUpdate(boundary))
    }

    @Test("An unanswered parameter update request times out after 30 s as not accepted")
    func parameterUpdateTimeout() {
        var link = L2CAPLink(handle: 1, role: .peripheral)
        _ = link.requestConnectionParameterUpdate(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 400, at: 1_000)
        #expect(link.nextDeadline == 30_001_000)
        #expect(link.timerFired(at: 30_000_999).isEmpty)
        #expect(link.timerFired(at: 30_001_000) == [.connectionParameterUpdateAnswered(accepted: false)])
        #expect(link.nextDeadline == nil)
        // A central may not ask: it answers false at once and sends nothing.
        var central = L2CAPLink(handle: 1, role: .central)
        #expect(central.requestConnectionParameterUpdate(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 400, at: 0)
            == [.connectionParameterUpdateAnswered(accepted: false)])
    }

    @Test("Signaling identifiers are non-zero and cycle past 255 back to 1")
    func identifiersCycle() {
        var link = L2CAPLink(handle: 1, role: .peripheral)
        var identifiers: [UInt8] = []
        for step in 0 ..< 300 {
            let out = link.requestConnectionParameterUpdate(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 400, at: 0)
            guard let frame = sentFrames(out).first, frame.count > 5 else {
                Issue.record("no request at step \(step)")
                return
            }
            identifiers.append(frame[5])
            // The central's answer frees the identifier.
            _ = link.receive(frame: bFrame(5, [0x13, frame[5], 0x02, 0x00, 0x00, 0x00]), at: 0)
        }
        #expect(!identifiers.contains(0))
        #expect(Array(identifiers.prefix(3)) == [1, 2, 3])
        #expect(identifiers[254] == 255 && identifiers[255] == 1)
    }
}
