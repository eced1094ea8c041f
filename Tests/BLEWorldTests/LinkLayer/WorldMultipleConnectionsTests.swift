import BLEController
import BLEWire
import BLEWorld
import Testing

/// One controller in several connections at once, and in both roles at once.
@Suite("Several connections in the world")
struct WorldMultipleConnectionsTests {
    @Test("A central holds three connections and data reaches every peripheral")
    func threePeripherals() throws {
        let hosted = HostedWorld(seed: 21, capturesHCI: false)
        let central = hosted.add("central", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_10, seed: 10)
        var links: [(peripheral: DeviceID, central: UInt16, peripheralHandle: UInt16)] = []
        for index in 1 ... 3 {
            let address = 0xF0_00_00_00_00_10 + UInt64(index)
            let peripheral = hosted.add("peripheral \(index)", at: Vector3(x: Double(index), y: 1), address: address, seed: UInt64(index))
            hosted.advertise(peripheral, interval: 48)
            let handles = try #require(hosted.connect(central, to: peripheral, address: address, interval: 40))
            links.append((peripheral, handles.central, handles.peripheral))
        }
        #expect(Set(links.map(\.central)).count == 3, "distinct handles")
        for (index, link) in links.enumerated() {
            let frame = L2CAP.BasicFrame(channelIdentifier: .attributeProtocol, payload: [UInt8](repeating: UInt8(index), count: 60)[...]).encoded()
            hosted.world.sendToController(.acl(HCI.ACLPacket(
                connectionHandle: link.central, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...])), device: central)
        }
        hosted.world.run(until: hosted.world.now + 2_000_000)
        for (index, link) in links.enumerated() {
            let received = hosted.acl[link.peripheral.rawValue].flatMap { Array($0.packet.data) }
            #expect(received.count == 64, "peripheral \(index + 1) got \(received.count) octets")
            #expect(received.dropFirst(4).allSatisfy { $0 == UInt8(index) })
            #expect(hosted.connectionHandle(link.peripheral) == link.peripheralHandle, "link \(index + 1) still up")
        }
    }

    @Test("A device advertises and stays connectable as a peripheral while it is a central")
    func bothRoles() throws {
        let hosted = HostedWorld(seed: 22, capturesHCI: false)
        let a = hosted.add("a", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_21, seed: 1)
        let b = hosted.add("b", at: Vector3(x: 2, y: 0), address: 0xF0_00_00_00_00_22, seed: 2)
        let c = hosted.add("c", at: Vector3(x: 0, y: 2), address: 0xF0_00_00_00_00_23, seed: 3)
        hosted.advertise(b, interval: 48)
        let ab = try #require(hosted.connect(a, to: b, address: 0xF0_00_00_00_00_22, interval: 40))
        hosted.advertise(a, interval: 48)
        let ca = try #require(hosted.connect(c, to: a, address: 0xF0_00_00_00_00_21, interval: 40))
        hosted.world.run(until: hosted.world.now + 2_000_000)
        #expect(hosted.connectionHandle(a) != nil)
        #expect(hosted.connectionHandle(b) == ab.peripheral, "a–b still up")
        #expect(hosted.connectionHandle(c) == ca.central, "c–a still up")
    }
}
