import Foundation
@testable import BLEWorld
import Testing
import Yams

/// Scenarios decode straight from Yams' node tree (`YAMLNodeDecoder`, issue 31): every value
/// and every error must be the one Yams' own `Decodable` machinery gives, so that the fast path
/// cannot drift from the reference it replaced.
@Suite("Scenarios through the node decoder")
struct ScenarioNodeDecoderTests {
    /// Both decodings of `yaml`, composed alike (the basic resolver when there is no merge key).
    static func both(_ yaml: String, file: String = "s.yaml") throws -> (fast: Scenario, yams: Scenario) {
        (try ScenarioLoader.parse(yaml: yaml, file: file, resolver: nil, decoding: .fastest),
         try ScenarioLoader.parse(yaml: yaml, file: file, resolver: nil, decoding: .yams))
    }

    /// The error each decoding of `yaml` throws.
    static func failures(_ yaml: String) -> (fast: ScenarioError?, yams: ScenarioError?) {
        func failure(_ decoding: YAMLDocument.Decoding) -> ScenarioError? {
            do {
                _ = try ScenarioLoader.parse(yaml: yaml, file: "bad.yaml", resolver: nil, decoding: decoding)
                return nil
            } catch {
                return error
            }
        }
        return (failure(.fastest), failure(.yams))
    }

    @Test("Each bundled scenario decodes to the same value through both decoders",
          arguments: BundledScenarioDigestTests.recorded.keys.sorted())
    func bundledScenario(_ name: String) throws {
        let yaml = try String(contentsOf: BundledScenarioDigestTests.folder.appendingPathComponent(name), encoding: .utf8)
        let (fast, yams) = try Self.both(yaml, file: name)
        #expect(fast == yams)
        #expect(String(reflecting: fast) == String(reflecting: yams))
    }

    @Test("A generated city decodes to the same value through both decoders")
    func generatedCity() throws {
        let yaml = CityScenarioText.make(beacons: 300, phones: 6, gateways: 2)
        #expect(YAMLDocument.resolver(for: yaml) === Yams.Resolver.basic)
        let (fast, yams) = try Self.both(yaml, file: "city.yaml")
        #expect(fast.devices.count == 308)
        #expect(fast == yams)
        #expect(String(reflecting: fast) == String(reflecting: yams))
    }

    /// A scenario written in YAML's less usual ways: anchors and aliases, explicit tags, quoted
    /// keys and values, block scalars, numbers in octal, hex, with separators or exponents.
    static let unusual = """
        %YAML 1.1
        ---
        name: !!str 2024
        "seed": 010
        duration: 1_000.5
        radio: {referenceLossDB: 4.1e1, 'pathLossExponent': +3, shadowingSigmaDB: .5, fastFading: !!bool "yes"}
        devices:
          - &phone
            name: >-
              phone
              one
            address: 'D0:C1:00:00:00:01'
            position: [-0, 1e1, 0x10]
            heading: ~
            scan: &scan {interval: 100, window: !!float 50, active: Off}
            observe: {monitor: [{identifier: "city", uuid: 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6, major: 0x1}], exitPeriod: Null}
          - name: gateway
            address: "D0:C2:00:00:00:01"
            position: {x: 1, y: -2.5}
            scan: *scan
            antennaGain: -0.0
          - name: beacon
            address: "C0:C3:00:00:00:01"
            addressType: random
            txPower: -012
            startAt: 0.25
            advertise: {type: nonconn_ind, interval: 1_000, iBeacon: {uuid: 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6,
              major: 0b11, minor: 7, measuredPower: -0x34}}
        ...
        """

    @Test("Unusual spellings decode to the same value through both decoders")
    func unusualSpellings() throws {
        let (fast, yams) = try Self.both(Self.unusual)
        #expect(fast == yams)
        #expect(String(reflecting: fast) == String(reflecting: yams))
        #expect(fast.name == "2024")
        #expect(fast.devices[0].name == "phone one")
        #expect(fast.devices[1].scanning == fast.devices[0].scanning)
    }

