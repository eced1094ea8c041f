import BLEBeacons
import Testing

/// Rule 21's second half: exits late or never (iOS research §7 and §9; Radius Networks
/// 2015 and 2017), drawn from a seed.
@Suite("Region monitoring core: late and missed exits")
struct BeaconMonitorExitTimingTests {
    static let door = IBeaconIdentity(uuid: neighbourhoodUUID, major: 1, minor: 1)
    static let home = BeaconRegion(identifier: "home", constraint: BeaconIdentityConstraint(uuid: neighbourhoodUUID))
    /// The phone's defaults (`PhonePolicy`): a fifth late by up to 90 s, a tenth missed.
    static let phoneLike = ExitTiming(lateProbability: 0.2, lateBy: .zero ... .seconds(90), missProbability: 0.1, seed: 21)

    /// What one departure came to: the exit's delay after the last packet, or `nil` when
    /// it never came.
    struct Departure: Equatable {
        var delay: Int64?
        /// Whether the arrival that began the stay was reported as an entry.
        var entered: Bool
    }

    /// `count` visits of 5 s, each followed by 10 minutes without a packet, on virtual
    /// time; what each departure came to.
    static func departures(_ count: Int, exitTiming: ExitTiming) throws -> [Departure] {
        var monitor = BeaconMonitor(configuration: MonitoringConfiguration(exitTiming: exitTiming))
        try monitor.startMonitoring(home, at: 0)
        var result: [Departure] = []
        var start = seconds(1)
        for _ in 0 ..< count {
            var events: [MonitorEvent] = []
            for second in 0 ... 5 { events += monitor.detected(door, at: start + seconds(Double(second))) }
            let last = start + seconds(5)
            let entered = events.contains(.didEnter(home, at: start))
            events = []
            // A tick every second through the quiet 10 minutes, as an engine gives.
            for second in 1 ... 600 { events += monitor.tick(at: last + seconds(Double(second))) }
            let exit = events.first { if case .didExit = $0 { true } else { false } }
            result.append(Departure(delay: exit.map { $0.time - last }, entered: entered))
            start = last + seconds(601)
        }
        return result
    }

    @Test("Every exit comes between the exit period and 2 min after the last packet, on virtual time, and some come after 30 s")
    func exitWindow() throws {
        let departures = try Self.departures(300, exitTiming: Self.phoneLike)
        let delays = departures.compactMap(\.delay)
        #expect(!delays.isEmpty)
        #expect(delays.allSatisfy { (seconds(30) ... seconds(120)).contains($0) }, "\(delays)")
        let late = delays.filter { $0 > seconds(30) }
        // A fifth of the exits are late: 60 expected of 300 departures less the missed ones.
        #expect((Double(late.count) / Double(delays.count)).isInRange(0.1 ... 0.3), "\(late.count) late of \(delays.count)")
        #expect(late.contains { $0 > seconds(90) }, "the tail reaches past 90 s: \(late.max() ?? 0)")
        // The mean is Radius Networks' 35–42 s (2015).
        let mean = Double(delays.reduce(0, +)) / Double(delays.count) / 1e6
        #expect(mean.isInRange(35 ... 45), "mean \(mean) s")
    }

    @Test("About a tenth of departures never report an exit; the region stays inside and the return is no entry")
    func missedExits() throws {
        let departures = try Self.departures(500, exitTiming: Self.phoneLike)
        let missed = departures.indices.filter { departures[$0].delay == nil }
        #expect((Double(missed.count) / 500).isInRange(0.05 ... 0.15), "\(missed.count) of 500 missed")
        for index in missed where index + 1 < departures.count {
            #expect(!departures[index + 1].entered, "after the missed exit of visit \(index) the next visit is no entry")
        }
        for index in departures.indices.dropFirst() where departures[index - 1].delay != nil {
            #expect(departures[index].entered)
        }
    }

    @Test("After a missed exit the state asked for is inside, and the next departure is reported")
    func missedExitState() throws {
        let always = ExitTiming(missProbability: 1, seed: 1)
        var monitor = BeaconMonitor(configuration: MonitoringConfiguration(exitTiming: always))
        try monitor.startMonitoring(Self.home, at: 0)
        _ = monitor.detected(Self.door, at: seconds(1))
        #expect(monitor.nextDeadline == seconds(31))
        #expect(monitor.tick(at: seconds(31)).isEmpty)
        #expect(monitor.nextDeadline == nil)
        #expect(monitor.requestState(for: "home", at: seconds(100)) == [.didDetermineState(.inside, for: Self.home, at: seconds(100))])
        // Heard again: no entry, and a new departure armed.
        #expect(monitor.detected(Self.door, at: seconds(200)).isEmpty)
        #expect(monitor.nextDeadline == seconds(230))
    }

    @Test("With no missed exits every departure reports its exit")
    func noMisses() throws {
        var timing = Self.phoneLike
        timing.missProbability = 0
        let departures = try Self.departures(300, exitTiming: timing)
        #expect(departures.allSatisfy { $0.delay != nil && $0.entered })
        #expect(departures.contains { ($0.delay ?? 0) > seconds(30) })
    }

    @Test("Punctual exits, the default, come exactly at the exit period")
    func punctual() throws {
        let departures = try Self.departures(50, exitTiming: .punctual)
        #expect(departures.allSatisfy { $0.delay == seconds(30) && $0.entered })
    }

    @Test("The same seed gives the same departures; another seed, others")
    func seeded() throws {
        let first = try Self.departures(100, exitTiming: Self.phoneLike)
        #expect(try Self.departures(100, exitTiming: Self.phoneLike) == first)
        var other = Self.phoneLike
        other.seed = 22
        #expect(try Self.departures(100, exitTiming: other) != first)
    }
}

extension Double {
    fileprivate func isInRange(_ range: ClosedRange<Double>) -> Bool { range.contains(self) }
}
