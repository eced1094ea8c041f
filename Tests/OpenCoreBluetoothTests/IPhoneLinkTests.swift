import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// The link an iPhone makes (iOS research §9, rule 19): ATT MTU 185, so that a write
/// without response carries 182 octets, and an LL data length update to 251 octets on every
/// new link.
@Suite("An iPhone's links", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct IPhoneLinkTests {
    @Test("Rule 19: connected, the central has ATT MTU 185 (182 octets per write) and sends data PDUs of 251 octets")
    func mtuAndDataLength() async throws {
        let device = try await BLEDevice.open(hci: "sim", bonds: .memory, profile: .iPhone)
        OpenCoreBluetooth.use(device, as: "iphone-link")
        let app = HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "iphone-link"])
        #expect(await eventually { app.measurements.count >= 1 })
        let sensor = try #require(app.sensor)
        #expect(sensor.maximumWriteValueLength(for: .withoutResponse) == 182)
        #expect(await eventually { device.connections.first?.dataLength != nil })
        let length = device.connections.first?.dataLength
        // What this side sends; what it receives stays the peer's choice (Vol 6, Part B, §4.5.10).
        #expect(length?.tx == 251, "\(String(describing: length))")
        await device.close()
    }

    @Test("A data length outside 27…251 is refused before it reaches the controller")
    func dataLengthRange() async throws {
        let device = try await neighbourhood("iphone-link-range")
        let app = HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "iphone-link-range"])
        #expect(await eventually { app.sensor?.state == .connected })
        let link = try #require(device.connections.first)
        for octets in [26, 252] {
            await #expect(throws: BLEError.invalidParameters("the data length must be 27…251 octets, not \(octets)")) {
                try await link.requestDataLength(octets: octets)
            }
        }
        await device.close()
    }
}
