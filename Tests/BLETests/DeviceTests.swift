import BLE
import SimulatedTesting
import Testing

@Suite("Opening devices and using both roles at once", .simulated, .timeLimit(.minutes(3)))
struct DeviceTests {
    @Test("open(hci: \"sim\") starts the host on the embedded neighbourhood and finds the strap")
    func openEmbeddedWorld() async throws {
        // A patient command timeout: the whole suite starves the embedded world for seconds.
        let device = try await BLEDevice.open(hci: "sim", commandTimeout: .seconds(patience))
        #expect(device.address == BluetoothAddress(0xF0_5B_1E_00_00_00))
        let scan = try await device.central.scan(filter: ScanFilter(namePrefix: "Polar"))
        let strap = try await first(of: scan) { _ in true }
        #expect(strap.address == strapAddress)
        await device.close()
        await #expect(throws: BLEError.closed) {
            _ = try await device.peripheral.advertise(name: "Too late")
        }
    }

    @Test("a spec that names no controller throws controllerUnavailable with the adapter's sentence")
    func badSpec() async throws {
        let error = await #expect(throws: BLEError.self) {
            _ = try await BLEDevice.open(hci: "carrier-pigeon:1")
        }
        guard case let .controllerUnavailable(sentence)? = error else {
            Issue.record("expected controllerUnavailable, got \(String(describing: error))")
            return
        }
        #expect(sentence.contains("--hci carrier-pigeon:1 is not a controller"))
    }

    @Test("one device is a peripheral of one peer and the central of another at the same time")
    func bothRolesAtOnce() async throws {
        let world = try await SharedWorld.make(devices: 3)
        let (middle, left, right) = (world.devices[0], world.devices[1], world.devices[2])
        // The middle device advertises and the left one connects to it...
        _ = try await middle.peripheral.advertise(name: "Middle", interval: .milliseconds(20))
        let fromLeft = try await left.central.connect(to: world.addresses[0], timeout: .seconds(patience))
        let accepted = try await within {
            for await connection in middle.peripheral.connections { return connection }
            throw TimedOut()
        }
        // ...while it scans for the right one and connects to it, still scanning.
        _ = try await right.peripheral.advertise(name: "Right", interval: .milliseconds(20))
        let scan = try await middle.central.scan(filter: ScanFilter(namePrefix: "Right"))
        let found = try await first(of: scan) { _ in true }
        #expect(found.address == world.addresses[2])
        let toRight = try await middle.central.connect(to: found, timeout: .seconds(patience))
        #expect(accepted.role == .peripheral && accepted.peer == world.addresses[1])
        #expect(toRight.role == .central && toRight.peer == world.addresses[2])
        #expect(Set(middle.connections) == [accepted, toRight])
        #expect(fromLeft.isConnected)
        await world.close()
    }

    @Test("cancelling the task of a connection attempt cancels the attempt")
    func cancelConnect() async throws {
        let world = try await SharedWorld.make(devices: 1)
        let central = world.devices[0].central
        let nobody = BluetoothAddress(0xC0_FF_EE_00_00_02, kind: .random)
        let attempt = Task { try await central.connect(to: nobody, timeout: .seconds(patience)) }
        // Give the attempt time to reach the controller; cancelling earlier is also
        // handled, but this tests LE Create Connection Cancel.
        try await testClock.sleep(for: .milliseconds(100))
        attempt.cancel()
        let outcome = try await within { await attempt.result }
        #expect(throws: BLEError.cancelled) { try outcome.get() }
        await world.close()
    }
}
