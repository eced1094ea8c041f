import BLEHost
import BLEWire
import Testing

/// Failure paths of the credit-based procedures and malformed input on the signaling channel.
@Suite("L2CAP link: failures and malformed input")
struct L2CAPRobustnessTests {
    @Test("A connect answered with Command Reject ends as closed, request rejected")
    func connectRejected() {
        var link = L2CAPLink(handle: 3, role: .central)
        let (id, outputs) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0)
        #expect(sentFrames(outputs).count == 1)
        #expect(link.receive(frame: bFrame(5, [0x01, 0x01, 0x02, 0x00, 0x00, 0x00]), at: 0)
            == [.channelClosed(id, reason: .requestRejected)])
        #expect(link.channelStatus(id) == nil)
        #expect(link.counters.commandRejectsReceived == 1)
    }

    @Test("A connect without answer times out after the RTX")
    func connectTimeout() {
        var link = L2CAPLink(handle: 3, role: .central, configuration: L2CAPConfiguration(signalingTimeout: 5_000_000))
        let (id, _) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 100)
        #expect(link.channelStatus(id)?.state == .connecting)
        #expect(link.nextDeadline == 5_000_100)
        #expect(link.timerFired(at: 5_000_100) == [.channelClosed(id, reason: .responseTimeout)])
        #expect(link.channelStatus(id) == nil)
        // A late acceptance matches nothing and is discarded.
        let late = bFrame(5, [0x15, 0x01, 0x0A, 0x00, 0x40, 0x00, 0x64, 0x00, 0x32, 0x00, 0x01, 0x00, 0x00, 0x00])
        #expect(link.receive(frame: late, at: 6_000_000).isEmpty)
    }

    @Test("Disconnecting while connecting abandons the attempt and disconnects a late acceptance")
    func abandonWhileConnecting() {
        var link = L2CAPLink(handle: 3, role: .central)
        let (id, _) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0)
        #expect(link.disconnect(id, at: 0) == [.channelClosed(id, reason: .localRequest)])
        let acceptance = bFrame(5, [0x15, 0x01, 0x0A, 0x00, 0x47, 0x00, 0x64, 0x00, 0x32, 0x00, 0x01, 0x00, 0x00, 0x00])
        // Only a Disconnection Request for the peer's CID 0x0047 goes out; no second event.
        #expect(link.receive(frame: acceptance, at: 0)
            == [.sendFrame(bFrame(5, [0x06, 0x02, 0x04, 0x00, 0x47, 0x00, 0x40, 0x00]))])
        #expect(link.receive(frame: bFrame(5, [0x07, 0x02, 0x04, 0x00, 0x47, 0x00, 0x40, 0x00]), at: 0).isEmpty)
        #expect(link.channelStatus(id) == nil && link.nextDeadline == nil)
    }

    @Test("An acceptance with an MPS below 23 is disconnected and reported as invalid")
    func invalidAcceptance() {
        var link = L2CAPLink(handle: 3, role: .central)
        let (id, _) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0)
        let acceptance = bFrame(5, [0x15, 0x01, 0x0A, 0x00, 0x41, 0x00, 0x64, 0x00, 0x16, 0x00, 0x01, 0x00, 0x00, 0x00])
        #expect(link.receive(frame: acceptance, at: 0)
            == [.channelClosed(id, reason: .invalidConnectionResponse),
                .sendFrame(bFrame(5, [0x06, 0x02, 0x04, 0x00, 0x41, 0x00, 0x40, 0x00]))])
    }

    @Test("A Disconnection Request whose source CID does not match is silently discarded")
    func mismatchedDisconnection() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel()
        // Destination 0x0040 is the central's channel, but its peer endpoint is 0x0040, not 0x0055.
        pair.run(.central) { link, now in link.receive(frame: bFrame(5, [0x06, 0x09, 0x04, 0x00, 0x40, 0x00, 0x55, 0x00]), at: now) }
        #expect(pair.takeEvents(.central).isEmpty)
        #expect(pair.central.channelStatus(ids.central)?.state == .open)
        #expect(pair.central.counters.signalingCommandsDiscarded == 1)
    }

    @Test("The end of the ACL link closes every channel")
    func linkDisconnected() throws {
        var pair = L2CAPLinkPair()
        let first = try pair.openChannel(psm: 0x0080)
        let second = try pair.openChannel(psm: 0x0081)
        #expect(pair.central.linkDisconnected() == [.channelClosed(first.central, reason: .linkDisconnected),
                                                     .channelClosed(second.central, reason: .linkDisconnected)])
        #expect(pair.central.channelStatus(first.central) == nil)
    }

    @Test("Local CIDs are allocated from 0x0040 upward and not reused at once")
    func cidAllocation() {
        var link = L2CAPLink(handle: 3, role: .central)
        var cids: [UInt16] = []
        for _ in 0 ..< 3 {
            let (id, _) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0)
            cids.append(id.localCID.rawValue)
        }
        #expect(cids == [0x0040, 0x0041, 0x0042])
        _ = link.timerFired(at: HostTime.max)
        let (next, _) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0)
        #expect(next.localCID.rawValue == 0x0043)
        for _ in 0 ..< 63 { _ = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0) }
        let (exhausted, outputs) = link.connect(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 2, at: 0)
        #expect(exhausted.localCID == .null)
        #expect(outputs == [.channelRefused(exhausted, .noResourcesAvailable)])
    }

    /// Valid signaling C-frames of every command this link handles, each as a B-frame.
    static let validSignalingFrames: [[UInt8]] = [
        bFrame(5, [0x01, 0x01, 0x02, 0x00, 0x00, 0x00]),
        bFrame(5, [0x01, 0x01, 0x06, 0x00, 0x02, 0x00, 0x40, 0x00, 0x40, 0x00]),
        bFrame(5, [0x06, 0x02, 0x04, 0x00, 0x40, 0x00, 0x40, 0x00]),
        bFrame(5, [0x07, 0x02, 0x04, 0x00, 0x40, 0x00, 0x40, 0x00]),
        bFrame(5, [0x12, 0x03, 0x08, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xC8, 0x00]),
        bFrame(5, [0x13, 0x01, 0x02, 0x00, 0x00, 0x00]),
        bFrame(5, [0x14, 0x04, 0x0A, 0x00, 0x80, 0x00, 0x41, 0x00, 0x64, 0x00, 0x32, 0x00, 0x05, 0x00]),
        bFrame(5, [0x15, 0x01, 0x0A, 0x00, 0x40, 0x00, 0x64, 0x00, 0x32, 0x00, 0x05, 0x00, 0x00, 0x00]),
        bFrame(5, [0x16, 0x05, 0x04, 0x00, 0x40, 0x00, 0x03, 0x00]),
        bFrame(5, [0x17, 0x06, 0x0A, 0x00, 0x80, 0x00, 0x40, 0x00, 0x40, 0x00, 0x01, 0x00, 0x41, 0x00]),
        bFrame(0x0040, [0x03, 0x00, 0x01, 0x02, 0x03]),
    ]

    @Test("Every truncation, extension and bit flip of valid signaling frames is handled without a trap",
          arguments: validSignalingFrames)
    func mutations(frame: [UInt8]) throws {
        // Both roles, each with an open channel and a pending request, so the mutated
        // commands reach the states where they mean something.
        var pair = L2CAPLinkPair()
        pair.recordsFrames = false
        _ = try pair.openChannel(psm: 0x0080)
        pair.run(.peripheral) { link, now in
            link.requestConnectionParameterUpdate(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 400, at: now)
        }
        var mutants: [[UInt8]] = (0 ..< frame.count).map { Array(frame.prefix($0)) }
        for extra in 1 ... 3 { mutants.append(frame + [UInt8](repeating: 0xA5, count: extra)) }
        for bit in 0 ..< frame.count * 8 {
            var flipped = frame
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            mutants.append(flipped)
        }
        var answered = 0
        for mutant in mutants {
            for side in [L2CAPSide.central, .peripheral] {
                var link = side == .central ? pair.central : pair.peripheral
                let outputs = link.receive(frame: mutant, at: 1_000)
                for sent in sentFrames(outputs) {
                    answered += 1
                    let basic = try L2CAP.BasicFrame(decoding: sent)
                    if basic.channelIdentifier == .leSignaling {
                        _ = try L2CAP.LESignalingCommand(decoding: basic.payload)
                    }
                }
                _ = link.timerFired(at: HostTime.max)
                #expect(link.nextDeadline == nil)
            }
        }
        #expect(answered > 0)
    }
}
