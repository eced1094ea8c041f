import BLEBeacons
import BLEFleet
import BLEGateway
import BLEWire
import Testing

@Suite("Gateway core: sequencing and batching")
struct GatewayCoreTests {
    static let beacon = GatewayFilterTests.iBeaconBytes(GatewayFilterTests.busUUID, 42, 1)
    static let address = GatewayFilterTests.someAddress

    @Test("Kept sightings are numbered from 0 without gaps, and reports it does not keep take no number")
    func sequencesWithoutGaps() {
        var core = GatewayCore(name: "stop 1", run: 7, filter: GatewayFilter(rules: []), batching: .init(maximumCount: 3))
        var batches: [SightingBatch] = []
        for index in 0 ..< 7 {
            batches += core.receive(address: Self.address, rssi: -70, data: index % 2 == 0 ? Self.beacon : [0x02, 0x01, 0x06],
                                    time: Int64(index) * 100_000)
        }
        batches += core.flush().map { [$0] } ?? []
        let sightings = batches.flatMap(\.sightings)
        #expect(sightings.map(\.sequence) == [0, 1, 2, 3])
        #expect(sightings.allSatisfy { $0.gateway == "stop 1" && $0.run == 7 && $0.rssi == -70 && $0.frame == Self.beacon })
        #expect(batches.map(\.count) == [3, 1])
        #expect(core.counts.received == 7 && core.counts.kept == 4)
    }

    @Test("A batch falls due when its first sighting is as old as the maximum age")
    func batchesByAge() {
        var core = GatewayCore(name: "g", run: 1, filter: GatewayFilter(rules: []), batching: .init(maximumCount: 100, maximumAge: 1_000_000))
        _ = core.receive(address: Self.address, rssi: -60, data: Self.beacon, time: 5_000_000)
        #expect(core.nextDeadline == 6_000_000)
        #expect(core.due(at: 5_999_999) == nil)
        #expect(core.due(at: 6_000_000)?.count == 1)
        #expect(core.nextDeadline == nil)
    }

    @Test("A report without RSSI is counted and not kept")
    func noRSSI() {
        var core = GatewayCore(name: "g", run: 1, filter: GatewayFilter(rules: []))
        _ = core.receive(address: Self.address, rssi: nil, data: Self.beacon, time: 0)
        #expect(core.flush() == nil)
        #expect(core.counts.withoutRSSI == 1)
    }
}
