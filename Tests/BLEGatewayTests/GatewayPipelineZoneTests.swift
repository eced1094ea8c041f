import BLEFleet
import BLEFleetStore
import BLEGateway
import Foundation
import Logging
import Testing

/// The gateway's zone reaches the store with its first batch, so the back end places its
/// sightings in the zone the deployment named rather than in one named after the gateway.
@Suite("Gateway pipeline: the gateway's zone")
struct GatewayPipelineZoneTests {
    @Test("A gateway's zone is recorded in the store's gateways table once its first batch is written")
    func zoneRecorded() async throws {
        let directory = NSTemporaryDirectory() + "swiftble-pipeline-zone-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = DatabaseURL.sqlite(path: directory + "/fleet.sqlite")
        let pipeline = GatewayPipeline(spool: try SightingSpool(directory: directory + "/spool"), database: database,
                                       metrics: GatewayMetrics(gateway: "stop 2 gateway"), logger: Logger(label: "test"),
                                       zone: ("stop 2 gateway", "stop 2"))
        let sightings = (0 ..< 3).map { index in
            Sighting(gateway: "stop 2 gateway", run: 7, sequence: Int64(index), identity: "ibeacon:3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64:42:2",
                     address: "C0:B0:05:42:00:02", addressIsRandom: true, time: 1_000_000 * Int64(index), rssi: -70, txPower: -44, frame: [0x02, 0x01, 0x06])
        }
        await pipeline.submit(SightingBatch(sightings: sightings))
        await pipeline.close()
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        let gateways = try await store.gateways()
        await store.close()
        #expect(gateways.map(\.name) == ["stop 2 gateway"])
        #expect(gateways.first?.zone == "stop 2")
    }
}
