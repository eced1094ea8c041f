import BLEController
import BLEWire
import BLEWorld
import Testing

/// The faults `ble sim serve` injects (`--loss`, `--drop-link-after`), on real controllers.
@Suite("Link faults in the world")
struct WorldLinkFaultTests {
    @Test("With 10 % of packets lost on air the link layer still delivers every ACL packet once, in order")
    func lossRecoveredByRetransmission() throws {
        let hosted = HostedWorld(seed: 41, capturesHCI: false)
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1)
        let central = hosted.add("central", at: Vector3(x: 1, y: 0), address: 0xF0_00_00_00_00_02, seed: 2)
        hosted.advertise(peripheral, interval: 32)
        let handles = try #require(hosted.connect(central, to: peripheral, address: 0xF0_00_00_00_00_01, interval: 6))
        hosted.world.setPacketLoss(0.1, among: [central, peripheral])

        let count = 300
        var next = 0
        var credits = 4
        func pump() {
            while credits > 0, next < count {
                credits -= 1
                let payload = (0 ..< 20).map { UInt8(truncatingIfNeeded: next &+ $0) }
                hosted.world.sendToController(.acl(HCI.ACLPacket(
                    connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: payload[...])),
                    device: central)
                next += 1
            }
        }
        hosted.onEvent = { device, event in
            guard device == central, case let .numberOfCompletedPackets(done) = event else { return }
            credits += done.entries.reduce(0) { $0 + Int($1.numCompletedPackets) }
            pump()
        }
        pump()
        hosted.world.run(until: hosted.world.now + 30_000_000)
        let received = hosted.acl[peripheral.rawValue].map { [UInt8]($0.packet.data) }
        let expected = (0 ..< count).map { index in (0 ..< 20).map { UInt8(truncatingIfNeeded: index &+ $0) } }
        #expect(received.count == count)
        #expect(received == expected)
        let losses = hosted.world.statistics[central].losses + hosted.world.statistics[peripheral].losses
        print("10 % loss: \(losses) packets lost on air, \(count) ACL packets delivered")
        #expect(losses > 20)
        // The connection survived the loss.
        #expect(hosted.connectionHandle(central) == handles.central)
    }

    @Test("A silent link drop ends the connection by supervision timeout on both sides, then lets them reconnect")
    func silentDrop() throws {
        let hosted = HostedWorld(seed: 42, capturesHCI: false)
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1)
        let central = hosted.add("central", at: Vector3(x: 1, y: 0), address: 0xF0_00_00_00_00_02, seed: 2)
        let drop = SilentLinkDrop(devices: [central, peripheral], after: 500_000)
        var phases: [SilentLinkDrop.Phase] = []
        drop.onPhaseChange = { phases.append($0) }
        hosted.onEvent = { device, event in drop.observe(event, to: device, in: hosted.world) }
        hosted.advertise(peripheral, interval: 32)
        let handles = try #require(hosted.connect(central, to: peripheral, address: 0xF0_00_00_00_00_01, interval: 6))
        hosted.world.run(until: hosted.world.now + 5_000_000)

        guard phases.count == 3, case let .scheduled(at) = phases[0], case let .blocked(since) = phases[1],
              case let .restored(restored) = phases[2] else {
            Issue.record("phases: \(phases)")
            return
        }
        #expect(since == at)
        #expect(drop.phase == .restored(at: restored))
        for (device, handle) in [(central, handles.central), (peripheral, handles.peripheral)] {
            let ends = hosted.events[device.rawValue].compactMap { item -> (Microseconds, HCI.DisconnectionComplete)? in
                guard case let .disconnectionComplete(done) = item.event else { return nil }
                return (item.at, done)
            }
            #expect(ends.count == 1)
            #expect(ends.first?.1.connectionHandle == handle)
            #expect(ends.first?.1.reason == .connectionTimeout)
            // The supervision timeout is 2 s (200 × 10 ms) from the last packet received, at
            // most one 7.5 ms connection interval before the wall went up.
            let end = try #require(ends.first?.0)
            #expect(end >= since + 2_000_000 - 7_500, "ended at \(end), blocked at \(since)")
            #expect(end <= since + 2_000_000 + 7_500, "ended at \(end), blocked at \(since)")
            #expect(end <= restored)
        }
        // The wall is gone: advertising and connecting work again.
        hosted.advertise(peripheral, interval: 32)
        #expect(hosted.connect(central, to: peripheral, address: 0xF0_00_00_00_00_01, interval: 6) != nil)
    }
}
