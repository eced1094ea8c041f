import BLEController
import BLEWire
@testable import BLEWorld
import Testing

@Suite("Scenario files")
struct ScenarioParsingTests {
    static let complete = """
        name: street
        seed: 77
        timing: ideal
        radio: {referenceLossDB: 41, pathLossExponent: 3, shadowingSigmaDB: 4, captureMarginDB: 8}
        devices:
          - name: me
            address: "F0:00:00:00:00:01"
            position: [0, 0, 1]
            host: external
          - name: strap
            address: "C4:11:22:33:44:55"
            addressType: random
            position: [3, 4]
            heading: 90
            antenna: {beamwidth: 60, frontToBack: 15}
            txPower: -4
            sensitivity: -90
            rssiOffset: 2
            route: {waypoints: [[3, 4, 0], [6, 4, 0]], speed: 1.5, loop: true}
            advertise:
              type: scan_ind
              interval: 152.5
              services: ["180D", "D0611E78-BBB4-4591-A5F8-487910AE4366"]
              appearance: 0x0341
              scanResponse: {name: Strap, serviceData: {"180F": "5a"}}
          - name: beacon
            address: "E2:00:00:00:00:01"
            addressType: random
            advertise:
              type: nonconn_ind
              iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 2, measuredPower: -59}
        obstacles:
          - {name: wall, box: {min: [1, -1, 0], max: [1.2, 1, 3]}, lossDB: 10}
          - {name: pole, cylinder: {base: [2, 2, 0], radius: 0.1, height: 4}, lossDB: 2}
          - {name: bush, sphere: {center: [5, 5, 1], radius: 1}, lossDB: 4}
        actions:
          - {at: 1.5, powerCycle: strap}
          - {at: 2, setPacketLoss: {between: [me, strap], rate: 0.25}}
          - {at: 3, blockLink: {between: [me, beacon]}}
          - {at: 4, stopAdvertising: beacon}
          - {at: 5, startAdvertising: beacon}
          - {at: 6, powerOff: strap}
          - {at: 7, powerOn: strap}
        """

