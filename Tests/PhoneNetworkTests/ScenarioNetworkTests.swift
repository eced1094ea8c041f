import BLE
import BLEWorld
import Foundation
import SimulatedTesting
import Testing

/// A scenario's `network` actions switch the link of the phone that follows it.
@Suite("Network outages from a scenario", .simulatedOnMainActor, .timeLimit(.minutes(5)))
@MainActor
struct ScenarioNetworkTests {
    @Test("A phone following its scenario loses its link at the network action's time and gets it back at the next, on its story")
    func scriptedOutage() async throws {
        let scenario = try ScenarioLoader.parse(yaml: """
            name: tunnel
            seed: 1
            duration: 60
            devices:
              - name: iPhone
                position: [0, 0, 1.3]
                host: external
                apps: [{name: Rides}]
            actions:
              - {at: 1, network: {device: iPhone, on: false}}
              - {at: 3, network: {device: iPhone, on: true}}
            """)
        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        try phone.install(scenarioApp: "Rides") { _ in }
        try phone.followScenario()
        try phone.perform(.launch("Rides"))
        // The world's clock is the phone's: the scenario's actions come on it. (The world runs
        // ahead of this task, which is not part of it, so the check is on the phone's story.)
        try await phone.clock.sleep(untilMicroseconds: 5_000_000)
        #expect(phone.isNetworkOn)
        let switches = phone.timeline.filter { entry in
            if case .network(app: "cellular", exchange: _) = entry.output { true } else { false }
        }
        #expect(switches.map(\.output) == [.network(app: "cellular", exchange: "link down"), .network(app: "cellular", exchange: "link up")])
        let times = switches.map(\.time)
        #expect(times.count == 2 && (1_000_000 ..< 3_000_000).contains(times[0]) && times[1] >= 3_000_000, "\(times)")
        phone.close()
        await device.close()
    }
}
