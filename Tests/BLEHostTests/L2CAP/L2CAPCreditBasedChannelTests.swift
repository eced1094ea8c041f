import BLEHost
import BLEWire
import Testing

/// LE credit-based channels (Core 5.4, Vol 3, Part A, §3.4.3, §4.22–4.24, §4.6, §10.1).
@Suite("L2CAP link: LE credit-based channels")
struct L2CAPCreditBasedChannelTests {
    @Test("A channel opens with each side learning the other's MTU and MPS, and the request bytes follow §4.22")
    func open() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel(psm: 0x0080, centralMTU: 256, centralMPS: 100, centralCredits: 5,
                                                peripheralMTU: 512, peripheralMPS: 64, peripheralCredits: 10)
        // Request: SPSM 0x0080, source CID 0x0040, MTU 256, MPS 100, 5 credits, identifier 1.
        #expect(pair.frames[0].1 == [0x0E, 0x00, 0x05, 0x00, 0x14, 0x01, 0x0A, 0x00,
                                     0x80, 0x00, 0x40, 0x00, 0x00, 0x01, 0x64, 0x00, 0x05, 0x00])
        // Response: destination CID 0x0040, MTU 512, MPS 64, 10 credits, success.
        #expect(pair.frames[1].1 == [0x0E, 0x00, 0x05, 0x00, 0x15, 0x01, 0x0A, 0x00,
                                     0x40, 0x00, 0x00, 0x02, 0x40, 0x00, 0x0A, 0x00, 0x00, 0x00])
        let central = try #require(pair.central.channelStatus(ids.central))
        #expect(central == L2CAPChannelStatus(state: .open, psm: 0x80, remoteCID: .init(rawValue: 0x0040), localMTU: 256, localMPS: 100,
                                              peerMTU: 512, peerMPS: 64, sendCredits: 10, receiveCredits: 5, queuedSDUs: 0))
        let peripheral = try #require(pair.peripheral.channelStatus(ids.peripheral))
        #expect(peripheral.sendCredits == 5 && peripheral.peerMTU == 256 && peripheral.peerMPS == 100)
    }

    @Test("A connection to a PSM nobody listens on is refused with SPSM not supported")
    func refusedUnknownPSM() {
        var pair = L2CAPLinkPair()
        var id: L2CAPChannelID?
        pair.run(.central) { link, now in
            let (channel, outputs) = link.connect(psm: 0x0081, mtu: 100, mps: 50, initialCredits: 2, at: now)
            id = channel
            return outputs
        }
        #expect(pair.frames.last?.1 == [0x0E, 0x00, 0x05, 0x00, 0x15, 0x01, 0x0A, 0x00,
                                        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00])
        if let id {
            #expect(pair.takeEvents(.central) == [.channelRefused(id, .spsmNotSupported)])
            #expect(pair.central.channelStatus(id) == nil)
        }
        #expect(pair.takeEvents(.peripheral).isEmpty)
    }

    @Test("Requests with a bad source CID, a CID in use, or parameters below 23 are refused with their result codes")
    func refusedRequests() {
        var link = L2CAPLink(handle: 1, role: .peripheral)
        link.listen(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 4)
        func request(_ id: UInt8, cid: UInt16, mtu: UInt16, mps: UInt16) -> [UInt8] {
            bFrame(5, [0x14, id, 0x0A, 0x00, 0x80, 0x00, UInt8(cid & 0xFF), UInt8(cid >> 8),
                       UInt8(mtu & 0xFF), UInt8(mtu >> 8), UInt8(mps & 0xFF), UInt8(mps >> 8), 0x01, 0x00])
        }
        func result(_ outputs: [L2CAPOutput]) -> UInt16? {
            guard let frame = sentFrames(outputs).first, frame.count == 18 else { return nil }
            return UInt16(frame[16]) | UInt16(frame[17]) << 8
        }
        #expect(result(link.receive(frame: request(1, cid: 0x0035, mtu: 100, mps: 50), at: 0)) == 0x0009)
        #expect(result(link.receive(frame: request(2, cid: 0x0040, mtu: 100, mps: 50), at: 0)) == 0x0000)
        #expect(result(link.receive(frame: request(3, cid: 0x0040, mtu: 100, mps: 50), at: 0)) == 0x000A)
        #expect(result(link.receive(frame: request(4, cid: 0x0041, mtu: 22, mps: 50), at: 0)) == 0x000B)
        #expect(result(link.receive(frame: request(5, cid: 0x0041, mtu: 100, mps: 65534), at: 0)) == 0x000B)
    }

    @Test("10,000 SDUs of 1 to 2,000 octets echo byte-exact with a small MPS and few credits")
    func echoUnderBackPressure() throws {
        var pair = L2CAPLinkPair()
        pair.recordsFrames = false
        let ids = try pair.openChannel(centralMTU: 2_000, centralMPS: 48, centralCredits: 3,
                                                peripheralMTU: 2_000, peripheralMPS: 40, peripheralCredits: 4)
        var random = L2CAPTestRandom(seed: 0x1CAB)
        var expected: [[UInt8]] = []
        var nextExpected = 0
        var sent = 0
        var blocked = false
        var blockedCount = 0
        var resumedCount = 0
        var stalls = 0
        while nextExpected < 10_000, stalls < 3 {
            if !blocked, sent < 10_000 {
                let sdu = random.bytes(Int.random(in: 1 ... 2_000, using: &random))
                expected.append(sdu)
                sent += 1
                pair.run(.central) { link, now in link.send(sdu: sdu, on: ids.central, at: now) }
            }
            var progressed = false
            for event in pair.takeEvents(.peripheral) {
                if case let .sdu(data, channel) = event {
                    pair.run(.peripheral) { link, now in link.send(sdu: data, on: channel, at: now) }
                }
            }
            for event in pair.takeEvents(.central) {
                progressed = true
                switch event {
                case let .sdu(data, channel):
                    #expect(channel == ids.central)
                    if data != expected[nextExpected] {
                        Issue.record("SDU \(nextExpected) differs")
                        return
                    }
                    expected[nextExpected] = []
                    nextExpected += 1
                case .sendBlocked:
                    blocked = true
                    blockedCount += 1
                case .sendResumed:
                    blocked = false
                    resumedCount += 1
                default:
                    Issue.record("unexpected event \(event)")
                }
            }
            stalls = progressed || (!blocked && sent < 10_000) ? 0 : stalls + 1
        }
        #expect(nextExpected == 10_000)
        #expect(blockedCount > 100)
        #expect(resumedCount == blockedCount)
        #expect(pair.central.counters.sdusReceived == 10_000 && pair.peripheral.counters.sdusReceived == 10_000)
        #expect(pair.central.counters.unknownCIDFramesDropped == 0 && pair.peripheral.counters.channelsClosedForViolation == 0)
        let status = try #require(pair.central.channelStatus(ids.central))
        #expect(status.queuedSDUs == 0 && status.sendCredits > 0)
    }

    @Test("An SDU is segmented into K-frames of the peer's MPS, the first carrying the SDU length")
    func segmentation() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel(peripheralMPS: 23, peripheralCredits: 10)
        pair.frames = []
        let sdu = (0 ..< 50).map { UInt8($0) }
        pair.run(.central) { link, now in link.send(sdu: sdu, on: ids.central, at: now) }
        let kFrames = pair.frames.filter { $0.0 == .central }.map(\.1)
        #expect(kFrames == [
            bFrame(0x0040, [50, 0] + Array(sdu[0 ..< 21])),
            bFrame(0x0040, Array(sdu[21 ..< 44])),
            bFrame(0x0040, Array(sdu[44 ..< 50])),
        ])
        #expect(pair.takeEvents(.peripheral) == [.sdu(sdu, channel: ids.peripheral)])
    }

    @Test("Credits come back in a Flow Control Credit Indication once half are used")
    func creditReturn() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel(peripheralMPS: 64, peripheralCredits: 4)
        pair.frames = []
        pair.run(.central) { link, now in link.send(sdu: [1], on: ids.central, at: now) }
        #expect(pair.frames.count == 1)
        #expect(pair.central.channelStatus(ids.central)?.sendCredits == 3)
        pair.run(.central) { link, now in link.send(sdu: [2], on: ids.central, at: now) }
        // Two of four used: the peripheral returns two for its CID 0x0040.
        #expect(pair.frames.count == 3)
        #expect(pair.frames.last?.0 == .peripheral)
        #expect(pair.frames.last?.1 == bFrame(5, [0x16, 0x01, 0x04, 0x00, 0x40, 0x00, 0x02, 0x00]))
        #expect(pair.central.channelStatus(ids.central)?.sendCredits == 4)
        #expect(pair.peripheral.counters.creditsGranted == 2)
    }

    @Test("Sending more than the peer's MTU, or on a channel that is not open, is refused")
    func sendRejected() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel(peripheralMTU: 100)
        #expect(pair.central.send(sdu: [UInt8](repeating: 0, count: 101), on: ids.central, at: 0)
            == [.sendRejected(ids.central, .sduExceedsPeerMTU(peerMTU: 100))])
        let stranger = L2CAPChannelID(handle: 1, localCID: .init(rawValue: 0x0050))
        #expect(pair.central.send(sdu: [1], on: stranger, at: 0) == [.sendRejected(stranger, .channelNotOpen)])
    }

    @Test("Disconnection works from either side and frees the CID on both")
    func disconnectBothWays() throws {
        var pair = L2CAPLinkPair()
        let first = try pair.openChannel()
        pair.run(.central) { link, now in link.disconnect(first.central, at: now) }
        #expect(pair.takeEvents(.central) == [.channelClosed(first.central, reason: .localRequest)])
        #expect(pair.takeEvents(.peripheral) == [.channelClosed(first.peripheral, reason: .peerRequest)])
        #expect(pair.frames.suffix(2).map(\.1) == [bFrame(5, [0x06, 0x02, 0x04, 0x00, 0x40, 0x00, 0x40, 0x00]),
                                                   bFrame(5, [0x07, 0x02, 0x04, 0x00, 0x40, 0x00, 0x40, 0x00])])
        #expect(pair.central.channelStatus(first.central) == nil && pair.peripheral.channelStatus(first.peripheral) == nil)
        #expect(pair.central.nextDeadline == nil)

        let second = try pair.openChannel(psm: 0x0090)
        pair.run(.peripheral) { link, now in link.disconnect(second.peripheral, at: now) }
        #expect(pair.takeEvents(.peripheral) == [.channelClosed(second.peripheral, reason: .localRequest)])
        #expect(pair.takeEvents(.central) == [.channelClosed(second.central, reason: .peerRequest)])
        #expect(pair.central.channelStatus(second.central) == nil && pair.peripheral.channelStatus(second.peripheral) == nil)
        #expect(pair.central.send(sdu: [1], on: second.central, at: 0) == [.sendRejected(second.central, .channelNotOpen)])
    }

    @Test("Credits past 65,535 close the channel")
    func creditOverflow() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel(peripheralCredits: 8)
        // The peripheral's endpoint is 0x0040; the central holds 8 credits already.
        let indication = bFrame(5, [0x16, 0x77, 0x04, 0x00, 0x40, 0x00, 0xFF, 0xFF])
        pair.run(.central) { link, now in link.receive(frame: indication, at: now) }
        #expect(pair.takeEvents(.central) == [.channelClosed(ids.central, reason: .creditOverflow)])
        #expect(pair.takeEvents(.peripheral) == [.channelClosed(ids.peripheral, reason: .peerRequest)])
        #expect(pair.central.counters.channelsClosedForViolation == 1)
    }

    @Test("Credits up to exactly 65,535 are accepted")
    func creditsToTheLimit() throws {
        var pair = L2CAPLinkPair()
        let ids = try pair.openChannel(peripheralCredits: 8)
        let indication = bFrame(5, [0x16, 0x77, 0x04, 0x00, 0x40, 0x00, 0xF7, 0xFF])
        pair.run(.central) { link, now in link.receive(frame: indication, at: now) }
        #expect(pair.takeEvents(.central).isEmpty)
        #expect(pair.central.channelStatus(ids.central)?.sendCredits == 65_535)
    }

    @Test("An oversized SDU, an oversized K-frame or overlong segments close only their channel",
          arguments: [
              // SDU Length 513 > MTU 512.
              ([[0x01, 0x02, 0xAA]], L2CAPCloseReason.sduExceedsMTU),
              // A 65-octet K-frame payload > MPS 64.
              ([[0x10, 0x00] + [UInt8](repeating: 0xAB, count: 63)], .kFrameExceedsMPS),
              // SDU Length 4, then 3 + 2 octets.
              ([[0x04, 0x00, 1, 2, 3], [4, 5]], .sduLengthMismatch),
              // First K-frame too short for the SDU Length.
              ([[0x04]], .malformedKFrame),
          ])
    func violationClosesOnlyItsChannel(kFrames: [[UInt8]], reason: L2CAPCloseReason) throws {
        var pair = L2CAPLinkPair()
        let victim = try pair.openChannel(psm: 0x0080)
        let bystander = try pair.openChannel(psm: 0x0081)
        let peerCID = try #require(pair.central.channelStatus(victim.central)?.remoteCID)
        for payload in kFrames {
            pair.run(.peripheral) { link, now in link.receive(frame: bFrame(peerCID.rawValue, payload), at: now) }
        }
        #expect(pair.takeEvents(.peripheral) == [.channelClosed(victim.peripheral, reason: reason)])
        #expect(pair.takeEvents(.central) == [.channelClosed(victim.central, reason: .peerRequest)])
        pair.run(.central) { link, now in link.send(sdu: [9, 8, 7], on: bystander.central, at: now) }
        #expect(pair.takeEvents(.peripheral) == [.sdu([9, 8, 7], channel: bystander.peripheral)])
        #expect(pair.peripheral.counters.channelsClosedForViolation == 1)
    }
}