    @Test("A complete file reads into every field")
    func completeFile() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.complete)
        #expect(scenario.name == "street")
        #expect(scenario.seed == 77)
        #expect(scenario.timing == .ideal)
        #expect(scenario.radio == RadioModel(referenceLossDB: 41, pathLossExponent: 3, shadowingSigmaDB: 4, captureMarginDB: 8))
        #expect(scenario.devices.map(\.name) == ["me", "strap", "beacon"])
        #expect(scenario.devices[0].host == .external)
        #expect(scenario.devices[0].address == BluetoothAddress(0xF0_00_00_00_00_01))

        let strap = scenario.devices[1]
        #expect(strap.host == .scripted)
        #expect(strap.address == BluetoothAddress(0xC4_11_22_33_44_55, kind: .random))
        #expect(strap.description.position == Vector3(x: 3, y: 4, z: 0))
        #expect(strap.description.headingDegrees == 90)
        #expect(strap.description.antenna == .directional(beamwidthDegrees: 60, frontToBackDB: 15))
        #expect(strap.txPowerDBm == -4)
        #expect(strap.description.sensitivityDBm == -90)
        #expect(strap.description.rssiOffsetDB == 2)
        #expect(strap.description.route == Route(waypoints: [Waypoint(position: Vector3(x: 3, y: 4, z: 0), speed: 1.5),
                                                            Waypoint(position: Vector3(x: 6, y: 4, z: 0), speed: 1.5)],
                                                loops: true))
        let advertising = try #require(strap.advertising)
        #expect(advertising.kind == .scanInd)
        #expect(advertising.intervalUnits == 244) // 152.5 ms / 0.625 ms
        #expect(advertising.data.services.map(\.description) == ["180D", "D0611E78-BBB4-4591-A5F8-487910AE4366"])
        #expect(advertising.data.appearance == 0x0341)
        #expect(advertising.scanResponse?.serviceData.map { Array($0.data) } == [[0x5A]])
        #expect(advertising.scanResponse?.name == "Strap")

        let beacon = try #require(scenario.devices[2].advertising?.data.iBeacon)
        #expect(beacon == .init(uuid: 0xE2C5_6DB5_DFFB_48D2_B060_D0F5_A710_96E0, major: 1, minor: 2, measuredPower: -59))
        #expect(scenario.devices[2].advertising?.intervalMilliseconds == 100)

        #expect(scenario.obstacles.map(\.name) == ["wall", "pole", "bush"])
        #expect(scenario.obstacles[0].shape == .box(min: Vector3(x: 1, y: -1, z: 0), max: Vector3(x: 1.2, y: 1, z: 3)))
        #expect(scenario.obstacles[1].shape == .cylinder(base: Vector3(x: 2, y: 2, z: 0), radius: 0.1, height: 4))
        #expect(scenario.obstacles[2].lossDB == 4)

        #expect(scenario.actions.map(\.action) == [
            .powerCycle("strap"), .setPacketLoss("me", "strap", rate: 0.25), .blockLink("me", "beacon", blocked: true),
            .stopAdvertising("beacon"), .startAdvertising("beacon"), .powerOff("strap"), .powerOn("strap"),
        ])
        #expect(scenario.actions[0].time == 1_500_000)
    }

    @Test("Defaults: seed 1, realistic timing, the default radio, a derived address")
    func defaults() throws {
        let scenario = try ScenarioLoader.parse(yaml: "devices:\n  - name: quiet\n")
        #expect(scenario.seed == 1)
        #expect(scenario.timing == .realistic)
        #expect(scenario.radio == RadioModel())
        #expect(scenario.devices[0].host == .none)
        #expect(scenario.devices[0].address == BluetoothAddress(0xC0_5B_1E_00_00_01, kind: .random))
    }

    /// Parses `yaml`, expecting a ScenarioError, and returns it.
    private func failure(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test("An unknown key is refused with its path, device and line")
    func unknownKey() throws {
        let error = try #require(failure("devices:\n  - name: a\n    positon: [1, 2, 3]\n"))
        #expect(error.kind == .unknownField)
        #expect(error.path == "devices[0].positon")
        #expect(error.device == "a")
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("test.yaml:3: device \"a\", devices[0].positon: unknown key"))
    }

    @Test("A bad address names the device and the line")
    func badAddress() throws {
        let error = try #require(failure("devices:\n  - name: x\n  - name: tag\n    address: C0:11:22\n"))
        #expect(error.kind == .invalidField)
        #expect(error.device == "tag")
        #expect(error.path == "devices[1].address")
        #expect(error.line == 4)
    }

    @Test("A missing name, a bad timing and an interval out of range are reported")
    func badFields() throws {
        #expect(failure("devices:\n  - position: [0, 0, 0]\n")?.kind == .missingField)
        let timing = try #require(failure("timing: fast\n"))
        #expect(timing.path == "timing")
        #expect(timing.line == 1)
        let interval = try #require(failure("devices:\n  - name: b\n    advertise:\n      interval: 5\n"))
        #expect(interval.path == "devices[0].advertise.interval")
        #expect(interval.device == "b")
        #expect(interval.line == 4)
        #expect(failure("devices:\n  - name: b\n    advertise: {type: adv_ind}\n")?.kind == .invalidField)
        #expect(failure("devices:\n  - name: b\n    txPower: 30\n")?.path == "devices[0].txPower")
    }

    @Test("Invalid YAML is a syntax error with a line")
    func syntax() throws {
        let error = try #require(failure("devices:\n  - name: a\n   bad indentation: [\n"))
        #expect(error.kind == .syntax)
        #expect(error.line != nil)
    }

    @Test("Duplicate names and addresses are refused")
    func duplicates() throws {
        let names = try #require(failure("devices:\n  - name: a\n  - name: a\n"))
        #expect(names.kind == .duplicateDevice)
        #expect(names.line == 3)
        let addresses = try #require(failure("""
            devices:
              - {name: a, address: "F0:00:00:00:00:01"}
              - {name: b, address: "F0:00:00:00:00:01"}
            """))
        #expect(addresses.kind == .duplicateDevice)
        #expect(addresses.device == "b")
    }

    @Test("An action naming an unknown device is refused")
    func unknownDevice() throws {
        let error = try #require(failure("devices:\n  - name: a\nactions:\n  - {at: 1, powerOff: b}\n"))
        #expect(error.kind == .unknownDevice)
        #expect(error.path == "actions[0]")
        #expect(error.line == 4)
        #expect(failure("devices:\n  - name: a\nactions:\n  - {at: 1, powerOff: a, powerOn: a}\n")?.kind == .invalidField)
        #expect(failure("devices:\n  - {name: a, host: external}\nactions:\n  - {at: 1, stopAdvertising: a}\n")?.kind
            == .invalidField)
    }

    @Test("Advertising data over 31 octets names the device")
    func overBudget() throws {
        let error = try #require(failure("""
            devices:
              - name: chatty
                advertise:
                  name: A name far too long for legacy advertising
            """))
        #expect(error.kind == .advertisingDataTooLong)
        #expect(error.device == "chatty")
        #expect(error.line == 4) // where the advertise mapping starts
        #expect(error.message.contains("31"))
    }

    @Test("Raw data excludes the other fields; a beacon takes no scan response; external hosts do not advertise")
    func conflicts() throws {
        #expect(failure("devices:\n  - name: r\n    advertise: {raw: \"020106\", name: x}\n")?.path
            == "devices[0].advertise.raw")
        #expect(failure("devices:\n  - name: r\n    advertise: {raw: \"0201z6\"}\n")?.kind == .invalidField)
        #expect(failure("devices:\n  - name: n\n    advertise: {type: nonconn_ind, scanResponse: {name: x}}\n")?.path
            == "devices[0].advertise.scanResponse")
        #expect(failure("devices:\n  - name: e\n    host: external\n    advertise: {name: x}\n")?.path
            == "devices[0].host")
    }

    @Test("Unknown built-in names and missing files are clear errors")
    func builtInsAndFiles() throws {
        #expect(throws: ScenarioError.self) { try Scenario.builtIn(named: "mars") }
        #expect(try Scenario.builtIn(named: "empty").devices.isEmpty)
        do {
            _ = try ScenarioLoader.load(path: "/nonexistent/scenario.yaml")
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.file == "/nonexistent/scenario.yaml")
        }
    }

    @Test("moveTo puts the device at its new position at the given time")
    func moveTo() throws {
        let scenario = try ScenarioLoader.parse(yaml: """
            devices:
              - name: a
                position: [0, 0, 0]
            actions:
              - {at: 1, moveTo: {device: a, position: [1, 2, 3]}}
            """)
        #expect(scenario.actions[0].action == .moveTo("a", Vector3(x: 1, y: 2, z: 3)))
        let world = World(configuration: WorldConfiguration(seed: 1))
        let built = try scenario.build(into: world)
        let device = try #require(built.id(of: "a"))
        world.run(until: 999_999)
        #expect(world.position(of: device) == Vector3(x: 0, y: 0, z: 0))
        world.run(until: 1_000_001)
        #expect(world.position(of: device) == Vector3(x: 1, y: 2, z: 3))
    }
}
