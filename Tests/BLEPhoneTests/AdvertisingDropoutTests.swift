import BLEPhone
import Testing

/// The pauses of an off-screen app's advertising (research §9, rule 12, `bgAdvDropout`),
/// from the schedule alone, on virtual time in microseconds.
@Suite("The simulated iPhone's background advertising dropouts")
struct AdvertisingDropoutTests {
    static let dropouts = AdvertisingDropouts(between: 2_000_000 ... 3_000_000, pause: 1_000_000 ... 2_000_000)

    /// The runs and pauses from `start` to `end`: (on air, from, to).
    static func phases(seed: UInt64, start: Int64, end: Int64) -> [(Bool, Int64, Int64)] {
        var schedule = AdvertisingDropoutSchedule(dropouts, seed: seed, start: start)
        var phases: [(Bool, Int64, Int64)] = []
        var time = start
        while time < end {
            let phase = schedule.phase(at: time)
            phases.append((phase.advertising, time, phase.changesAt))
            time = phase.changesAt
        }
        return phases
    }

    @Test("Rule 12: off screen the advertising runs 2–3 s, pauses 1–2 s, and so on, alternating, from when it went off screen")
    func runsAndPauses() {
        let phases = Self.phases(seed: 7, start: 5_000_000, end: 65_000_000)
        #expect(phases.count >= 24)
        #expect(phases.first?.0 == true)
        for (index, (advertising, from, to)) in phases.enumerated() {
            #expect(advertising == index.isMultiple(of: 2))
            let range = advertising ? Self.dropouts.between : Self.dropouts.pause
            #expect(range.contains(to - from), "\(advertising ? "run" : "pause") of \(to - from) µs")
        }
        // Asked for a moment inside a phase, the schedule says the same.
        var schedule = AdvertisingDropoutSchedule(Self.dropouts, seed: 7, start: 5_000_000)
        let third = phases[2]
        #expect(schedule.phase(at: third.1 + 1) == AdvertisingDropoutSchedule.Phase(advertising: true, changesAt: third.2))
    }

    @Test("Rule 12: the same seed gives the same pauses; another seed, others; the phone's seeds repeat with its own")
    func seeded() {
        let one = Self.phases(seed: 1, start: 0, end: 60_000_000).map(\.2)
        #expect(one == Self.phases(seed: 1, start: 0, end: 60_000_000).map(\.2))
        #expect(one != Self.phases(seed: 2, start: 0, end: 60_000_000).map(\.2))
        var first = PhoneCore(seed: 9), second = PhoneCore(seed: 9)
        #expect(first.nextAdvertisingDropoutSeed() == second.nextAdvertisingDropoutSeed())
        #expect(PhonePolicy().backgroundAdvertisingDropouts == nil, "off by default")
    }
}
