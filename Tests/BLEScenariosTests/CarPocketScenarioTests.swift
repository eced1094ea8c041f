import BLEController
import BLEPhone
import BLEScenarios
import BLEWorld
import Testing

/// Scenarios/car-pocket.yaml (50 km/h) and car-pocket-20.yaml (20 km/h): the car of car.yaml
/// with its phone in the driver's pocket, an app monitoring both posts' regions off screen,
/// and the phone scanning as iOS does with no app on screen (rule 8's background duty).
@Suite("The car's phone in a pocket")
struct CarPocketScenarioTests {
    /// One pass of the car, as the world saw it and as the phone's app was told.
    struct Pass {
        /// The posts whose packets the phone's radio received (the world's receptions).
        var heard: [String: Int] = [:]
        /// The regions the app was told it entered (`didEnterRegion` delivered to Posts).
        var told: Set<String> = []
        /// When the phone's radio received anything after the screen was locked (µs).
        var receivedAfterLock: [Microseconds] = []
    }

    /// The posts and the regions the app follows for them.
    static let regions = ["post 100 ms": "100 ms post", "post 1000 ms": "1000 ms post"]

    /// Runs `name` with `seed` to its duration; `continuous` gives the phone the dashboard
    /// phone's continuous scan instead (its own `scan:`, so it no longer scans as iOS does);
    /// `change` changes the scenario first.
    /// `phone`, `app` and `regions` name the phone, its app and the regions of its beacons.
    static func pass(_ name: String, seed: UInt64, continuous: Bool = false, phone phoneName: String = "phone",
                     app: String = "Posts", regions: [String: String] = CarPocketScenarioTests.regions,
                     change: (inout Scenario) -> Void = { _ in }) throws -> Pass {
        var scenario = try BundledScenarios.scenario(named: name)
        scenario.seed = seed
        change(&scenario)
        if continuous, let index = scenario.devices.firstIndex(where: { $0.name == phoneName }) {
            scenario.devices[index].scanning = ScenarioScanning(intervalMilliseconds: 100, windowMilliseconds: 100, active: false)
            scenario.devices[index].host = .scripted
        }
        let runner = try ScenarioRunner(scenario: scenario)
        let phone = try #require(runner.built.id(of: phoneName))
        var pass = Pass()
        runner.world.onReception = { [built = runner.built] reception in
            guard reception.receiver == phone, let sender = built.name(of: reception.sender) else { return }
            pass.heard[sender, default: 0] += 1
            if reception.time > 1_100_000 { pass.receivedAfterLock.append(reception.time) }
        }
        let timeline = runner.run(until: scenario.durationSeconds ?? 60)
        for event in timeline.events(of: phoneName) {
            guard case .app(app, let words) = event.kind, words.hasPrefix("← ") else { continue }
            for region in regions.values where words.contains("didEnterRegion \"\(region)\"") { pass.told.insert(region) }
        }
        return pass
    }

    /// The shortest arc of a `period`-long circle that holds every one of `times` (µs) taken
    /// modulo the period: how much of each scan interval the radio was heard to listen in.
    static func arc(of times: [Microseconds], period: Microseconds) -> Microseconds {
        let phases = Set(times.map { (($0 % period) + period) % period }).sorted()
        guard let first = phases.first, let last = phases.last else { return 0 }
        var widestGap = first + period - last
        for (a, b) in zip(phases, phases.dropFirst()) { widestGap = max(widestGap, b - a) }
        return period - widestGap
    }

