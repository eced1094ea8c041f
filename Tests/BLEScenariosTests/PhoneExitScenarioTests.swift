import BLEScenarios
import BLEWorld
import Testing

/// Rule 21's second half (research §7 and §9) for a scenario's `observe:` phone: its
/// monitoring reports a share of exits late and a share never, drawn from the scenario's
/// seed; `phone: {punctualExits: true}` reports each one exit period after the last packet.
/// Judged on the walker of `PhoneRegionPriorityScenarioTests` (32 regions, app on screen),
/// whose radio is the same both ways: the punctual run's exit times are the truth of when
/// each beacon was last heard plus the exit period.
@Suite("Late and missed exits on a scenario's phone")
struct PhoneExitScenarioTests {
    typealias Walk = PhoneRegionPriorityScenarioTests

    @Test("Rule 21: of 32 departures a few exits never come and some come up to 90 s late; the app hears exactly what the monitoring reports; the seed repeats it")
    func lateAndMissedExits() throws {
        let punctual = try ScenarioRunner(scenario: Walk.scenario(offScreen: false)).run(until: 400)
        let phone = try ScenarioRunner(scenario: Walk.scenario(offScreen: false, punctualExits: false)).run(until: 400)
        let onTime = Walk.crossings(punctual, "exit"), reported = Walk.crossings(phone, "exit")
        // The radio is the same: the same entries at the same times.
        #expect(Walk.crossings(phone, "enter") == Walk.crossings(punctual, "enter"))
        #expect(onTime.count == 32)
        let missed = onTime.keys.filter { reported[$0] == nil }
        // exitMissProbability 0.1: 32 departures miss about 3; bounds wide enough for any fair draw.
        #expect((1 ... 10).contains(missed.count), "missed \(missed.sorted())")
        var late = 0
        for (region, exit) in reported {
            let due = try #require(onTime[region], "\(region) exit only in the phone's run")
            // lateExitDelay 0–90 s after the exit period; one tick of rounding either way.
            #expect(exit >= due - 1 && exit <= due + 91, "\(region): due \(due), reported \(exit)")
            if exit > due + 1 { late += 1 }
        }
        // lateExitProbability 0.2: about 6 of 29; at least one.
        #expect((1 ... 20).contains(late), "\(late) late exits")
        // On screen, the app is told each exit the monitoring reports, when it reports it, and no other.
        let told = Walk.deliveries(phone, "didExitRegion")
        #expect(Set(told.keys) == Set(reported.keys))
        for (region, heard) in told {
            #expect(Walk.atOnce(heard, after: try #require(reported[region])), "\(region)")
        }
        let again = try ScenarioRunner(scenario: Walk.scenario(offScreen: false, punctualExits: false)).run(until: 400)
        #expect(Walk.crossings(again, "exit") == reported)
    }
}
