import BLEHost
import BLEWire
import Testing

@Suite("The host's packet inbox")
struct HostPacketInboxTests {
    static func event(_ code: UInt8) -> H4.Packet {
        .event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: code), parameters: []))
    }

    @Test("packets appended before a take come out together, in order; later ones in the next take (waiting at once; looking 64 times first)",
          arguments: [0, 64])
    func batches(polls: Int) async {
        let inbox = HostPacketInbox(pollsBeforeWaiting: polls)
        for code in UInt8(1) ... 5 { inbox.append(Self.event(code)) }
        let first = await inbox.take()
        #expect(first == (UInt8(1) ... 5).map(Self.event))
        inbox.append(Self.event(6))
        #expect(await inbox.take() == [Self.event(6)])
    }

    @Test("a take gets the next packet; finishing hands over what is left, then nothing (waiting at once; looking 64 times first)",
          arguments: [0, 64])
    func waitsAndFinishes(polls: Int) async {
        let inbox = HostPacketInbox(pollsBeforeWaiting: polls)
        // Whether the take is already waiting or not, the packet reaches it.
        let waiting = Task { await inbox.take() }
        inbox.append(Self.event(7))
        #expect(await waiting.value == [Self.event(7)])
        inbox.append(Self.event(8))
        inbox.finish(failure: "unplugged")
        inbox.append(Self.event(9))
        #expect(await inbox.take() == [Self.event(8)])
        #expect(await inbox.take() == [])
        #expect(inbox.failure == "unplugged")
    }

    @Test("cancelling a take, waiting or about to, ends it with nothing and finishes the inbox (waiting at once; looking 64 times first)",
          arguments: [0, 64])
    func cancelled(polls: Int) async {
        let inbox = HostPacketInbox(pollsBeforeWaiting: polls)
        let waiting = Task { await inbox.take() }
        waiting.cancel()
        #expect(await waiting.value == [])
        inbox.append(Self.event(1))
        #expect(await inbox.take() == [], "a finished inbox takes nothing more")
    }

    @Test("a reader that looked its 64 times and found nothing waits, and the next packet wakes it")
    func pollingThenWaiting() async {
        let inbox = HostPacketInbox(pollsBeforeWaiting: 64)
        let reader = Task { await inbox.take() }
        // Far more turns than the reader looks: it has given up looking and waits.
        for _ in 0 ..< 1_000 { await Task.yield() }
        inbox.append(Self.event(3))
        #expect(await reader.value == [Self.event(3)])
    }
}
