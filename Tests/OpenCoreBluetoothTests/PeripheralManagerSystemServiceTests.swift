import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

@Suite("CBPeripheralManager and the system's services", .simulatedOnMainActor, .timeLimit(.minutes(5)))
@MainActor
struct PeripheralManagerSystemServiceTests {
    final class AddRecorder: NSObject, @MainActor CBPeripheralManagerDelegate {
        var results: [(CBUUID, (any Error)?)] = []
        func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {}
        func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
            results.append((service.uuid, error))
        }
    }

    @Test("ANCS and AMS are refused with CBError.uuidNotAllowed, as iOS refuses them; another service is added")
    func systemServicesRefused() async throws {
        let world = try await DevicesWorld.make(devices: 1)
        let recorder = AddRecorder()
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        for uuid in ["7905F431-B5CE-4E99-A40F-4B1E122D00D0", "89D3502B-0F36-433A-8EF4-C502AD55F8DC", "FFE0"] {
            manager.add(CBMutableService(type: CBUUID(string: uuid), primary: true))
        }
        try await waitFor("three answers") { recorder.results.count == 3 }
        #expect(recorder.results.map { ($0.1 as? CBError)?.code } == [.uuidNotAllowed, .uuidNotAllowed, nil])
        #expect(recorder.results[0].1.map { ($0 as NSError).code } == 8)
        await world.close()
    }
}
