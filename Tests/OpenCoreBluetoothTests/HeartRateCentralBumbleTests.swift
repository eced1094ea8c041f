import BLE
import BLEAdapter
import BLEHost
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

@Suite("The heart-rate central against Bumble's GATT server", .serialized, .ownThread,
       .enabled(if: bumbleInteropEnabled, "SWIFTBLE_INTEROP=0 turns it off"))
@MainActor
struct HeartRateCentralBumbleTests {
    @Test("Scan, connect, discover, subscribe, read: Apple's order against Interop/bumble_gatt_peer.py --heart-rate")
    func againstBumble() async throws {
        let controllers = try BumbleScript("bumble_controllers.py", ["-n", "2"])
        defer { controllers.stop() }
        let ready = try #require(await controllers.line(containing: "READY"), "\(controllers.lines)")
        let json = try #require(ready.split(separator: " ", maxSplits: 1).last)
        let ports = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["ports"] as? [Int])
        let server = try BumbleScript("bumble_gatt_peer.py", ["--port", "\(ports[1])", "--role", "server", "--heart-rate", "--stdin-lifeline"])
        defer { server.stop() }
        #expect(await server.line(containing: "\"advertising\"") != nil, "\(server.lines)")

        // Bumble's LocalLink routes ACL data by the controller's random address, so our
        // device advertises, scans and connects from a random static one (docs/bumble-quirks.md).
        // A hang guard, not a speed limit: in a full run's first minutes, when every suite starts
        // at once, this process has stalled for up to three minutes with Bumble's answer waiting.
        let adapter = try await Adapter.open(hci: "tcp:127.0.0.1:\(ports[0])", configuration: HCIDriverConfiguration(commandTimeout: 300_000_000))
        let device = try await BLEDevice.open(host: adapter.host) { await adapter.close() }
        do {
            try await device.useRandomStaticAddress(BluetoothAddress(0xC05F_0000_0001, kind: .random))
        } catch {
            Issue.record("useRandomStaticAddress: \(error)")
            throw error
        }
        OpenCoreBluetooth.use(device, as: "bumble")

        let central = HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "bumble"])
        central.discoverAllServices = true
        #expect(await eventually { central.log.contains("didUpdateValueFor 2A38") }, "\(central.log) \(server.lines)")
        #expect(await server.line(containing: "\"subscription\"") != nil)
        server.send(#"notify {"handle": "2A37", "count": 3, "size": 4}"#)
        #expect(await eventually { central.measurements.count >= 3 }, "\(central.log) \(server.lines)")
        #expect(central.log == [
            "didUpdateState 5", "didDiscover", "didConnect", "didDiscoverServices", "didDiscoverCharacteristicsFor 180D",
            "didUpdateNotificationStateFor 2A37 true", "didUpdateValueFor 2A38", "didUpdateValueFor 2A37",
        ])
        #expect(central.location == Data([1]))
        // The peer's sequence numbers (uint32 little-endian), in order.
        #expect(central.measurements.prefix(3).map { $0.prefix(4) } == [Data([0, 0, 0, 0]), Data([1, 0, 0, 0]), Data([2, 0, 0, 0])])
        let sensor = try #require(central.sensor)
        central.manager.cancelPeripheralConnection(sensor)
        #expect(await eventually { central.disconnected })
        #expect(central.disconnectError == nil)
        await device.close()
    }
}
