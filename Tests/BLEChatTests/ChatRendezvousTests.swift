import BLEChat
import Testing

@Suite("Chat roles")
struct ChatRendezvousTests {
    let alice = ChatDeviceID(rawValue: 0x10)
    let bob = ChatDeviceID(rawValue: 0x20)

    @Test("The first sender becomes peripheral and its partner connects as central")
    func firstSenderIsPeripheral() {
        var a = ChatRendezvous(me: alice)
        var b = ChatRendezvous(me: bob)
        #expect(b.discovered(ChatAdvertisement(name: "Alice", device: alice)) == .none)
        #expect(b.names[alice] == "Alice")
        #expect(a.startSession(with: bob) == .invite(bob))
        #expect(a.role == .peripheral(partner: bob))
        #expect(b.discovered(ChatAdvertisement(name: "Alice", device: alice, invites: bob)) == .connect(alice))
        #expect(b.role == .central(partner: alice))
        // B's own first message later does not change the roles.
        #expect(b.startSession(with: alice) == .none)
        // Seeing the invitation again (after a lost link) means: connect again.
        #expect(b.discovered(ChatAdvertisement(name: "Alice", device: alice, invites: bob)) == .connect(alice))
    }

    @Test("Two devices inviting each other: the lower ID stays peripheral, the other gives way")
    func mutualInvitation() {
        var a = ChatRendezvous(me: alice)
        var b = ChatRendezvous(me: bob)
        #expect(a.startSession(with: bob) == .invite(bob))
        #expect(b.startSession(with: alice) == .invite(alice))
        #expect(a.discovered(ChatAdvertisement(name: "Bob", device: bob, invites: alice)) == .none)
        #expect(a.role == .peripheral(partner: bob))
        #expect(b.discovered(ChatAdvertisement(name: "Alice", device: alice, invites: bob)) == .connect(alice))
        #expect(b.role == .central(partner: alice))
    }

    @Test("Invitations to others and our own advertisements are ignored")
    func othersIgnored() {
        var a = ChatRendezvous(me: alice)
        let carol = ChatDeviceID(rawValue: 0x30)
        #expect(a.discovered(ChatAdvertisement(name: "Bob", device: bob, invites: carol)) == .none)
        #expect(a.discovered(ChatAdvertisement(name: "Me", device: alice, invites: alice)) == .none)
        #expect(a.role == nil)
        #expect(a.startSession(with: carol) == .invite(carol))
        #expect(a.discovered(ChatAdvertisement(name: "Bob", device: bob, invites: alice)) == .none)
    }
}
