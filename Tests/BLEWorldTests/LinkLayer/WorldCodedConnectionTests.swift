import BLEController
import BLEWire
import BLEWorld
import Foundation
import Testing

@Suite("World: a connection on LE Coded PHY")
struct WorldCodedConnectionTests {
    /// Where a 0 dBm packet arrives at −99 dBm under the default model (40 dB at 1 m,
    /// exponent 2.5): 4 dB under a −95 dBm receiver's LE 1M sensitivity, 4 dB over its
    /// LE Coded S=8 one (−103 dBm).
    static let distance = pow(10, (99.0 - 40) / 25)

    /// Connects two Coded-capable controllers 1 m apart, moves the link to LE Coded when
    /// `coded`, then carries the central out to ``distance`` and has it send 160 octets
    /// (its eight LE ACL buffers' worth) over 3 s of virtual time. Returns the world, the devices and the handles.
    static func run(coded: Bool) throws -> (HostedWorld, central: DeviceID, peripheral: DeviceID, sent: [UInt8]) {
        let hosted = HostedWorld(seed: 34, capturesHCI: false)
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1, codedPHY: true)
        let central = hosted.add("central", at: Vector3(x: 1, y: 0), address: 0xF0_00_00_00_00_02, seed: 2, codedPHY: true)
        // LE PHY Update Complete is not in the LE event mask after reset (Vol 4, Part E, §7.8.1).
        for device in [peripheral, central] {
            hosted.command(device, HCI.LESetEventMask(leEventMask: HCI.LEEventMask(rawValue: 0x1F).union(.phyUpdateComplete)))
        }
        hosted.advertise(peripheral, interval: 32)
        let handles = try #require(hosted.connect(central, to: peripheral, address: 0xF0_00_00_00_00_01, interval: 24))
        if coded {
            hosted.command(central, HCI.LESetPHY(connectionHandle: handles.central, txPHYs: .leCoded, rxPHYs: .leCoded, phyOptions: .s8))
        }
        hosted.world.run(until: hosted.world.now + 500_000)
        hosted.world.move(central, to: Vector3(x: distance, y: 0))
        let sent = (0 ..< 160).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        for start in stride(from: 0, to: sent.count, by: 20) {
            hosted.world.sendToController(.acl(HCI.ACLPacket(
                connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable,
                data: sent[start ..< start + 20])), device: central)
        }
        hosted.world.run(until: hosted.world.now + 3_000_000)
        return (hosted, central, peripheral, sent)
    }

    /// The disconnection reasons one device's host was told.
    static func disconnections(_ hosted: HostedWorld, _ device: DeviceID) -> [HCI.StatusCode] {
        hosted.events[device.rawValue].compactMap { item in
            if case let .disconnectionComplete(done) = item.event { return done.reason }
            return nil
        }
    }

    @Test("The world's truth at the test distance: under 1M's sensitivity, over Coded S=8's")
    func distanceIsBetweenSensitivities() throws {
        let (hosted, central, peripheral, _) = try Self.run(coded: true)
        let power = try #require(hosted.world.receivedPowerDBm(from: central, to: peripheral, txPowerDBm: 0))
        #expect(abs(power - -99) < 0.01)
        #expect(power < RadioModel.sensitivityDBm(-95, on: .le1M))
        #expect(power > RadioModel.sensitivityDBm(-95, on: .leCoded(.s8)))
    }

    @Test("A link updated to LE Coded S=8 keeps working where LE 1M packets are no longer received")
    func codedLinkKeepsWorking() throws {
        let (hosted, central, peripheral, sent) = try Self.run(coded: true)
        let updates = hosted.events[central.rawValue].compactMap { item -> HCI.LEPHYUpdateComplete? in
            if case let .leMeta(.phyUpdateComplete(done)) = item.event { return done }
            return nil
        }
        #expect(updates.map(\.txPHY) == [.leCoded] && updates.map(\.rxPHY) == [.leCoded])
        #expect(Self.disconnections(hosted, central).isEmpty && Self.disconnections(hosted, peripheral).isEmpty)
        #expect(hosted.acl[peripheral.rawValue].flatMap { Array($0.packet.data) } == sent)
    }

    @Test("The same link left on LE 1M is lost there: nothing arrives and it ends by supervision timeout (0x08)")
    func oneMegabitLinkIsLost() throws {
        let (hosted, central, peripheral, _) = try Self.run(coded: false)
        #expect(hosted.acl[peripheral.rawValue].isEmpty)
        #expect(Self.disconnections(hosted, central) == [.connectionTimeout])
        #expect(Self.disconnections(hosted, peripheral) == [.connectionTimeout])
    }
}
