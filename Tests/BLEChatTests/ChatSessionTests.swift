import BLEChat
import Foundation
import Testing

@Suite("Chat session")
struct ChatSessionTests {
    @Test("Messages of 1 to 2,000 bytes round-trip through fragments at ATT MTU 23 and 247", arguments: [23, 247])
    func fragmentationRoundTrip(mtu: Int) throws {
        var link = VirtualChatLink(seed: UInt64(mtu), maximumFrameLength: mtu - 3)
        var sent: [Data] = []
        for size in 1 ... 2000 {
            let message = link.random.bytes(size)
            sent.append(message)
            try link.a.send(message)
        }
        link.connect()
        var steps = 0
        while link.received.b.count < sent.count, steps < 1_000_000 {
            link.step()
            steps += 1
        }
        #expect(link.received.b == sent)
        // Fragments fill the frame: 2,000 bytes at MTU 23 take ⌈2000 / 11⌉ = 182 of them.
        #expect(link.a.unacknowledgedCount < 2000)
        for _ in 0 ..< 100 { link.step() }
        #expect(link.a.unacknowledgedCount == 0)
        #expect(link.b.nextExpected == 2000)
    }

    @Test("A 2,000-byte message at MTU 23 takes 182 fragments of at most 20 bytes")
    func fragmentCount() throws {
        var outbox = ChatOutbox()
        #expect(outbox.enqueue([UInt8](repeating: 7, count: 2000)) == 0)
        var frames: [ChatFrame] = []
        while let frame = outbox.nextFragment(maximumFrameLength: 20) { frames.append(frame) }
        #expect(frames.count == 182)
        #expect(frames.allSatisfy { $0.encoded.count <= 20 })
        guard case let .fragment(_, length, offset, payload)? = frames.last else {
            Issue.record("no fragment")
            return
        }
        #expect(length == 2000)
        #expect(Int(offset) + payload.count == 2000)
    }

    @Test("Lost, repeated and reordered fragments across reconnections deliver each message once, in order",
          arguments: [23, 247])
    func faultsAcrossReconnects(mtu: Int) throws {
        var link = VirtualChatLink(seed: 0xC0FFEE &+ UInt64(mtu), maximumFrameLength: mtu - 3)
        var sentByA: [Data] = []
        var sentByB: [Data] = []
        link.lossRate = 0.05
        link.duplicateRate = 0.05
        link.reorderRate = 0.2
        for round in 0 ..< 40 {
            for _ in 0 ..< 10 {
                let message = link.random.bytes(1 + Int(link.random.next() % 2000))
                sentByA.append(message)
                try link.a.send(message)
                let reply = link.random.bytes(1 + Int(link.random.next() % 2000))
                sentByB.append(reply)
                try link.b.send(reply)
            }
            link.connect()
            // A link lives for a random while, then drops with frames in flight.
            let life = 50 + Int(link.random.next() % 400)
            for _ in 0 ..< life { link.step() }
            link.disconnect()
            #expect(link.received.b == Array(sentByA.prefix(link.received.b.count)), "round \(round)")
        }
        // Finally a clean link until everything is acknowledged.
        link.lossRate = 0
        link.duplicateRate = 0
        link.reorderRate = 0
        link.connect()
        var steps = 0
        while link.a.unacknowledgedCount + link.b.unacknowledgedCount > 0, steps < 2_000_000 {
            link.step()
            steps += 1
        }
        #expect(link.received.b == sentByA)
        #expect(link.received.a == sentByB)
        #expect(link.a.duplicateFragments + link.b.duplicateFragments > 0)
    }

    @Test("Heartbeats keep an idle link alive; a silent link is noticed within three intervals")
    func heartbeatTimeout() {
        var link = VirtualChatLink(seed: 3, maximumFrameLength: 20)
        link.connect()
        // A minute of idle link: heartbeats flow both ways and neither side times out.
        var timeouts = 0
        for _ in 0 ..< 60_000 {
            link.step()
            let now = link.now
            if link.a.checkLink(now: now) { timeouts += 1 }
            if link.b.checkLink(now: now) { timeouts += 1 }
        }
        #expect(timeouts == 0)
        #expect(link.a.isLinkUp && link.b.isLinkUp)
        // The link goes silent at 60 s: nothing gets through any more.
        let silentFrom = link.now
        link.lossRate = 1
        var noticed: Duration?
        while noticed == nil, link.now < silentFrom + .seconds(10) {
            link.step()
            if link.a.checkLink(now: link.now) { noticed = link.now }
        }
        let delay = noticed.map { $0 - silentFrom }
        #expect(delay != nil)
        #expect(delay.map { $0 <= .seconds(3) } == true)
        #expect(delay.map { $0 > .seconds(1) } == true)
        #expect(!link.a.isLinkUp)
        #expect(link.a.nextDeadline == nil)
    }

    @Test("An idle session sends a heartbeat once per interval and names the next deadline")
    func heartbeatPacing() {
        var session = ChatSession(configuration: .init(heartbeatInterval: .seconds(1)))
        session.linkEstablished(now: .zero)
        // The first frame on a new link is the acknowledgement of what arrived before.
        #expect(session.nextFrame(maximumLength: 20, now: .zero) == ChatFrame.acknowledgement(nextExpected: 0).encoded)
        #expect(session.nextFrame(maximumLength: 20, now: .milliseconds(999)) == nil)
        #expect(session.nextDeadline == .seconds(1))
        #expect(session.nextFrame(maximumLength: 20, now: .seconds(1)) == ChatFrame.heartbeat(nextExpected: 0).encoded)
        #expect(session.nextDeadline == .seconds(2))
        _ = session.receive(ChatFrame.heartbeat(nextExpected: 0).encoded, now: .milliseconds(1500))
        #expect(session.nextDeadline == .seconds(2))
        let early = session.checkLink(now: .milliseconds(4499))
        let due = session.checkLink(now: .milliseconds(4500))
        let again = session.checkLink(now: .seconds(5))
        #expect(!early)
        #expect(due)
        #expect(!again)
    }

    @Test("A message longer than 65,535 bytes is refused")
    func tooLong() {
        var session = ChatSession()
        #expect(throws: ChatSession.SendError.messageTooLong(65_536)) { try session.send(Data(count: 65_536)) }
    }
}
