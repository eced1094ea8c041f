import BLEBeacons
import Testing

/// The monitoring core with the radio switched off and on again (Bluetooth off in an
/// iPhone's Settings; iOS research §7 and §9, rule 22; Stack Overflow answer 34062216).
@Suite("Region monitoring core with the radio off")
struct BeaconMonitorRadioTests {
    static let door = BeaconMonitorTests.door
    static let home = BeaconMonitorTests.home

    /// A monitor inside `home` since 1 s.
    private func inside() throws -> BeaconMonitor {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        _ = monitor.detected(Self.door, at: seconds(1))
        return monitor
    }

    @Test("Switched off, an inside region becomes unknown with no exit, hears nothing and answers no state request")
    func offIsSilent() throws {
        var monitor = try inside()
        monitor.radioSwitchedOff(at: seconds(2))
        #expect(!monitor.isRadioOn)
        #expect(monitor.state(of: "home") == .unknown)
        #expect(monitor.nextDeadline == nil)
        #expect(monitor.tick(at: seconds(100)).isEmpty)
        #expect(monitor.detected(Self.door, at: seconds(101)).isEmpty)
        #expect(monitor.requestState(for: "home", at: seconds(102)).isEmpty)
        #expect(monitor.state(of: "home") == .unknown)
    }

    @Test("Back on with the beacon still there: didDetermineState inside alone, no entry")
    func onInsideIsQuiet() throws {
        var monitor = try inside()
        monitor.radioSwitchedOff(at: seconds(2))
        monitor.radioSwitchedOn(at: seconds(10))
        #expect(monitor.requestState(for: "home", at: seconds(10)) == [.didDetermineState(.unknown, for: Self.home, at: seconds(10))])
        #expect(monitor.detected(Self.door, at: seconds(11)) == [.didDetermineState(.inside, for: Self.home, at: seconds(11))])
        // The next crossings are ordinary ones.
        #expect(monitor.tick(at: seconds(41)) == [
            .didDetermineState(.outside, for: Self.home, at: seconds(41)), .didExit(Self.home, at: seconds(41)),
        ])
        #expect(monitor.detected(Self.door, at: seconds(50)) == [
            .didDetermineState(.inside, for: Self.home, at: seconds(50)), .didEnter(Self.home, at: seconds(50)),
        ])
    }

    @Test("Back on after the beacon left: didDetermineState outside alone after the exit period, no exit; the next beacon enters")
    func onOutsideIsQuiet() throws {
        var monitor = try inside()
        monitor.radioSwitchedOff(at: seconds(2))
        monitor.radioSwitchedOn(at: seconds(60))
        #expect(monitor.nextDeadline == seconds(90))
        #expect(monitor.tick(at: seconds(89)).isEmpty)
        #expect(monitor.tick(at: seconds(90)) == [.didDetermineState(.outside, for: Self.home, at: seconds(90))])
        #expect(monitor.detected(Self.door, at: seconds(95)) == [
            .didDetermineState(.inside, for: Self.home, at: seconds(95)), .didEnter(Self.home, at: seconds(95)),
        ])
    }
}
