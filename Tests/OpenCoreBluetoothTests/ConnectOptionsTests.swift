import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A central delegate that remembers the peripheral it found and each call, with its time
/// on the test's clock.
@MainActor
final class ConnectionRecorder: NSObject, @MainActor CBCentralManagerDelegate {
    var found: CBPeripheral?
    var calls: [(name: String, time: Int64)] = []

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard found == nil, advertisementData[CBAdvertisementDataLocalNameKey] as? String == "Target" else { return }
        found = peripheral
        central.stopScan()
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        calls.append(("didConnect", testClock.microseconds))
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, timestamp: CFAbsoluteTime,
                        isReconnecting: Bool, error: (any Error)?) {
        calls.append(("didDisconnect reconnecting=\(isReconnecting)", testClock.microseconds))
    }
}

/// `connect(_:options:)`'s start delay and automatic reconnection (iOS research §9, rule 17).
@Suite("CBCentralManager connection options", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct ConnectOptionsTests {
    /// Two devices; the first advertises as "Target", the second's central manager found it.
    private func targetFound() async throws -> (DevicesWorld, CBCentralManager, ConnectionRecorder) {
        let world = try await DevicesWorld.make(devices: 2)
        _ = try await world.devices[0].peripheral.advertise(name: "Target")
        let recorder = ConnectionRecorder()
        let central = CBCentralManager(delegate: recorder, queue: nil, options: world.options(1))
        try await waitFor("the target") { recorder.found != nil }
        return (world, central, recorder)
    }

    @Test("StartDelay holds the first attempt back by its seconds")
    func startDelay() async throws {
        let (world, central, recorder) = try await targetFound()
        let target = try #require(recorder.found)
        let asked = testClock.microseconds
        central.connect(target, options: [CBConnectPeripheralOptionStartDelayKey: NSNumber(value: 5)])
        try await waitFor("the connection") { !recorder.calls.isEmpty }
        #expect(recorder.calls.first?.name == "didConnect")
        #expect((recorder.calls.first?.time ?? 0) - asked >= 5_000_000)
        central.cancelPeripheralConnection(target)
        await world.close()
    }

    @Test("EnableAutoReconnect: a drop the app did not ask for says isReconnecting, and the link comes back by itself")
    func autoReconnect() async throws {
        let (world, central, recorder) = try await targetFound()
        let target = try #require(recorder.found)
        let peripheral = world.devices[0].peripheral
        central.connect(target, options: [CBConnectPeripheralOptionEnableAutoReconnect: true])
        try await waitFor("the connection") { recorder.calls.count == 1 }
        let link = try #require(world.devices[0].connections.first)
        try await link.disconnect()
        try await waitFor("the drop") { recorder.calls.count == 2 }
        #expect(recorder.calls[1].name == "didDisconnect reconnecting=true")
        _ = try await peripheral.advertise(name: "Target")
        try await waitFor("the reconnection") { recorder.calls.count == 3 }
        #expect(recorder.calls[2].name == "didConnect")
        #expect(target.state == .connected)
        // The app's own cancel ends it for good.
        central.cancelPeripheralConnection(target)
        try await waitFor("the cancel") { recorder.calls.count == 4 }
        #expect(recorder.calls[3].name == "didDisconnect reconnecting=false")
        await world.close()
    }
}
