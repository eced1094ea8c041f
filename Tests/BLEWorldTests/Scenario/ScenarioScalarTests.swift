import BLEWire
@testable import BLEWorld
import Testing
import Yams

/// Scenarios are composed without Yams' regular-expression tag resolution
/// (`YAMLDocument.resolver(for:)`, issue 31): every spelling of a number, a flag and a null
/// must still read as it did with Yams' default resolver, and a bad one fail the same way.
@Suite("Scenario scalars without implicit tag resolution")
struct ScenarioScalarTests {
    /// A scenario spelling its scalars in YAML 1.1's less usual ways.
    static let spellings = """
        name: spellings
        seed: 0x1F
        duration: 1_000
        radio: {referenceLossDB: 4.1e1, pathLossExponent: 3, shadowingSigmaDB: .5, fastFading: Yes}
        devices:
          - name: 12
            address: "F0:00:00:00:00:01"
            position: [+1, -2.50, 0]
            heading: ~
            route: {waypoints: [[0, 0, 0], [6, 4, 0]], speed: 1.5, loop: on}
            headingFollowsRoute: OFF
            scan: {interval: 100, window: 100, active: TRUE}
          - name: beacon
            address: "E2:00:00:00:00:01"
            addressType: random
            txPower: null
            advertise: {type: nonconn_ind, interval: 0x64, iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 01, minor: 2}}
        """

    @Test("Numbers, flags and nulls read as with Yams' default resolver")
    func spellingsReadAsBefore() throws {
        let fast = try ScenarioLoader.parse(yaml: Self.spellings, file: "s.yaml", resolver: nil)
        let before = try ScenarioLoader.parse(yaml: Self.spellings, file: "s.yaml", resolver: .default)
        #expect(fast == before)
        #expect(fast.seed == 31)
        #expect(fast.devices[0].name == "12")
        #expect(fast.devices[0].scanning?.active == true)
    }

    @Test("A bad scalar fails with the same error, file, line and path",
          arguments: ["fastFading: \"true\"", "fastFading: maybe", "pathLossExponent: fast", "pathLossExponent: true"])
    func badScalarsFailAsBefore(_ field: String) {
        let yaml = """
            name: bad
            radio: {\(field)}
            devices:
              - {name: a, address: "F0:00:00:00:00:01"}
            """
        let fast = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, file: "b.yaml", resolver: nil) }
        let before = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, file: "b.yaml", resolver: .default) }
        #expect(fast == before)
        #expect(fast?.line == 2)
        #expect(fast?.file == "b.yaml")
        #expect(fast?.path.hasPrefix("radio.") == true)
    }

    @Test("A duplicate key is refused on its line, as before")
    func duplicateKey() {
        let yaml = "name: a\nname: b\ndevices: []\n"
        let fast = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, file: "d.yaml", resolver: nil) }
        let before = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, file: "d.yaml", resolver: .default) }
        #expect(fast == before)
        #expect(fast?.kind == .syntax)
    }

    @Test("Merge keys still merge (the file is then composed with Yams' default rules)")
    func mergeKey() throws {
        let yaml = """
            name: merged
            devices:
              - &phone {name: a, address: "F0:00:00:00:00:01", position: [1, 2, 0]}
              - {<<: *phone, name: b, address: "F0:00:00:00:00:02"}
            """
        #expect(YAMLDocument.resolver(for: yaml) === Resolver.default)
        let scenario = try ScenarioLoader.parse(yaml: yaml)
        #expect(scenario.devices[1].name == "b")
        #expect(scenario.devices[1].description.position == scenario.devices[0].description.position)
    }
}
