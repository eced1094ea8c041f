import BLEController
import BLEWire
import BLEWorld
import Testing

/// Opens one receiver window at time 0 and counts what it receives (reported as vendor
/// events like ``TestListener``).
private struct OneWindow: SimulatedController {
    var window: ReceiverWindow
    private var opened = false

    init(_ window: ReceiverWindow) { self.window = window }

    var nextDeadline: Microseconds? { opened ? nil : 0 }

    mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        switch input {
        case .timer:
            opened = true
            return [.listen(window)]
        case let .radio(reception):
            let parameters: [UInt8] = [reception.transmission.channel, UInt8(bitPattern: reception.rssi)]
                + reception.transmission.pdu.dropFirst(2).prefix(4)
            return [.hci(.event(HCI.EventPacket(eventCode: .vendorSpecific, parameters: parameters[...])))]
        case .hci:
            return []
        }
    }

    mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] { [.stopListening] }
}

@Suite("World receiver windows")
struct ReceiverWindowTests {
    private func heard(with window: ReceiverWindow) -> [Microseconds] {
        let world = World(configuration: WorldConfiguration(seed: 31))
        // Packets start at 1,000 and 11,000 µs and last 288 µs.
        world.addDevice(DeviceDescription(name: "b", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000, firstAt: 1_000))
        let listener = world.addDevice(DeviceDescription(name: "l", position: Vector3(x: 1, y: 0, z: 0)), controller: OneWindow(window))
        let log = HostLog(world: world)
        world.run(until: 15_000)
        return log.heard(by: listener).map(\.time)
    }

    private let advertising = RadioTransmission.advertisingAccessAddress

    @Test("A packet that starts inside the window is received whole even if the window closes first")
    func lockOn() {
        #expect(heard(with: ReceiverWindow(channel: 37, phy: .le1M, accessAddress: advertising, opens: 900, closes: 1_100)) == [1_288])
    }

    @Test("A packet that started before the window opened, or after it closed, is not received")
    func outsideWindow() {
        #expect(heard(with: ReceiverWindow(channel: 37, phy: .le1M, accessAddress: advertising, opens: 1_050, closes: 5_000)).isEmpty)
        #expect(heard(with: ReceiverWindow(channel: 37, phy: .le1M, accessAddress: advertising, opens: 1_050, closes: nil)) == [11_288])
    }

    @Test("A receiver on another channel, PHY or access address hears nothing")
    func mismatch() {
        #expect(heard(with: ReceiverWindow(channel: 38, phy: .le1M, accessAddress: advertising, opens: 0, closes: nil)).isEmpty)
        #expect(heard(with: ReceiverWindow(channel: 37, phy: .le2M, accessAddress: advertising, opens: 0, closes: nil)).isEmpty)
        #expect(heard(with: ReceiverWindow(channel: 37, phy: .le1M, accessAddress: 0x1234_5678, opens: 0, closes: nil)).isEmpty)
        #expect(heard(with: ReceiverWindow(channel: 37, phy: .le1M, accessAddress: advertising, opens: 0, closes: nil)) == [1_288, 11_288])
    }
}
