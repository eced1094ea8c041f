import BLEScenarios
import BLEWorld
import Testing

/// The location authorization of a scenario app without a program (`location:`), applied to
/// the region events its phone's `observe:` monitoring hands it (research §9, rule 22;
/// Apple, "Choosing the Location Services Authorization to Request": When In Use receives
/// events "while the app is in use", only Always has the system launch or wake the app for
/// them; `CLError.regionMonitoringDenied` when the user denied it).
@Suite("The location authorization of a scenario's apps without a program")
struct PhoneAppLocationScenarioTests {
    /// bus-stop-pocket with the Bus app's authorization set to `location`; `onScreen` keeps the
    /// app on screen (its `background` action taken out).
    static func run(location: String, onScreen: Bool = false) throws -> [String] {
        let timeline = try runBundled("bus-stop-pocket") { scenario in
            scenario.devices[1].apps[0].location = location
            if onScreen {
                scenario.actions.removeAll { $0.action == .app("rider", app: "Bus", .background) }
            }
        }
        return PhoneScenarioTests.lines(timeline, app: "Bus").map(\.1)
    }

    @Test("Always, the default: the entry wakes the app in the pocket, as before")
    func alwaysWakes() throws {
        #expect(try BundledScenarios.scenario(named: "bus-stop-pocket").devices[1].apps.map(\.location) == ["always", "always"])
        let bus = try Self.run(location: "always")
        #expect(bus.contains("suspended → background"))
        #expect(bus.contains("← didEnterRegion \"stop\""))
    }

    @Test("When In Use: off screen the entry never reaches the app, which is not woken")
    func whenInUseOffScreen() throws {
        let bus = try Self.run(location: "whenInUse")
        #expect(bus.contains("never gets didEnterRegion \"stop\": with When In Use authorization location events reach the app only while it is in use"),
                "\(bus)")
        #expect(!bus.contains("← didEnterRegion \"stop\""))
        #expect(!bus.contains("suspended → background"))
    }

    @Test("When In Use: on screen the entry reaches the app")
    func whenInUseOnScreen() throws {
        let bus = try Self.run(location: "whenInUse", onScreen: true)
        #expect(bus.contains("← didEnterRegion \"stop\""), "\(bus)")
        #expect(!bus.contains { $0.hasPrefix("never gets") })
    }

    @Test("Denied or not determined: the entry never reaches the app, on screen or off", arguments: [
        ("denied", "the user denied the app location authorization"),
        ("notDetermined", "the app has no location authorization"),
    ])
    func neverWithoutAuthorization(location: String, reason: String) throws {
        for onScreen in [false, true] {
            let bus = try Self.run(location: location, onScreen: onScreen)
            #expect(bus.contains("never gets didEnterRegion \"stop\": " + reason), "\(bus)")
            #expect(!bus.contains("← didEnterRegion \"stop\""))
        }
    }

    @Test("Denied: the app's regions are not monitored, so they take no place among the phone's priority regions (rule 20)")
    func deniedTakesNoPriority() throws {
        // Blocked follows all 32 regions and is registered first: allowed, it takes the 30
        // priority places and Guide's entry of r01 comes best effort, a minute or more late;
        // denied, Guide's registrations are the first and its entry comes 1-12 s late.
        func guideEntryDelay(blocked: String) throws -> Double? {
            var scenario = try PhoneRegionPriorityScenarioTests.scenario(offScreen: true)
            scenario.devices[0].apps.insert(ScenarioApp(name: "Blocked"), at: 0)
            scenario.devices[0].apps[0].location = blocked
            let timeline = try ScenarioRunner(scenario: scenario).run(until: 200)
            let entered = try #require(PhoneRegionPriorityScenarioTests.crossings(timeline, "enter")["r01"])
            return PhoneRegionPriorityScenarioTests.deliveries(timeline, "didEnterRegion")["r01"].map { $0 - entered }
        }
        let denied = try #require(try guideEntryDelay(blocked: "denied"))
        #expect((0 ... 13).contains(denied), "\(denied)")
        let allowed = try guideEntryDelay(blocked: "always")
        #expect(allowed.map { $0 >= 60 } ?? true, "\(String(describing: allowed))")
    }
}
