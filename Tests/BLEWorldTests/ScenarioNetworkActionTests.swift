import BLEWorld
import Testing

/// The `network` action: a phone's cellular link goes down and comes back (docs/network.md).
@Suite("Scenario network actions")
struct ScenarioNetworkActionTests {
    private let phone = """
    devices:
      - name: rider
        apps: [{name: Rides}]
      - name: pole
    """

    @Test("A network action names a phone and says whether its link is on")
    func decodes() throws {
        let scenario = try ScenarioLoader.parse(yaml: phone + """

        actions:
          - {at: 10, network: {device: rider, on: false}}
          - {at: 25.5, network: {device: rider, on: true}}
        """)
        #expect(scenario.actions.map(\.action) == [.network("rider", on: false), .network("rider", on: true)])
        #expect(scenario.actions.map(\.atSeconds) == [10, 25.5])
        #expect(ScenarioAction.network("rider", on: false).deviceNames == ["rider"])
    }

    @Test("A network action for a device without apps, without on, or with an unknown field is refused with its place")
    func refusesBadInput() throws {
        let cases: [(yaml: String, words: String)] = [
            ("[{at: 1, network: {device: pole, on: false}}]", "not a phone"),
            ("[{at: 1, network: {device: rider}}]", "on"),
            ("[{at: 1, network: {device: rider, on: maybe}}]", "true or false"),
            ("[{at: 1, network: {device: rider, on: false, latency: 3}}]", "latency"),
            ("[{at: 1, network: {device: nobody, on: false}}]", "nobody"),
        ]
        for (actions, words) in cases {
            do {
                _ = try ScenarioLoader.parse(yaml: phone + "\nactions: " + actions + "\n")
                Issue.record("accepted: \(actions)")
            } catch {
                #expect(error.path.hasPrefix("actions[0]") && "\(error)".contains(words), "\(actions): \(error)")
            }
        }
    }
}
