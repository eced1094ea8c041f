import BLE
import Foundation
import SimulatedTesting
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

/// How long a test waits for a delegate call before it fails: machines are shared, and the
/// first minutes of a full run, when every suite starts at once, have stalled wall-clock tests
/// for over a minute and a half.
let patience: Duration = .seconds(300)

/// Waits until `condition` holds, checking every 20 ms on the test's clock (simulated
/// time in a `.simulated` test, where each check comes once the simulation has settled),
/// for at most ``patience``; returns whether it held.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    let clock = testClock
    let deadline = clock.microseconds + patience.wholeMicroseconds
    while !condition() {
        guard clock.microseconds < deadline else { return false }
        try? await clock.sleep(for: .milliseconds(20))
    }
    return true
}

/// A fresh embedded neighbourhood (its own world) for one test, registered with
/// OpenCoreBluetooth under a name no other test uses; the caller closes the device.
func neighbourhood(_ name: String) async throws -> BLEDevice {
    let device = try await BLEDevice.open(hci: "sim", bonds: .memory)
    OpenCoreBluetooth.use(device, as: name)
    return device
}