    @Test("In the pocket the radio receives only inside 30 ms windows 300 ms apart: the background duty, not the dashboard's continuous scan")
    func backgroundDuty() throws {
        let policy = PhonePolicy()
        for seed in UInt64(1) ... 3 {
            let pocket = try Self.pass("car-pocket-20", seed: seed)
            let dashboard = try Self.pass("car-pocket-20", seed: seed, continuous: true)
            // A packet is received when the radio locks on within the window; it ends under a
            // millisecond later (an iBeacon PDU is 376 µs on LE 1M).
            #expect(pocket.receivedAfterLock.count >= 2, "seed \(seed): \(pocket.receivedAfterLock.count) receptions")
            #expect(Self.arc(of: pocket.receivedAfterLock, period: policy.backgroundScanInterval) <= policy.backgroundScanWindow + 1_000,
                    "seed \(seed): heard across \(Self.arc(of: pocket.receivedAfterLock, period: policy.backgroundScanInterval)) µs of 300 ms")
            #expect(Self.arc(of: dashboard.receivedAfterLock, period: policy.backgroundScanInterval) > 200_000)
            #expect(pocket.receivedAfterLock.count * 4 < dashboard.receivedAfterLock.count,
                    "seed \(seed): pocket \(pocket.receivedAfterLock.count), continuous \(dashboard.receivedAfterLock.count)")
        }
    }

    @Test("With the app left on screen the phone scans at the foreground duty and hears across the whole interval")
    func foregroundDuty() throws {
        let onScreen = try Self.pass("car-pocket-20", seed: 1) { scenario in
            scenario.actions.removeAll { if case .screen = $0.action { true } else { false } }
        }
        let pocket = try Self.pass("car-pocket-20", seed: 1)
        #expect(Self.arc(of: onScreen.receivedAfterLock, period: 300_000) > 200_000)
        #expect(onScreen.receivedAfterLock.count > 4 * pocket.receivedAfterLock.count,
                "on screen \(onScreen.receivedAfterLock.count), in the pocket \(pocket.receivedAfterLock.count)")
        #expect(onScreen.told == ["100 ms post", "1000 ms post"])
    }

    @Test("On iOS 7's profile the pocket phone listens only in its first 25 s burst: nothing after it, so never the 1,000 ms post at 32 s")
    func iOS7Bursts() throws {
        let policy = try #require(PhonePolicy.profile(named: "iOS7"))
        for seed in UInt64(1) ... 5 {
            var scenario = try BundledScenarios.scenario(named: "car-pocket")
            scenario.seed = seed
            let index = try #require(scenario.devices.firstIndex { $0.name == "phone" })
            scenario.devices[index].phone = ScenarioPhone(profile: "iOS7", policy: policy)
            let runner = try ScenarioRunner(scenario: scenario)
            let timeline = runner.run(until: 60)
            let receptions = timeline.receptions(of: "phone")
            #expect(receptions.allSatisfy { $0.time < policy.backgroundScanBurst }, "seed \(seed)")
            #expect(!receptions.contains { $0.beacon == "post 1000 ms" })
            #expect(!timeline.events(of: "phone", "enter").contains { $0.region == "1000 ms post" })
        }
    }

    @Test("Over seeds 1-20 the app is told of exactly the posts the phone's radio heard: in a pocket the 1,000 ms post is mostly missed at both speeds, the 100 ms post mostly heard")
    func whichPostsAtWhichSpeed() throws {
        var told: [String: [String: Int]] = [:]
        var dashboardHeard: [String: [String: Int]] = [:]
        var packets: [String: (pocket: [String: Int], continuous: [String: Int])] = [:]
        let seeds = UInt64(1) ... 20
        for name in ["car-pocket-20", "car-pocket"] {
            for seed in seeds {
                let pocket = try Self.pass(name, seed: seed)
                let dashboard = try Self.pass(name, seed: seed, continuous: true)
                // The app hears of a post exactly when the phone's radio received one of its packets.
                let heardRegions = Set(pocket.heard.keys.compactMap { Self.regions[$0] })
                #expect(pocket.told == heardRegions, "\(name) seed \(seed): told \(pocket.told), radio heard \(pocket.heard)")
                for region in pocket.told { told[name, default: [:]][region, default: 0] += 1 }
                for (post, count) in pocket.heard { packets[name, default: ([:], [:])].pocket[post, default: 0] += count }
                for (post, count) in dashboard.heard { packets[name, default: ([:], [:])].continuous[post, default: 0] += count }
                for (post, count) in dashboard.heard where count > 0 {
                    if let region = Self.regions[post] { dashboardHeard[name, default: [:]][region, default: 0] += 1 }
                }
            }
        }
        for name in ["car-pocket-20", "car-pocket"] {
            print("\(name): pocket app told of 100 ms post on \(told[name]?["100 ms post"] ?? 0) of \(seeds.count) passes, "
                  + "1000 ms post on \(told[name]?["1000 ms post"] ?? 0); continuous scan heard them on "
                  + "\(dashboardHeard[name]?["100 ms post"] ?? 0) and \(dashboardHeard[name]?["1000 ms post"] ?? 0); packets received "
                  + "in the pocket \(packets[name]?.pocket ?? [:]), by the continuous scan \(packets[name]?.continuous ?? [:])")
        }
        for name in ["car-pocket-20", "car-pocket"] {
            let slow = told[name]?["1000 ms post"] ?? 0
            let fast = told[name]?["100 ms post"] ?? 0
            let slowDashboard = dashboardHeard[name]?["1000 ms post"] ?? 0
            // A continuous scan hears both posts on (nearly) every pass at either speed.
            #expect(slowDashboard >= 18, "\(name): continuous scan heard the 1,000 ms post on \(slowDashboard) of 20")
            #expect((dashboardHeard[name]?["100 ms post"] ?? 0) == 20)
            // The background duty listens a tenth of the time: a 1 s post gives one to four
            // chances in range, the 100 ms post ten times as many.
            #expect(slow * 2 <= slowDashboard, "\(name): 1,000 ms post told on \(slow) of 20")
            #expect(fast >= (name == "car-pocket" ? 12 : 17), "\(name): 100 ms post told on \(fast) of 20")
            // Why: of the packets a continuous scan receives, the pocket's receives about a tenth.
            let pocketPackets = packets[name]?.pocket.values.reduce(0, +) ?? 0
            let continuousPackets = packets[name]?.continuous.values.reduce(0, +) ?? 0
            #expect(pocketPackets * 4 < continuousPackets && pocketPackets * 20 > continuousPackets,
                    "\(name): \(pocketPackets) packets in the pocket, \(continuousPackets) with a continuous scan")
        }
    }
}

