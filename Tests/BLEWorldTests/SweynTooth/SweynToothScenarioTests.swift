import BLEController
import BLEWire
import BLEWorld
import Testing

/// A scenario file stages a SweynTooth attack: a device with `attack:` gets a hostile
/// controller and a scripted host that connects to its target (docs/scenarios.md).
@Suite("SweynTooth: hostile devices staged by a scenario file")
struct SweynToothScenarioTests {
    static func scenario(_ attack: String) -> String {
        """
        seed: 32
        devices:
          - name: lock
            address: "C0:10:C0:00:00:01"
            addressType: random
            position: [0, 0, 1]
            advertise: {type: ind, interval: 50, name: Lock}
          - name: mallory
            position: [1, 0, 1]
            attack: \(attack)
        """
    }

    /// Builds `yaml` into a world and runs it for `seconds`.
    static func run(_ yaml: String, seconds: Double = 3) throws -> (World, BuiltScenario) {
        let scenario = try ScenarioLoader.parse(yaml: yaml)
        let world = World(configuration: scenario.worldConfiguration)
        let built = try scenario.build(into: world)
        world.run(until: Microseconds(seconds * 1_000_000))
        return (world, built)
    }

    @Test("An LLID Deadlock staged by a scenario is refused by the target's controller, which keeps the link")
    func llidDeadlock() throws {
        let (world, built) = try Self.run(Self.scenario("{kind: llid-deadlock, target: lock, budget: 3}"))
        let lock = try #require(built.id(of: "lock"))
        let mallory = try #require(built.id(of: "mallory"))
        let hostile = try #require(world.controller(of: mallory) as? HostileController)
        #expect(hostile.attack == .llidDeadlock && hostile.rewritten == 3)
        #expect((world.controller(of: lock) as? Controller)?.counters.linkRefusals.reservedLLID == 3)
        let attacker = try #require(built.attacker(named: "mallory"))
        #expect(attacker.connections == 1 && attacker.endings.isEmpty)
    }

    @Test("An Invalid Connection Request staged by a scenario starts no link; the honest retry connects")
    func invalidConnectionRequest() throws {
        let (world, built) = try Self.run(Self.scenario("{kind: invalid-connection-request, fault: hopIncrementZero, target: lock, budget: 1}"))
        let lock = try #require(built.id(of: "lock"))
        #expect((world.controller(of: lock) as? Controller)?.counters.invalidConnectIndications == 1)
        let attacker = try #require(built.attacker(named: "mallory"))
        #expect(attacker.endings == [.connectionFailedToBeEstablished])
        #expect(attacker.connections == 2)
    }

    @Test("An attack with an unknown kind, fault or target, or beside advertise, is refused with its place")
    func refusesBadInput() {
        let cases: [(attack: String, words: String)] = [
            ("{kind: bluesnarf, target: lock}", "not an attack"),
            ("{kind: invalid-connection-request, fault: hopTooLarge, target: lock}", "not a CONNECT_IND fault"),
            ("{kind: llid-deadlock, target: nobody}", "nobody"),
            ("{kind: llid-deadlock}", "target"),
            ("{kind: llid-deadlock, target: lock, budget: 0}", "budget"),
        ]
        for (attack, words) in cases {
            #expect { try ScenarioLoader.parse(yaml: Self.scenario(attack)) } throws: { "\($0)".contains(words) }
        }
        let beside = Self.scenario("{kind: llid-deadlock, target: lock}") + "\n    advertise: {type: ind}"
        #expect { try ScenarioLoader.parse(yaml: beside) } throws: { "\($0)".contains("attack") }
    }
}
