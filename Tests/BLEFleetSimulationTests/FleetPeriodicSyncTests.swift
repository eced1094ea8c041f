import BLEFleetSimulation
import BLEWorld
import Testing

/// A fleet gateway that synchronises to a periodic train (`scan: {extended: true, sync: NAME}`,
/// Core 5.4, Vol 4, Part E, §7.8.67) keeps sightings from its events' data, joined from their
/// LE Periodic Advertising Reports (§7.7.65.15).
@Suite("Fleet gateways synchronised to periodic advertising")
struct FleetPeriodicSyncTests {
    static let uuid = "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51"

    /// A sign whose advertising data holds only its name and whose periodic train holds an
    /// iBeacon frame and 240 octets more (two reports an event), and a gateway keeping that
    /// iBeacon UUID, synchronised to the train.
    static let yaml = """
        name: periodic gateway
        seed: 3
        devices:
          - name: sign
            address: "C0:00:00:00:00:01"
            addressType: random
            position: [0, 0, 2]
            advertise:
              type: nonconn_ind
              extended: true
              interval: 100
              name: Sign
              periodic:
                interval: 250
                iBeacon: {uuid: \(uuid), major: 7, minor: 8}
                manufacturer: {company: 0xFFFF, data: "\(String(repeating: "3c", count: 240))"}
          - name: hall gateway
            address: "C0:00:00:00:00:02"
            addressType: random
            position: [4, 0, 2]
            scan: {interval: 100, window: 100, extended: true, sync: sign}
            gateway: {zone: hall, keep: {ibeacon: [\(uuid)]}}
        """

    @Test("The gateway keeps the iBeacon of the periodic data, which its advertising data does not carry")
    func gatewayKeepsPeriodicData() throws {
        let run = try FleetWorldRun(scenario: try ScenarioLoader.parse(yaml: Self.yaml, file: "periodic-gateway.yaml"))
        run.run(until: 5)
        let sightings = run.batches.flatMap(\.sightings).filter { $0.gateway == "hall gateway" }
        let counts = try #require(run.advertisementCounts["hall gateway"])
        #expect(counts.periodic >= 10)
        #expect(sightings.count == counts.periodic)
        #expect(sightings.allSatisfy { $0.identity == "ibeacon:\(Self.uuid):7:8" })
    }
}