/// Scenarios/bus-route-pocket.yaml: bus-route.yaml's rider with the phone in a pocket, its app
/// monitoring the three stops, the phone scanning as iOS does with no app on screen.
@Suite("The bus rider's phone in a pocket")
struct BusRoutePocketScenarioTests {
    static let stops = ["stop 1 beacon": "stop 1", "stop 2 beacon": "stop 2", "stop 3 beacon": "stop 3"]

    @Test("Over seeds 1-20 the app is told of exactly the stops the phone's radio heard, fewer than a continuous scan hears")
    func stopsInAPocket() throws {
        var told = 0, heardContinuously = 0, pocketPackets = 0, continuousPackets = 0
        for seed in UInt64(1) ... 20 {
            let pocket = try CarPocketScenarioTests.pass("bus-route-pocket", seed: seed, phone: "rider", app: "Rides", regions: Self.stops)
            let continuous = try CarPocketScenarioTests.pass("bus-route-pocket", seed: seed, continuous: true, phone: "rider",
                                                              app: "Rides", regions: Self.stops)
            let heardStops = Set(pocket.heard.keys.compactMap { Self.stops[$0] })
            #expect(pocket.told == heardStops, "seed \(seed): told \(pocket.told), radio heard \(pocket.heard)")
            told += pocket.told.count
            heardContinuously += continuous.heard.keys.filter { Self.stops[$0] != nil }.count
            pocketPackets += pocket.heard.filter { Self.stops[$0.key] != nil }.values.reduce(0, +)
            continuousPackets += continuous.heard.filter { Self.stops[$0.key] != nil }.values.reduce(0, +)
        }
        print("bus-route-pocket: the app was told of \(told) of 60 stops passed; a continuous scan heard \(heardContinuously); "
              + "stop packets received in the pocket \(pocketPackets), by the continuous scan \(continuousPackets)")
        #expect(heardContinuously >= 57)
        #expect(told < heardContinuously)
        #expect(pocketPackets * 4 < continuousPackets && pocketPackets * 20 > continuousPackets)
    }
}
