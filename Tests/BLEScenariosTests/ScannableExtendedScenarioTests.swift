import BLEScenarios
import BLEWorld
import Testing

/// A scannable extended set in a scenario (Core 5.4, Vol 6, Part B, §4.4.2.7): its data is
/// sent only in AUX_SCAN_RSP, so an observer scanning extended and actively reads it (the
/// AUX_SCAN_REQ answered, the response chain joined), and one scanning passively does not.
@Suite("Scannable extended sets reach observers that scan actively")
struct ScannableExtendedScenarioTests {
    static let uuid = "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51"

    /// A scannable set whose 251-octet scan response holds an iBeacon frame first and manufacturer
    /// data after it (two reports of the AUX_SCAN_RSP chain), and two gateways 3 m away
    /// scanning extended, one actively and one passively.
    static let yaml = """
        name: scannable extended set
        seed: 5
        devices:
          - name: kiosk
            address: "C0:00:00:00:00:01"
            addressType: random
            position: [0, 0, 1]
            advertise:
              type: scan_ind
              extended: true
              interval: 100
              scanResponse:
                iBeacon: {uuid: \(uuid), major: 3, minor: 4}
                manufacturer: {company: 0xFFFF, data: "\(String(repeating: "5a", count: 220))"}
          - name: active gateway
            address: "C0:00:00:00:00:02"
            addressType: random
            position: [3, 0, 1]
            scan: {interval: 100, window: 100, extended: true, active: true}
            observe:
              monitor: [{identifier: kiosk, uuid: \(uuid)}]
          - name: passive gateway
            address: "C0:00:00:00:00:03"
            addressType: random
            position: [-3, 0, 1]
            scan: {interval: 100, window: 100, extended: true}
            observe:
              monitor: [{identifier: kiosk, uuid: \(uuid)}]
        """

    @Test("An active extended scan gets the set's scan response whole and reads its iBeacon; a passive one gets no data")
    func activeScanReadsScanResponse() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, file: "kiosk.yaml")
        let runner = try ScenarioRunner(scenario: scenario)
        let kiosk = try #require(scenario.device(named: "kiosk"))
        let plan = try #require(try kiosk.advertisingPlan())
        let expected = try #require(plan.scanResponseData)
        var heard: [String: [ScannedAdvertisement]] = [:]
        runner.onAdvertisement = { observer, advertisement in heard[observer, default: []].append(advertisement) }
        let timeline = runner.run(until: 3)
        #expect(expected.count > 229)
        let responses = (heard["active gateway"] ?? []).filter(\.scanResponse)
        #expect(!responses.isEmpty)
        #expect(responses.allSatisfy { $0.truncated || $0.data == expected })
        #expect(timeline.receptions(of: "active gateway").count == responses.filter { !$0.truncated }.count)
        #expect(!timeline.events(of: "active gateway", "enter").isEmpty)
        // The passive scan hears the advertisement (scannable, no data) but never asks.
        let passive = heard["passive gateway"] ?? []
        #expect(!passive.isEmpty && passive.allSatisfy { !$0.scanResponse && $0.data.isEmpty })
        #expect(timeline.receptions(of: "passive gateway").isEmpty)
    }
}
