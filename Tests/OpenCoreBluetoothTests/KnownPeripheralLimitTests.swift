import BLE
import Foundation
@testable import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// The manager's table of peripherals seen is bounded (docs/limits.md): past the limit it
/// forgets the idle peripherals nobody holds, and keeps one object per peer for the rest.
@Suite("CBCentralManager: bounded table of peripherals seen", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct KnownPeripheralLimitTests {
    @Test("3,000 private addresses seen once leave at most 1,024 peripherals; one the app holds stays the same object")
    func forgetsUnheldPeripherals() async throws {
        let device = try await neighbourhood("known-limit")
        let manager = CBCentralManager(delegate: nil, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: "known-limit"])
        #expect(await eventually { manager.state == .poweredOn })
        let open = try #require(manager.device)
        let held = manager.peripheral(at: BluetoothAddress(0x4000_0000_0001, kind: .random), on: open)
        for index in 0 ..< 3_000 {
            _ = manager.peripheral(at: BluetoothAddress(UInt64(0x5000_0000_0000 + index), kind: .random), on: open)
            #expect(manager.knownPeripheralCount <= CBCentralManager.knownPeripheralLimit)
        }
        #expect(manager.forgottenPeripherals > 0)
        #expect(manager.knownPeripheralCount + manager.forgottenPeripherals == 3_001)
        // The held peripheral was never forgotten: the same object, found by identifier.
        #expect(manager.peripheral(at: held.address, on: open) === held)
        #expect(manager.retrievePeripherals(withIdentifiers: [held.identifier]).first === held)
        // A forgotten peer comes back under the identifier it had.
        let first = BluetoothAddress(0x5000_0000_0000, kind: .random)
        #expect(manager.peripheral(at: first, on: open).identifier.uuidString == open.observerScopedIdentifier(for: first))
        await device.close()
    }
}
