import BLE
import SimulatedTesting
import Testing

@Suite("A device on a random static address", .simulated, .timeLimit(.minutes(3)))
struct RandomStaticAddressTests {
    @Test("its advertising, and its connections in both roles, carry the random static address")
    func bothRoles() async throws {
        let world = try await SharedWorld.make(devices: 3)
        let (randomDevice, peripheralDevice, centralDevice) = (world.devices[0], world.devices[1], world.devices[2])
        let ours = BluetoothAddress(0xC1_23_45_67_89_AB, kind: .random)
        try await randomDevice.useRandomStaticAddress(ours)

        // Central role: the peripheral sees the random address as its peer.
        _ = try await peripheralDevice.peripheral.advertise(name: "P", interval: .milliseconds(20))
        let outgoing = try await randomDevice.central.connect(to: world.addresses[1], timeout: .seconds(patience))
        let accepted = try await within {
            for await incoming in peripheralDevice.peripheral.connections { return incoming }
            throw TimedOut()
        }
        #expect(accepted.peer == ours)
        try await outgoing.disconnect()

        // Peripheral role: a scanner hears the random address and connects to it.
        _ = try await randomDevice.peripheral.advertise(name: "R", interval: .milliseconds(20))
        let heard = try await within {
            for await advertisement in try await centralDevice.central.scan() where advertisement.localName == "R" {
                return advertisement.address
            }
            throw TimedOut()
        }
        #expect(heard == ours)
        let incoming = try await centralDevice.central.connect(to: ours, timeout: .seconds(patience))
        #expect(incoming.peer == ours)
        try await incoming.disconnect()
        await world.close()
    }

    @Test("an address that is not random static is refused with invalidParameters")
    func refused() async throws {
        let world = try await SharedWorld.make(devices: 1)
        let device = world.devices[0]
        for address in [BluetoothAddress(0xC1_23_45_67_89_AB), BluetoothAddress(0x41_23_45_67_89_AB, kind: .random),
                        BluetoothAddress(0xFF_FF_FF_FF_FF_FF, kind: .random), BluetoothAddress(0xC0_00_00_00_00_00, kind: .random)] {
            await #expect {
                try await device.useRandomStaticAddress(address)
            } throws: { error in
                guard case BLEError.invalidParameters = error else { return false }
                return true
            }
        }
        await world.close()
    }
}
