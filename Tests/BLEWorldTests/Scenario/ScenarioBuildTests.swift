import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("Building scenarios into a world")
struct ScenarioBuildTests {
    private func world(seed: UInt64 = 1) -> World { World(configuration: WorldConfiguration(seed: seed, timing: .ideal)) }

    @Test("Every neighbourhood device is added and every scripted host reaches advertising")
    func neighbourhood() throws {
        let scenario = try Scenario.builtIn(named: "neighbourhood")
        let world = world()
        let built = try scenario.build(into: world) { _ in AnsweringController() }
        #expect(world.devices.count == scenario.devices.count)
        #expect(built.externalDevices.map { built.name(of: $0) } == ["local"])
        world.run(until: 1_000_000)
        for id in built.deviceIDs where built.device(id)?.host == .scripted {
            #expect(built.hosts[id]?.phase == .advertising, "\(built.name(of: id) ?? "?")")
        }
        #expect(built.failures.isEmpty)
        let strap = try #require(built.id(of: "Polar H10 A1B2C3D4"))
        #expect(opcodes(try sentCommands(in: world.snoop(of: strap)))
            == ["0x0C03", "0x0C01", "0x2005", "0x2006", "0x2008", "0x2009", "0x200A"])
        let local = try #require(built.id(of: "local"))
        #expect(try sentCommands(in: world.snoop(of: local)).isEmpty)
    }

    @Test("Packets for external devices go to the external handler, in order")
    func external() throws {
        let scenario = Scenario(name: "t").addingExternalDevices(2)
        #expect(scenario.devices.map(\.name) == ["host-1", "host-2"])
        #expect(scenario.devices[1].address == BluetoothAddress(0xF0_5B_1E_00_00_02))
        let world = world()
        let built = try scenario.build(into: world) { _ in AnsweringController() }
        var received: [(DeviceID, H4.Packet)] = []
        built.onExternalHostPacket = { received.append(($0, $1)) }
        let second = built.externalDevices[1]
        world.sendToController(.command(try HCI.CommandPacket(HCI.Reset())), device: second)
        world.run(until: 10)
        #expect(received.map(\.0) == [second])
        guard case let .event(event)? = received.first?.1 else { Issue.record("no event"); return }
        #expect(try event.decode(as: HCI.CommandComplete.self).opcode.rawValue == 0x0C03)
    }

    @Test("Scheduled actions stop and start advertising and restart a power-cycled host")
    func actions() throws {
        let scenario = try ScenarioLoader.parse(yaml: """
            devices:
              - {name: b, address: "F0:00:00:00:00:0B", advertise: {type: nonconn_ind, name: B}}
            actions:
              - {at: 1, stopAdvertising: b}
              - {at: 2, startAdvertising: b}
              - {at: 3, powerCycle: b}
            """)
        let world = world()
        let built = try scenario.build(into: world) { _ in AnsweringController() }
        let id = try #require(built.id(of: "b"))
        world.run(until: 1_500_000)
        #expect(built.hosts[id]?.phase == .stopped)
        world.run(until: 2_500_000)
        #expect(built.hosts[id]?.phase == .advertising)
        world.run(until: 4_000_000)
        let sent = opcodes(try sentCommands(in: world.snoop(of: id)))
        #expect(sent == ["0x0C03", "0x0C01", "0x2006", "0x2008", "0x200A", "0x200A", "0x200A",
                         "0x0C03", "0x0C01", "0x2006", "0x2008", "0x200A"])
    }

    @Test("A command a controller refuses is logged with the device's name")
    func failedCommand() throws {
        let scenario = try ScenarioLoader.parse(yaml: "devices:\n  - {name: lamp, advertise: {name: L}}\n")
        let world = world()
        let built = try scenario.build(into: world) { _ in
            AnsweringController(failing: [HCI.LESetAdvertisingParameters.opcode: .invalidHCICommandParameters])
        }
        var log: [String] = []
        built.onLog = { log.append($0) }
        world.run(until: 1_000)
        #expect(built.failures.map(\.opcode.rawValue) == [0x2006])
        #expect(log.count == 1)
        #expect(log.first?.contains("\"lamp\"") == true)
    }

    @Test("Controllers get distinct seeds derived from the scenario seed")
    func seeds() {
        let seeds = (0 ..< 100).map { Scenario.controllerSeed(scenarioSeed: 7, index: $0) }
        #expect(Set(seeds).count == 100)
        #expect(Scenario.controllerSeed(scenarioSeed: 7, index: 3) == Scenario.controllerSeed(scenarioSeed: 7, index: 3))
        #expect(Scenario.controllerSeed(scenarioSeed: 8, index: 3) != Scenario.controllerSeed(scenarioSeed: 7, index: 3))
    }
}
