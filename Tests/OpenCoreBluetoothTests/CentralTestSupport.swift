import BLE
import Foundation
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

/// How long a test waits for a delegate call before it fails (machines are shared).
let patience: Duration = .seconds(60)

/// Waits until `condition` holds, checking after each turn of the main queue (where the
/// delegate calls arrive), for at most ``patience``; returns whether it held.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + patience
    while !condition() {
        guard clock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
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
