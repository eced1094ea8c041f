import BLEBeacons
import BLEScenarios
import BLEWorld
import Testing

/// Scenarios/walk.yaml: a walker passing a beacon at 5 cm at 1 m/s, a stander turning
/// their back on it.
@Suite("The walk scenario")
struct WalkScenarioTests {
    @Test("The walker enters, ranges far, near, immediate, then far once the body is between, unknown, and exits")
    func walkerTimeline() throws {
        let timeline = try runBundled("walk")
        let walker = timeline.events(of: "walker").filter { $0.kindName != "passed" }
        #expect(walker.map(\.kindName) == ["firstHeard", "enter", "proximity", "proximity", "proximity", "proximity",
                                           "proximity", "exit"])
        #expect(timeline.proximities(of: "walker").map(\.0) == [.far, .near, .immediate, .far, .unknown])
        // First heard where the budget runs out: -19 dBm - 40 dB - 25 log10(27.5) = -95 dBm.
        let first = try #require(walker.first?.sighting)
        #expect(abs((first.distance ?? 0) - 27.5) < 0.2)
        #expect(first.rssi == -95)
    }

    @Test("Immediate only within about 10 cm; near from about 2 m on the approach")
    func transitionDistances() throws {
        let timeline = try runBundled("walk")
        for (proximity, event) in timeline.proximities(of: "walker") {
            let distance = try #require(event.sighting?.distance)
            switch proximity {
            case .immediate: #expect(distance <= 0.126, "immediate at \(distance) m")
            case .near: #expect(distance <= 2.0, "near at \(distance) m")
            case .far: #expect(distance > 0.5, "far at \(distance) m")
            case .unknown: break
            }
        }
        // Every tick classifies the latest advertisement (ARMA coefficient 1), so the
        // immediate tick is the one at t = 40 s, when the walker is beside the beacon.
        let immediate = try #require(timeline.proximities(of: "walker").first { $0.0 == .immediate }?.1)
        #expect(immediate.seconds == 40)
    }

    @Test("Past the beacon the body is between: near is gone 1 m on, and the beacon is lost at 6.9 m instead of 27.5 m")
    func bodyShadowsAfterPassing() throws {
        let timeline = try runBundled("walk")
        let unknown = try #require(timeline.proximities(of: "walker").first { $0.0 == .unknown }?.1.sighting)
        // 76 dB of budget less 15 dB of body: 10^((76 - 15 - 40) / 25) = 6.9 m.
        #expect(abs((unknown.distance ?? 0) - 6.9) < 0.2)
        // The same walk without the body turning is symmetric: near after immediate, lost at 27.5 m.
        let bare = try runBundled("walk") { scenario in
            for index in scenario.devices.indices { scenario.devices[index].description.bodyLossDB = 0 }
        }
        #expect(bare.proximities(of: "walker").map(\.0) == [.far, .near, .immediate, .near, .far, .unknown])
        let bareUnknown = try #require(bare.proximities(of: "walker").first { $0.0 == .unknown }?.1.sighting)
        #expect(abs((bareUnknown.distance ?? 0) - 27.5) < 0.2)
        // At equal distances before and after the pass, the phone hears 15 dB less after.
        let receptions = timeline.receptions(of: "walker")
        let before = try #require(receptions.first { $0.observerPosition.x >= -3 })
        let after = try #require(receptions.first { $0.observerPosition.x >= 3 })
        #expect(before.rssi - after.rssi >= 14)
    }

    @Test("The stander turning their back on the beacon drops it from near to far by 15 dB, and back")
    func turningLowersRSSI() throws {
        let timeline = try runBundled("walk")
        let stander = timeline.events(of: "stander").filter { $0.kindName != "firstHeard" }
        #expect(stander.map(\.kindName) == ["enter", "proximity", "action", "proximity", "action", "proximity"])
        let classes = timeline.proximities(of: "stander")
        #expect(classes.map(\.0) == [.near, .far, .near])
        #expect(classes.map(\.1.seconds) == [1, 21, 31])
        let facing = try #require(classes.first?.1.sighting?.rssi)
        let turned = try #require(classes.dropFirst().first?.1.sighting?.rssi)
        #expect(facing - turned == 15)
    }

    @Test("The walker exits the region 30 s after the beacon was last heard")
    func exitAfterExitPeriod() throws {
        let timeline = try runBundled("walk")
        let last = try #require(timeline.receptions(of: "walker").last)
        let exit = try #require(timeline.events(of: "walker", "exit").first)
        #expect(exit.time == last.time + 30_000_000)
        #expect(timeline.events(of: "stander", "exit").isEmpty)
    }

    @Test("The same scenario and seed give the same timeline, text and JSON")
    func deterministic() throws {
        let first = try runBundled("walk")
        let second = try runBundled("walk")
        #expect(first == second)
        #expect(first.text == second.text)
        #expect(first.jsonLines == second.jsonLines)
        let other = try runBundled("walk", seed: 2)
        #expect(other.events.map(\.kindName) == first.events.map(\.kindName))
    }
}
