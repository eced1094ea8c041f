import BLE
import BLEWire
import BLEWorld
import Foundation
@testable import OpenCoreBluetooth
import SimulatedTesting
import Testing

@Suite("OpenCoreBluetooth's own devices hide their public address", .simulated)
struct PrivateAddressTests {
    @Test("A device the managers open advertises, scans and connects from a resolvable private address, as an iPhone")
    func privateAddress() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-privacy-\(UUID().uuidString).yaml").path
        try Scenario.neighbourhoodYAML.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let spec = "sim:\(path)"
        let device = try await CBDeviceHub.shared.device(for: spec).get()
        let current = await device.currentPrivateAddress
        let address = try #require(current, "privacy is on")
        // A resolvable private address: random, the two top bits 01 (Core 5.4, Vol 6, Part B, §1.3.2.2).
        #expect(address.kind == .random && address.value >> 46 == 0b01, "\(address)")
        #expect(address.value != device.address?.value)
        await CBDeviceHub.shared.close(spec)
    }
}
