import BLEScenarios
import BLEWorld
import Testing

/// Rule 20 (research §9) for a scenario's `observe:` phone: the regions its file monitors
/// count against `PhonePolicy.deviceRegionPriority` in the order they are registered, so
/// beyond the 30th an off-screen app hears of a region best effort, minutes late.
@Suite("The device-wide region priority on a scenario's phone")
struct PhoneRegionPriorityScenarioTests {
    static let uuid = "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51"

    /// A walker passing 32 beacons, one region each (`r01` … `r32`, in file order), with one
    /// app following them all; `offScreen` puts the app in the background at 1 s. With
    /// `punctualExits` (the default: rule 20 is examined here) every exit comes one exit
    /// period after the last packet; without, as the phone's monitoring reports them (rule 21).
    static func scenario(offScreen: Bool, seed: UInt64 = 11, punctualExits: Bool = true) throws -> Scenario {
        let numbers = 1 ... 32
        let regions = numbers.map { "{identifier: \(name($0)), uuid: \(uuid), major: 1, minor: \($0)}" }
        let beacons = numbers.map { number in
            "  - {name: beacon \(number), position: [\(Double(number) - 16.5), 0, 2.5], txPower: -12, startAt: random, "
                + "advertise: {type: nonconn_ind, interval: 1000, iBeacon: {uuid: \(uuid), major: 1, minor: \(number), measuredPower: -52}}}"
        }
        let yaml = """
        name: thirty-two beacons
        seed: \(seed)
        timing: realistic
        radio: {referenceLossDB: 40, pathLossExponent: 2.5, shadowingSigmaDB: 0, captureMarginDB: 6}
        devices:
          - name: walker
            position: [0, -150, 1.0]
            route: {waypoints: [[0, -5, 1.0], [0, -400, 1.0]], speed: 3}
            scan: {interval: 100, window: 100}
            observe:
              monitor: [\(regions.joined(separator: ", "))]
              range: false
              exitPeriod: 10
            apps:
              - {name: Guide}
            phone: {punctualExits: \(punctualExits)}
        \(beacons.joined(separator: "\n"))
        actions:
          - {at: 0, app: {device: walker, app: Guide, do: launch}}

        """ + (offScreen ? "  - {at: 1, app: {device: walker, app: Guide, do: background}}\n" : "")
        return try ScenarioLoader.parse(yaml: yaml)
    }

    static func name(_ number: Int) -> String { number < 10 ? "r0\(number)" : "r\(number)" }

    /// Whether `heard` is the moment the walker's monitoring reported a crossing stamped
    /// `crossed`: an exit is stamped at the end of its exit period and found at the
    /// monitoring's next once-a-second tick (`ScenarioRunner.tickInterval`).
    static func atOnce(_ heard: Double, after crossed: Double) -> Bool {
        heard >= crossed && heard - crossed <= Double(ScenarioRunner.tickInterval) / 1_000_000
    }

    /// When the walker's monitoring saw each crossing (`enter` or `exit`), by region: the
    /// world's truth of what the phone's system knows.
    static func crossings(_ timeline: ScenarioTimeline, _ kind: String) -> [String: Double] {
        Dictionary(timeline.events(of: "walker", kind).compactMap { event in event.region.map { ($0, event.seconds) } },
                   uniquingKeysWith: { first, _ in first })
    }

    /// When the app heard each `call` ("didEnterRegion" or "didExitRegion"), by region.
    static func deliveries(_ timeline: ScenarioTimeline, _ call: String) -> [String: Double] {
        var heard: [String: Double] = [:]
        for event in timeline.events(of: "walker") {
            guard case let .app("Guide", words) = event.kind, words.hasPrefix("← ") else { continue }
            for delivered in words.dropFirst(2).split(separator: ", ") where delivered.hasPrefix(call + " \"") {
                let region = String(delivered.dropFirst(call.count + 2).dropLast())
                if heard[region] == nil { heard[region] = event.seconds }
            }
        }
        return heard
    }

    @Test("Rule 20: off screen, the first 30 regions of an observe phone come on time, the 31st and 32nd best effort, minutes late and seeded")
    func bestEffortBeyondThirty() throws {
        let timeline = try ScenarioRunner(scenario: Self.scenario(offScreen: true)).run(until: 1_100)
        let entered = Self.crossings(timeline, "enter"), exited = Self.crossings(timeline, "exit")
        let entries = Self.deliveries(timeline, "didEnterRegion"), exits = Self.deliveries(timeline, "didExitRegion")
        #expect(entered.count == 32 && exited.count == 32, "the walker meets and leaves every beacon")
        for number in 1 ... 32 {
            let region = Self.name(number)
            let enter = try #require(entered[region]), exit = try #require(exited[region])
            #expect(enter > 1 && exit < 200, "\(region): met and left off screen")
            let heardEnter = try #require(entries[region], "\(region) entry"), heardExit = try #require(exits[region], "\(region) exit")
            if number <= 30 {
                // Rule 21: an off-screen entry 1 to 12 s late; the exit (punctual here) at once.
                #expect((enter + 1 ... enter + 12).contains(heardEnter), "\(region): entered \(enter), heard \(heardEnter)")
                #expect(Self.atOnce(heardExit, after: exit), "\(region): exited \(exit), heard \(heardExit)")
            } else {
                // Rule 20: best effort, 1 to 15 min late.
                #expect((enter + 60 ... enter + 900).contains(heardEnter), "\(region): entered \(enter), heard \(heardEnter)")
                #expect((exit + 60 ... exit + 900).contains(heardExit), "\(region): exited \(exit), heard \(heardExit)")
            }
        }
        // The same seed, the same delays.
        let again = try ScenarioRunner(scenario: Self.scenario(offScreen: true)).run(until: 1_100)
        #expect(Self.deliveries(again, "didEnterRegion") == entries && Self.deliveries(again, "didExitRegion") == exits)
    }

    @Test("Rule 20: in the foreground an app hears all 32 regions of an observe phone at once")
    func allOnTimeInTheForeground() throws {
        let timeline = try ScenarioRunner(scenario: Self.scenario(offScreen: false)).run(until: 200)
        let entered = Self.crossings(timeline, "enter"), exited = Self.crossings(timeline, "exit")
        #expect(entered.count == 32 && exited.count == 32)
        #expect(Self.deliveries(timeline, "didEnterRegion") == entered)
        let exits = Self.deliveries(timeline, "didExitRegion")
        #expect(exits.count == 32)
        for (region, exit) in exited {
            let heard = try #require(exits[region], "\(region) exit")
            #expect(Self.atOnce(heard, after: exit), "\(region): exited \(exit), heard \(heard)")
        }
    }
}
