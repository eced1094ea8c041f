import BLEController
import BLEWire
import BLEWorld
import Foundation
import Testing

/// A connection made on LE Coded from the start (Core 5.4, Vol 6, Part B, §4.5): the
/// initiator answers a connectable extended set's AUX_ADV_IND on LE Coded with
/// AUX_CONNECT_REQ, and the world receives the link's packets with the Coded sensitivity.
@Suite("World: a connection made on LE Coded PHY")
struct WorldCodedConnectionMadeOnCodedTests {
    /// Two Coded-capable controllers ``WorldCodedConnectionTests/distance`` apart (a packet
    /// arrives at −99 dBm: under LE 1M's sensitivity, over LE Coded S=8's). The peripheral
    /// advertises a connectable set on `phy` (both channel kinds), the central initiates on
    /// that primary PHY and, once connected, sends 100 octets. Returns the world and devices.
    static func run(on phy: HCI.PHY) -> (HostedWorld, central: DeviceID, peripheral: DeviceID, sent: [UInt8]) {
        let hosted = HostedWorld(seed: 35, capturesHCI: false)
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1, codedPHY: true)
        let central = hosted.add(
            "central", at: Vector3(x: WorldCodedConnectionTests.distance, y: 0), address: 0xF0_00_00_00_00_02, seed: 2, codedPHY: true)
        hosted.command(peripheral, HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: [.connectable], primaryAdvertisingIntervalMin: 0x0040,
            primaryAdvertisingIntervalMax: 0x0040, ownAddressType: .public, primaryAdvertisingPHY: phy, secondaryAdvertisingPHY: phy))
        hosted.command(peripheral, HCI.LESetExtendedAdvertisingEnable(
            enable: true, sets: [.init(advertisingHandle: 0, duration: 0, maxExtendedAdvertisingEvents: 0)]))
        let parameters = HCI.LEExtendedCreateConnection.PHYParameters(
            scanInterval: 0x0040, scanWindow: 0x0040,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 24, connectionIntervalMax: 24, maxLatency: 0, supervisionTimeout: 200))
        hosted.command(central, HCI.LEExtendedCreateConnection(
            ownAddressType: .public, peerAddressType: .public, peerAddress: BluetoothAddress(0xF0_00_00_00_00_01),
            le1M: phy == .le1M ? parameters : nil, le2M: nil, leCoded: phy == .leCoded ? parameters : nil))
        hosted.world.run(until: hosted.world.now + 2_000_000)
        let sent = (0 ..< 100).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        if let handle = hosted.connectionHandle(central) {
            for start in stride(from: 0, to: sent.count, by: 20) {
                hosted.world.sendToController(.acl(HCI.ACLPacket(
                    connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable,
                    data: sent[start ..< start + 20])), device: central)
            }
        }
        hosted.world.run(until: hosted.world.now + 2_000_000)
        return (hosted, central, peripheral, sent)
    }

    @Test("Connected on LE Coded S=8 where LE 1M is not heard, the link carries data both hosts' controllers report on Coded")
    func codedConnectionCarriesData() throws {
        let (hosted, central, peripheral, sent) = Self.run(on: .leCoded)
        let handle = try #require(hosted.connectionHandle(central))
        #expect(hosted.connectionHandle(peripheral) != nil)
        #expect(hosted.acl[peripheral.rawValue].flatMap { Array($0.packet.data) } == sent)
        guard case let .commandComplete(read)? = hosted.command(central, HCI.LEReadPHY(connectionHandle: handle)) else {
            Issue.record("no Command Complete")
            return
        }
        let phys = try read.returnParameters(for: HCI.LEReadPHY.self)
        #expect(phys.txPHY == .leCoded && phys.rxPHY == .leCoded)
    }

    @Test("The same set on LE 1M at that distance is never connected")
    func oneMegabitNeverConnects() {
        let (hosted, central, peripheral, _) = Self.run(on: .le1M)
        #expect(hosted.connectionHandle(central) == nil && hosted.connectionHandle(peripheral) == nil)
    }
}