    @Test("Text the fast composer leaves to Yams reads or fails as with Yams",
          arguments: ["name: [a\ndevices: []\n", "name: a\nname: b\ndevices: []\n", "devices: *nowhere\n",
                      "devices: []\n---\ndevices: []\n", "", "# nothing\n", "{[a]: 1, devices: []}\n",
                      "!!merge name: a\ndevices: []\n"])
    func leftToYams(_ yaml: String) {
        func outcome(_ decoding: YAMLDocument.Decoding) -> Result<Scenario, ScenarioError> {
            Result { () throws(ScenarioError) in try ScenarioLoader.parse(yaml: yaml, file: "odd.yaml", resolver: nil, decoding: decoding) }
        }
        #expect(outcome(.fastest) == outcome(.yams))
    }

    /// Bad values in a city-like device, each with the path and line the error must name.
    static let badValues: [(field: String, path: String, kind: ScenarioError.Kind)] = [
        ("position: [1, two, 3]", "devices[1].position", .invalidField),
        ("position: [1]", "devices[1].position", .invalidField),
        ("txPower: loud", "devices[1].txPower", .invalidField),
        ("txPower: 40", "devices[1].txPower", .invalidField),
        ("advertise: {type: loud}", "devices[1].advertise.type", .invalidField),
        ("startAt: soon", "devices[1].startAt", .invalidField),
        ("advertise: {interval: 1000, iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 70000}}",
         "devices[1].advertise.iBeacon.major", .invalidField),
        ("advertise: {interval: [1000]}", "devices[1].advertise.interval", .invalidField),
        ("advertise: {intreval: 100}", "devices[1].advertise.intreval", .unknownField),
        ("advertise: nonconn_ind", "devices[1].advertise", .invalidField),
        ("route: {waypoints: [[0, 0, 0], [1, x, 0]], speed: 1.4}", "devices[1].route.waypoints", .invalidField),
        ("route: {waypoints: [[0, 0, 0]], speed: fast}", "devices[1].route.speed", .invalidField),
        ("scan: {interval: 100, window: 200}", "devices[1].scan.window", .invalidField),
        ("scan: [100, 100]", "devices[1].scan", .invalidField),
        ("observe: {monitor: [{identifier: city}]}", "devices[1].observe.monitor", .missingField),
        ("antenna: {beamwidth: yes}", "devices[1].antenna", .invalidField),
    ]

    @Test("A bad value fails through the node decoder with Yams' error, file, line and key path",
          arguments: badValues.indices)
    func badValue(_ index: Int) throws {
        let (field, path, kind) = Self.badValues[index]
        let yaml = """
            name: bad
            devices:
              - {name: phone, address: "D0:C1:00:00:00:01", position: [0, 0, 1.2], scan: {interval: 100, window: 100}}
              - name: beacon 1
                address: "C0:C3:00:00:00:01"
                addressType: random
                \(field)
            """
        let (fast, yams) = Self.failures(yaml)
        let error = try #require(fast)
        #expect(error == yams)
        #expect(error.file == "bad.yaml")
        #expect(error.line == 7)
        #expect(error.kind == kind)
        #expect(error.path.hasPrefix(path), "\(error)")
        #expect(error.device == "beacon 1")
        #expect(error.description.hasPrefix("bad.yaml:7: device \"beacon 1\", \(path)"), "\(error)")
    }

    @Test("A device list that is not a list, and a device that is not a mapping, fail as with Yams")
    func wrongShapes() throws {
        for yaml in ["devices: {name: a}\n", "devices:\n  - a\n", "name: [x]\ndevices: []\n", "seed: -1\ndevices: []\n"] {
            let (fast, yams) = Self.failures(yaml)
            let error = try #require(fast)
            #expect(error == yams)
            #expect(error.file == "bad.yaml")
            #expect(error.line != nil)
            #expect(!error.path.isEmpty)
        }
    }
}

