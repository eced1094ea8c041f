import BLEBeacons
import BLEScenarios
import BLEWorld
import Testing

/// Scenarios/crowd.yaml: 200 beacons at 100 ms in one hall.
@Suite("The crowd scenario")
struct CrowdScenarioTests {
    @Test("Monitoring hears each of the 200 beacons within 10 s, and enters the hall's region once")
    func everyBeaconWithinTenSeconds() throws {
        let timeline = try runBundled("crowd")
        let first = timeline.events(of: "visitor", "firstHeard")
        #expect(first.count == 200)
        #expect(Set(first.compactMap { $0.sighting?.identity.minor }) == Set(1 ... 200))
        let latest = first.map(\.seconds).max() ?? .infinity
        #expect(latest < 10, "the last beacon was first heard at \(latest) s")
        #expect(timeline.events(of: "visitor", "enter").map(\.region) == ["hall"])
        #expect(timeline.events(of: "visitor", "exit").isEmpty)
    }

    @Test("Beacons switched on together collide: started in step, far fewer advertisements get through")
    func synchronisedStartCollides() throws {
        let staggered = try runBundled("crowd", until: 5)
        let together = try runBundled("crowd", until: 5) { scenario in
            for index in scenario.devices.indices where scenario.devices[index].advertising != nil {
                scenario.devices[index].start = .at(0)
                scenario.devices[index].advertising?.intervalMilliseconds = 1000
            }
        }
        let staggeredSlow = try runBundled("crowd", until: 5) { scenario in
            for index in scenario.devices.indices { scenario.devices[index].advertising?.intervalMilliseconds = 1000 }
        }
        // At 1 s intervals started in step, advDelay (0-10 ms) spreads the 200 beacons over
        // a few tens of milliseconds only, so most of their packets overlap.
        #expect(together.receptions.count * 2 < staggeredSlow.receptions.count,
                "in step \(together.receptions.count), staggered \(staggeredSlow.receptions.count)")
        #expect(staggered.receptions.count > staggeredSlow.receptions.count)
    }
}

/// Scenarios/car.yaml: a car at 50 km/h past a 100 ms and a 1,000 ms roadside beacon.
@Suite("The car scenario")
struct CarScenarioTests {
    @Test("At the scenario's seed both posts are detected; the 100 ms one many times, the 1,000 ms one once or twice")
    func scenarioSeed() throws {
        let timeline = try runBundled("car")
        #expect(timeline.events(of: "phone", "enter").map(\.region) == ["100 ms post", "1000 ms post"])
        let fast = timeline.receptions(of: "phone", beacon: "post 100 ms")
        let slow = timeline.receptions(of: "phone", beacon: "post 1000 ms")
        #expect(fast.count >= 5)
        #expect((1 ... 2).contains(slow.count))
        // Heard only while the car is near the post: within 20 m of it along the road.
        #expect(fast.allSatisfy { abs($0.observerPosition.x - 0) < 20 })
        #expect(slow.allSatisfy { abs($0.observerPosition.x - 300) < 20 })
    }

    @Test("Over 20 seeds the 100 ms post is detected on every pass, many times; the 1,000 ms post at most three times, on most passes")
    func detectionOverSeeds() throws {
        var fastCounts: [Int] = []
        var slowCounts: [Int] = []
        for seed in UInt64(1) ... 20 {
            let timeline = try runBundled("car", seed: seed)
            fastCounts.append(timeline.receptions(of: "phone", beacon: "post 100 ms").count)
            slowCounts.append(timeline.receptions(of: "phone", beacon: "post 1000 ms").count)
        }
        #expect(fastCounts.allSatisfy { $0 >= 5 }, "100 ms post: \(fastCounts)")
        // The in-range time is about 1.35 s: one or two 1 s events, which fading can lose.
        #expect(slowCounts.allSatisfy { $0 <= 3 }, "1,000 ms post: \(slowCounts)")
        let slowDetected = slowCounts.filter { $0 > 0 }.count
        #expect(slowDetected >= 15, "the 1,000 ms post was detected in \(slowDetected) of 20 passes")
        print("car: 100 ms post heard \(fastCounts.min() ?? 0)-\(fastCounts.max() ?? 0) times a pass; "
              + "1,000 ms post \(slowCounts.min() ?? 0)-\(slowCounts.max() ?? 0) times, detected in \(slowDetected) of 20 passes")
    }
}
