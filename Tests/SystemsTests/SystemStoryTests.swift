import BLESystems
import BLEWorld
import Foundation
import Testing

/// The story a field system's run tells (`ble sim run NAME`): the same seed tells the same
/// story, every line is at a virtual time within the run, and each kind of actor speaks.
/// The time limit counts from when a test is started, so it includes the wait for its turn
/// behind the other `.takesTurns` suites (about 17 minutes in all on a loaded 2-core machine):
/// it is there to end a hang before CI's own limit does, not to time the runs.
@Suite("A field system's story", .ownThread, .takesTurns, .timeLimit(.minutes(35)))
struct SystemStoryTests {
    @Test("Two runs of the ride log with the same seed tell the same story, line for line, with the rider's radio, the phone, the app and the back end in it")
    func rideLogRepeats() async throws {
        let first = try await FieldSystems.run(SystemsTesting.setup("ride-log"))
        let second = try await FieldSystems.run(SystemsTesting.setup("ride-log"))
        // The same lines by the same actors, in the same order and at the same times: the
        // app runs on the main actor, and its hop into `URLSession.data(for:)` (nonisolated)
        // runs while the clock waits for it (MainActorHops), so its request leaves at the
        // time it is made (SimulatedNetworkProtocol, NetworkHandOver).
        #expect(first.story.map(\.description) == second.story.map(\.description))
        #expect(first.system == "ride-log" && first.seed == 29 && first.seconds == 200)
        Self.checkTimes(first)
        let actors = Set(first.story.map(\.actor))
        #expect(actors.isSuperset(of: [.radio, .phone, .app, .backEnd]), "\(actors)")
        Self.checkRiderRadio(first)
        #expect(first.story.contains { $0.actor == .backEnd && $0.text.hasPrefix("POST /rides → 201") })
        #expect(first.story.contains { $0.actor == .app && $0.text.hasPrefix("ride logged: line 42, boarded at stop 2") })
        // The run's own host names never reach the story.
        #expect(!first.story.contains { $0.text.contains("rides-") })
    }

    @Test("Two runs of the bus office with the same seed tell the same story, and the radio, the gateways, the back end and the office speak in it")
    func busOfficeRepeats() async throws {
        let first = try await FieldSystems.run(SystemsTesting.setup("bus-fleet"))
        let second = try await FieldSystems.run(SystemsTesting.setup("bus-fleet"))
        #expect(first.story.map(\.description) == second.story.map(\.description))
        Self.checkTimes(first)
        #expect(Set(first.story.map(\.actor)) == [.radio, .gateway, .app, .backEnd])
        #expect(first.story.contains { $0.actor == .app && $0.who == "office" && $0.text.hasPrefix("bus 42  stop 1  arrived") })
    }

    @Test("A scenario names its system with system:; one it does not know, or none, is refused with the systems' names")
    func systemNames() throws {
        #expect(try SystemsTesting.setup("ride-log").system.name == "ride-log")
        #expect(try SystemsTesting.setup("flat").system.name == "carers-visits")
        let unknown = #expect(throws: SystemError.self) {
            _ = try SystemSetup(text: "name: x\nsystem: cheats\n", file: "x.yaml").system
        }
        #expect(unknown?.description.contains("no field system is called \"cheats\"") == true)
        #expect(unknown?.description.contains("bus-office, shop-regulars, carers-visits, ride-log, stolen-car") == true)
        let none = #expect(throws: SystemError.self) { _ = try SystemSetup(text: "name: x\n", file: "x.yaml").system }
        #expect(none?.description.contains("names no field system") == true)
        #expect(throws: SystemError.self) { try SystemSetup(text: "name: x\nsystem: [1, 2]\n", file: "x.yaml") }
    }

    @Test("--seed and --until reach the scenario and its text, which the phones' worlds are opened from")
    func seedAndDuration() throws {
        let setup = try SystemSetup(named: "ride-log", seed: 7, seconds: 30)
        #expect(setup.scenario.seed == 7 && setup.seconds == 30)
        #expect(try ScenarioLoader.parse(yaml: setup.text, file: "ride-log.yaml").seed == 7)
        let unseeded = try SystemSetup(text: "name: x\nsystem: ride-log\n", file: "x.yaml", seed: 9)
        #expect(unseeded.scenario.seed == 9)
        #expect(throws: SystemError.self) { try SystemSetup(named: "/no/such/scenario.yaml") }
    }

    /// The rider's radio hears the bus's beacons and stop 2's, two lines per span, and hears
    /// the bus before the app is told it entered the bus's region.
    static func checkRiderRadio(_ run: SystemRun) {
        let bus = "ibeacon:3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64:42"
        let radio = run.story.filter { $0.actor == .radio }
        #expect(radio.allSatisfy { $0.who == "rider" }, "\(radio.map(\.who))")
        let began = radio.filter { $0.text.hasPrefix("began hearing ") }
        #expect(began.count == radio.count(where: { $0.text.hasPrefix("last heard ") }) && began.count * 2 == radio.count)
        #expect(began.contains { $0.text.hasPrefix("began hearing \(bus):") })
        #expect(began.contains { $0.text == "began hearing ibeacon:8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51:1:2" })
        let heardBus = run.story.firstIndex { $0.actor == .radio && $0.text.hasPrefix("began hearing \(bus):") }
        let enteredBus = run.story.firstIndex { $0.actor == .app && $0.text == "entered \(bus)" }
        if let heardBus, let enteredBus {
            #expect(heardBus < enteredBus && run.story[heardBus].time < run.story[enteredBus].time)
        } else {
            Issue.record("the story should have the radio hearing the bus (\(heardBus.map(String.init) ?? "no")) and the app entering its region (\(enteredBus.map(String.init) ?? "no"))")
        }
    }

    /// Every line is at a virtual time within the run, in order.
    static func checkTimes(_ run: SystemRun) {
        let times = run.story.map(\.time)
        #expect(!times.isEmpty)
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0 >= 0 && $0 <= Int64(run.seconds * 1e6) }, "\(times.filter { $0 < 0 || $0 > Int64(run.seconds * 1e6) })")
    }
}
