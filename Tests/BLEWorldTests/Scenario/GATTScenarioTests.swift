import BLEController
import BLEWire
import BLEWorld
import Testing

/// Scenario devices that serve GATT: `gatt: [names]` and how a world drives them.
@Suite("Scenario devices with gatt:")
struct GATTScenarioTests {
    static let strap = """
        devices:
          - name: strap
            address: "C4:00:00:00:00:01"
            addressType: random
            gatt: [heart-rate, battery]
            advertise: {type: ind, interval: 50, services: ["180D"], name: Strap}
        """

    /// Parses `yaml`, expecting a ScenarioError, and returns it.
    private func failure(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
            return nil
        } catch {
            return error
        }
    }

    private func device(gatt: String, advertise: String? = "{type: ind, name: S}", host: String? = nil) -> String {
        var text = "devices:\n  - name: s\n    gatt: \(gatt)\n"
        if let advertise { text += "    advertise: \(advertise)\n" }
        if let host { text += "    host: \(host)\n" }
        return text
    }

    @Test("gatt: lists profile names in order and makes the device a GATT device that still advertises")
    func parses() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.strap)
        let strap = try #require(scenario.device(named: "strap"))
        #expect(strap.gatt == ["heart-rate", "battery"])
        #expect(strap.host == .gatt)
        let plan = try #require(try strap.advertisingPlan())
        #expect(plan.parameters.advertisingIntervalMin == 80)
        #expect(plan.parameters.advertisingType == .connectableUndirected)
        #expect(plan.randomAddress == BluetoothAddress(0xC4_00_00_00_00_01, kind: .random))
        #expect(try AdvertisingData(decoding: plan.advertisingData).localName == "Strap")
    }

    @Test("Names stay strings: the world does not judge them, the host that serves them does")
    func namesAreNotChecked() throws {
        let scenario = try ScenarioLoader.parse(yaml: device(gatt: "[no-such-service]"))
        #expect(scenario.devices[0].gatt == ["no-such-service"])
    }

    @Test("An empty, blank or repeated list, a missing or unconnectable advertise and a host: are refused")
    func refusals() throws {
        let empty = try #require(failure(device(gatt: "[]")))
        #expect(empty.path == "devices[0].gatt")
        #expect(empty.device == "s")
        #expect(empty.message.contains("empty"))
        #expect(failure(device(gatt: "[battery, \"\"]"))?.message.contains("entry 2 is empty") == true)
        #expect(failure(device(gatt: "[battery, battery]"))?.message.contains("listed twice") == true)
        #expect(failure(device(gatt: "battery"))?.path == "devices[0].gatt")
        let silent = try #require(failure(device(gatt: "[battery]", advertise: nil)))
        #expect(silent.path == "devices[0].gatt")
        #expect(silent.message.contains("needs advertise"))
        let beacon = try #require(failure(device(gatt: "[battery]", advertise: "{type: nonconn_ind}")))
        #expect(beacon.message.contains("connectably (type: ind), not nonconn_ind"))
        #expect(failure(device(gatt: "[battery]", advertise: "{type: scan_ind}"))?.message.contains("not scan_ind") == true)
        let external = try #require(failure(device(gatt: "[battery]", advertise: nil, host: "external")))
        #expect(external.path == "devices[0].host")
        #expect(failure("devices:\n  - name: s\n    host: gatt\n")?.path == "devices[0].host")
    }

    @Test("A GATT device with a private random address is refused: its host sets a static one")
    func privateAddress() throws {
        func phone(_ address: String) -> String {
            "devices:\n  - name: s\n    address: \"\(address)\"\n    addressType: random\n    gatt: [battery]\n"
                + "    advertise: {type: ind, name: S}\n"
        }
        let resolvable = try #require(failure(phone("5A:1C:44:90:3B:7E")))
        #expect(resolvable.path == "devices[0].address")
        #expect(resolvable.message.contains("5A:1C:44:90:3B:7E is a private random address (top bits 01)"))
        #expect(failure(phone("1A:1C:44:90:3B:7E"))?.message.contains("(top bits 00)") == true)
        #expect(failure(phone("DA:1C:44:90:3B:7E")) == nil)
    }

    @Test("By default a scripted stand-in advertises for a GATT device, as in a headless run")
    func standIn() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.strap)
        let world = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        let built = try scenario.build(into: world) { _ in AnsweringController() }
        let id = try #require(built.id(of: "strap"))
        #expect(built.attachedGATTDevices.isEmpty)
        world.run(until: 1_000_000)
        #expect(built.hosts[id]?.phase == .advertising)
        #expect(opcodes(try sentCommands(in: world.snoop(of: id)))
            == ["0x0C03", "0x0C01", "0x2005", "0x2006", "0x2008", "0x2009", "0x200A"])
    }

    @Test("With attached hosting a GATT device has no stand-in; its packets go to the external handler")
    func attached() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.strap)
        let world = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        let built = try scenario.build(into: world, gattHosting: .attached) { _ in AnsweringController() }
        let id = try #require(built.id(of: "strap"))
        #expect(built.attachedGATTDevices == [id])
        #expect(built.hosts[id] == nil)
        var received: [DeviceID] = []
        built.onExternalHostPacket = { device, _ in received.append(device) }
        world.run(until: 1_000_000)
        #expect(try sentCommands(in: world.snoop(of: id)).isEmpty, "nothing drives it until a host attaches")
        world.sendToController(.command(try HCI.CommandPacket(HCI.Reset())), device: id)
        world.run(until: 1_000_010)
        #expect(received == [id])
    }
}
