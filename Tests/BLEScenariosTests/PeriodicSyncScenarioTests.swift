import BLEScenarios
import BLEWire
import BLEWorld
import Testing

/// Periodic advertising in a scenario (Core 5.4, Vol 6, Part B, §4.4.2.12): a set's train of
/// AUX_SYNC_INDs, and an observer that synchronises to it (`scan: {sync: NAME}`: LE Periodic
/// Advertising Create Sync, Vol 4, Part E, §7.8.67) and reads each event's data, joined from
/// its LE Periodic Advertising Reports (§7.7.65.15).
@Suite("Scenario observers synchronise to periodic advertising")
struct PeriodicSyncScenarioTests {
    static let uuid = "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51"

    /// A set with a short name in its advertising data and, every 200 ms, 400 octets of
    /// periodic data (an iBeacon frame first, two reports' worth); one observer synchronises,
    /// another only scans.
    static let yaml = """
        name: periodic train
        seed: 9
        devices:
          - name: sign
            address: "C0:00:00:00:00:01"
            addressType: random
            position: [0, 0, 1]
            advertise:
              type: nonconn_ind
              extended: true
              interval: 100
              name: Sign
              periodic:
                interval: 200
                iBeacon: {uuid: \(uuid), major: 5, minor: 6}
                manufacturer: {company: 0xFFFF, data: "\(String(repeating: "a5", count: 240))"}
          - name: synced
            address: "C0:00:00:00:00:02"
            addressType: random
            position: [3, 0, 1]
            scan: {interval: 100, window: 100, extended: true, sync: sign}
            observe:
              monitor: [{identifier: sign, uuid: \(uuid)}]
          - name: scanning only
            address: "C0:00:00:00:00:03"
            addressType: random
            position: [-3, 0, 1]
            scan: {interval: 100, window: 100, extended: true}
            observe:
              monitor: [{identifier: sign, uuid: \(uuid)}]
        """

    @Test("A synchronised observer gets each periodic event's data whole and reads its iBeacon; one that only scans does not")
    func synchronisedObserver() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, file: "periodic.yaml")
        let expected = try #require(scenario.device(named: "sign")?.advertising?.extended?.periodic?.data.payload(isScanResponse: true))
        let runner = try ScenarioRunner(scenario: scenario)
        var heard: [String: [ScannedAdvertisement]] = [:]
        runner.onAdvertisement = { observer, advertisement in heard[observer, default: []].append(advertisement) }
        let timeline = runner.run(until: 5)
        #expect(runner.built.failures.isEmpty, "\(runner.built.failures)")
        #expect(expected.count > 247)
        let periodic = (heard["synced"] ?? []).filter(\.periodic)
        // About one event every 200 ms once synchronised.
        #expect(periodic.count >= 10)
        #expect(periodic.allSatisfy { $0.truncated || ($0.data == expected && $0.address == BluetoothAddress(0xC0_00_00_00_00_01, kind: .random)) })
        #expect(runner.advertisementCounts(of: "synced").periodic == periodic.filter { !$0.truncated }.count)
        #expect(timeline.receptions(of: "synced").count == periodic.filter { !$0.truncated }.count)
        #expect(!timeline.events(of: "synced", "enter").isEmpty)
        #expect((heard["scanning only"] ?? []).allSatisfy { !$0.periodic })
        #expect(timeline.receptions(of: "scanning only").isEmpty)
    }
}
