import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

/// The L2CAP SweynTooth attacks crossing a world: a peer's host hands its (honest) controller
/// ACL packets that no well-behaved host would, the air carries them as LL fragments, and
/// our controller and HCI driver on the other end refuse them (Core 5.4, Vol 4, Part E,
/// §5.4.2; Vol 3, Part A, §3.1) and still take the next frame.
@Suite("SweynTooth: L2CAP attacks across the air into our host's driver")
struct SweynToothOverTheAirTests {
    static let readRequest: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]

    /// A world with our device (central) connected to an attacker (peripheral).
    func connected(seed: UInt64) throws -> (DriverWorld, victim: DeviceID, attacker: DeviceID, attackerHandle: UInt16) {
        let harness = DriverWorld(seed: seed)
        let victim = harness.add("victim", address: 0xC0FF_EE00_0031, x: 0)
        let attacker = harness.add("attacker", address: 0xC0FF_EE00_0032, x: 1)
        let handles = try #require(harness.connect(central: victim, peripheral: attacker, peripheralAddress: 0xC0FF_EE00_0032))
        return (harness, victim, attacker, handles.1)
    }

    /// The attacker's host puts `bytes` straight into its controller, past its own driver.
    func inject(_ harness: DriverWorld, _ attacker: DeviceID, handle: UInt16, _ bytes: [UInt8], continuing: Bool) {
        harness.world.sendToController(.acl(HCI.ACLPacket(
            connectionHandle: handle, packetBoundary: continuing ? .continuing : .firstNonAutomaticallyFlushable, data: bytes[...])),
            device: attacker)
    }

    func frames(_ harness: DriverWorld, _ device: DeviceID) -> [[UInt8]] {
        harness.recorded(device).compactMap { if case let .l2capFrame(_, frame) = $0 { frame } else { nil } }
    }

    @Test("Invalid L2CAP Fragment (CVE-2019-19195) over the air: a continuation with no start is refused, the next frame arrives")
    func continuationWithoutStart() throws {
        let (harness, victim, attacker, handle) = try connected(seed: 41)
        inject(harness, attacker, handle: handle, [0x0A, 0x03, 0x00], continuing: true)
        #expect(harness.run(for: 500_000) { harness.driver(victim).counters.continuationWithoutStart == 1 })
        harness.send(attacker, frame: Self.readRequest, handle: handle)
        #expect(harness.run(for: 500_000) { !frames(harness, victim).isEmpty })
        #expect(frames(harness, victim) == [Self.readRequest])
    }

    @Test("Truncated L2CAP (CVE-2019-17517) over the air: a start shorter than its length is abandoned by the next frame")
    func truncatedStart() throws {
        let (harness, victim, attacker, handle) = try connected(seed: 42)
        inject(harness, attacker, handle: handle, [0x03, 0x00, 0x04, 0x00, 0x0A], continuing: false)
        harness.run(for: 200_000) { false }
        #expect(frames(harness, victim).isEmpty)
        harness.send(attacker, frame: Self.readRequest, handle: handle)
        #expect(harness.run(for: 500_000) { !frames(harness, victim).isEmpty })
        #expect(frames(harness, victim) == [Self.readRequest])
        #expect(harness.driver(victim).counters.incompleteFrames == 1)
    }

    @Test("Silent Length Overflow (CVE-2019-17518) with 251-octet lengths: our controller passes 114 octets up, our driver refuses them")
    func silentLengthOverflowAfterDataLengthUpdate() throws {
        let (harness, victim, attacker, handle) = try connected(seed: 43)
        harness.submit(attacker, HCI.LESetDataLength(connectionHandle: handle, txOctets: 251, txTime: 2120))
        harness.run(for: 300_000) { false }
        inject(harness, attacker, handle: handle, Self.readRequest + [UInt8](repeating: 0, count: 107), continuing: false)
        #expect(harness.run(for: 500_000) { harness.driver(victim).counters.overlongFrames == 1 })
        #expect(frames(harness, victim).isEmpty)
        harness.send(attacker, frame: Self.readRequest, handle: handle)
        #expect(harness.run(for: 500_000) { !frames(harness, victim).isEmpty })
        #expect(frames(harness, victim) == [Self.readRequest])
    }
}
