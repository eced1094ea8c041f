import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

@Suite("Apple-platform central code, unchanged, on the embedded neighbourhood", .simulatedOnMainActor,
       .timeLimit(.minutes(10)))
@MainActor
struct AppleStyleCentralTests {
    @Test("Writes, descriptors, RSSI and a refused L2CAP channel, in request order")
    func explorer() async throws {
        let device = try await neighbourhood("apple-style")
        let explorer = SensorExplorer(options: [OpenCoreBluetoothControllerOptionKey: "apple-style"])
        #expect(await eventually { explorer.events.contains("disconnected") })
        #expect(explorer.events == ["wrote 2A39", "descriptor 2902", "no channel", "max write 512", "disconnected"])
        #expect(explorer.configuration == NSNumber(value: 0))
        // The embedded controller answers Read RSSI (127 when it has no value, Vol 4, Part E, §7.5.4).
        #expect(explorer.rssi.map { (-127 ... 127).contains($0.intValue) } == true)
        #expect(explorer.channelError is CBError)
        await device.close()
    }
}
