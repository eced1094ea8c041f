import BLEPhone
import BLEScenarios
import BLEWorld
import Testing

/// Apps on a scenario's phone (BLEPhone's system in the timeline runner), on the world's
/// virtual clock.
@Suite("Apps on a simulated phone in scenarios")
struct PhoneScenarioTests {
    /// The app lines of `app` on the rider's phone, as "state → state" or "← call" text.
    static func lines(_ timeline: ScenarioTimeline, app: String) -> [(Double, String)] {
        timeline.events(of: "rider").compactMap { event in
            guard case let .app(name, words) = event.kind, name == app else { return nil }
            return (event.seconds, words)
        }
    }

    @Test("The bus app in a pocket is suspended before the stop, woken for the region entry, suspended after the wake window")
    func busAppInPocket() throws {
        let timeline = try runBundled("bus-stop-pocket")
        let bus = Self.lines(timeline, app: "Bus")
        #expect(bus.map(\.1) == [
            "notRunning → foreground", "foreground → background", "background → suspended",
            "suspended → background", "← didEnterRegion \"stop\"", "background → suspended",
            "suspended → terminated (forceQuit)",
        ])
        // Suspended 5 s after leaving the screen, before the stop is heard.
        #expect(bus[2].0 == 7)
        let enter = try #require(timeline.events(of: "rider", "enter").first)
        // In the background the entry comes 1 to 12 s late, then wakes the app for 10 s.
        #expect(bus[3].0 == bus[4].0)
        #expect((enter.seconds + 1 ... enter.seconds + 12).contains(bus[4].0), "entered \(enter.seconds), delivered \(bus[4].0)")
        #expect(abs(bus[5].0 - bus[4].0 - 10) < 0.001)
        // The mail app follows no region: it only goes to the background and is suspended.
        #expect(Self.lines(timeline, app: "Mail").map(\.1) == ["notRunning → foreground", "foreground → background", "background → suspended"])
        // The same seed, the same timeline.
        #expect(try runBundled("bus-stop-pocket").text == timeline.text)
        #expect(timeline.text.contains("rider  Bus: ← didEnterRegion \"stop\""))
    }

    @Test("App actions naming a device without apps, or an app not installed, are refused with the action's place")
    func badAppActions() throws {
        let phone = """
        devices:
          - name: phone
            scan: {interval: 100, window: 100}
            observe:
              monitor: [{identifier: stop, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51}]
            apps: [{name: Bus, regions: [stop]}]
          - name: pole
        """
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: phone + "\nactions: [{at: 1, app: {device: pole, app: Bus, do: launch}}]\n") }
        do {
            _ = try ScenarioLoader.parse(yaml: phone + "\nactions: [{at: 1, app: {device: phone, app: Taxi, do: launch}}]\n")
            Issue.record("an app that is not installed was accepted")
        } catch {
            #expect(error.path == "actions[0]" && "\(error)".contains("Taxi"), "\(error)")
        }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: phone + "\nactions: [{at: 1, app: {device: phone, app: Bus, do: dance}}]\n") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: phone + "\nactions: [{at: 1, bluetooth: {device: pole, on: false}}]\n") }
        let unknownRegion = phone.replacingOccurrences(of: "regions: [stop]", with: "regions: [shop]")
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: unknownRegion) }
        let badMode = phone.replacingOccurrences(of: "regions: [stop]", with: "modes: [audio]")
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: badMode) }
        #expect(try ScenarioLoader.parse(yaml: phone).devices[0].apps == [ScenarioApp(name: "Bus", regions: ["stop"])])
    }

    @Test("A timeline run to --until shows nothing later: neither scripted actions ahead nor app events")
    func untilCutsEverything() throws {
        for name in ["walk", "bus-stop-pocket"] {
            let timeline = try runBundled(name, until: 5)
            #expect(!timeline.events.isEmpty)
            #expect(timeline.events.allSatisfy { $0.seconds <= 5 }, "\(name): \(timeline.text)")
            let whole = try runBundled(name)
            #expect(Array(whole.events.prefix(timeline.events.count)) == timeline.events, "the first 5 s are the same either way")
        }
    }

    @Test("Rule 23: the screen coming on while inside tells an app with notifyEntryStateOnDisplay its state; others hear nothing")
    func screenOnInsideRegion() throws {
        var text = try #require(BundledScenarios.yaml(named: "bus-stop-pocket"))
        text = text.replacingOccurrences(of: "{name: Bus, regions: [stop]}", with: "{name: Bus, regions: [stop], notifyEntryStateOnDisplay: true}")
        text = text.replacingOccurrences(of: "  - {at: 55, app: {device: rider, app: Bus, do: forceQuit}}",
                                         with: "  - {at: 45, screen: {device: rider, on: true}}")
        let scenario = try ScenarioLoader.parse(yaml: text)
        let timeline = try ScenarioRunner(scenario: scenario).run(until: 60)
        let bus = Self.lines(timeline, app: "Bus")
        #expect(bus.suffix(3).map(\.0) == [45, 45, 55], "\(bus)")
        #expect(bus.suffix(3).map(\.1) == ["suspended → background", "← didDetermineState inside \"stop\"", "background → suspended"])
        #expect(!Self.lines(timeline, app: "Mail").contains { $0.1.contains("didDetermineState") })
    }

    @Test("The screen going off moves the app on screen to the background: the pocket's story is the same as with the app sent there")
    func screenOffIsGoingHome() throws {
        let original = try #require(BundledScenarios.yaml(named: "bus-stop-pocket"))
        let text = original.replacingOccurrences(of: "  - {at: 2, app: {device: rider, app: Bus, do: background}}",
                                                 with: "  - {at: 2, screen: {device: rider, on: false}}")
        #expect(text != original)
        let locked = try ScenarioRunner(scenario: ScenarioLoader.parse(yaml: text)).run(until: 60)
        let sent = try ScenarioRunner(scenario: ScenarioLoader.parse(yaml: original)).run(until: 60)
        let bus = Self.lines(locked, app: "Bus")
        #expect(bus.contains { $0 == (2, "foreground → background") }, "\(bus)")
        #expect(bus.map(\.1) == Self.lines(sent, app: "Bus").map(\.1))
        #expect(bus.map(\.0) == Self.lines(sent, app: "Bus").map(\.0))
    }

    @Test("A restart, the first unlock, Airplane Mode and Control Center's button are scenario actions for the phone, on the timeline in words")
    func restartAndSwitches() throws {
        let original = try #require(BundledScenarios.yaml(named: "bus-stop-pocket"))
        let text = original.replacingOccurrences(of: "  - {at: 55, app: {device: rider, app: Bus, do: forceQuit}}", with: """
              - {at: 30, reboot: rider}
              - {at: 35, app: {device: rider, app: Bus, do: launch}}
              - {at: 40, unlock: rider}
              - {at: 45, app: {device: rider, app: Bus, do: launch}}
              - {at: 50, airplaneMode: {device: rider, on: true}}
              - {at: 52, controlCenterBluetooth: {device: rider, on: false}}
            """)
        let timeline = try ScenarioRunner(scenario: ScenarioLoader.parse(yaml: text)).run(until: 60)
        let rider = timeline.events(of: "rider").map { "\(Int($0.seconds)) \($0.kind)" }
        for (time, words) in [(30, "restarts"), (40, "is unlocked"), (50, "Airplane Mode on"), (52, "Bluetooth button off")] {
            #expect(rider.contains { $0.hasPrefix("\(time) action") && $0.contains(words) }, "\(words): \(rider)")
        }
        let bus = Self.lines(timeline, app: "Bus")
        #expect(bus.contains { $0.0 == 30 && $0.1.contains("terminated") }, "\(bus)")
        #expect(bus.contains { $0.0 == 45 && $0.1.hasSuffix("→ foreground") }, "\(bus)")
        #expect(rider.contains { $0.hasPrefix("35 ") && $0.contains("unlock it first") }, "\(rider)")
        for word in ["reboot: nobody", "airplaneMode: {device: nobody, on: true}"] {
            let refused = original + "  - {at: 1, \(word)}\n"
            #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: refused) }
        }
    }

    @Test("Bluetooth off on an observe phone: it hears nothing; back on inside the region, the region is determined afresh with no entry (SO 34062216)")
    func bluetoothOffStopsTheObserver() throws {
        let original = try #require(BundledScenarios.yaml(named: "bus-stop-pocket"))
        let text = original.replacingOccurrences(of: "  - {at: 55, app: {device: rider, app: Bus, do: forceQuit}}", with: """
              - {at: 5, bluetooth: {device: rider, on: false}}
              - {at: 40, bluetooth: {device: rider, on: true}}
            """)
        let timeline = try ScenarioRunner(scenario: ScenarioLoader.parse(yaml: text)).run(until: 60)
        let heard = timeline.receptions.filter { $0.observer == "rider" }.map { Double($0.time) / 1e6 }
        #expect(!heard.isEmpty && heard.allSatisfy { $0 < 5 || $0 >= 40 }, "\(heard)")
        #expect(heard.contains { $0 >= 40 })
        let rider = timeline.events(of: "rider")
        #expect(!rider.contains { if case .entered = $0.kind { true } else { false } }, "\(rider)")
        #expect(!Self.lines(timeline, app: "Bus").contains { $0.1.contains("didEnterRegion") })
        // Without the switch, the rider enters at 12.6 s.
        let plain = try ScenarioRunner(scenario: ScenarioLoader.parse(yaml: original)).run(until: 60)
        #expect(plain.events(of: "rider").contains { if case .entered = $0.kind { true } else { false } })
    }

    @Test("A phone's settings: its iOS profile and faults decode into its rules; an unknown profile or settings on a device without apps are refused")
    func phoneSettings() throws {
        let original = try #require(BundledScenarios.yaml(named: "bus-stop-pocket"))
        let line = "    apps:\n      - {name: Bus, regions: [stop]}"
        #expect(original.contains(line))
        func with(_ settings: String) -> String {
            original.replacingOccurrences(of: line, with: "    phone: \(settings)\n" + line)
        }
        let old = try ScenarioLoader.parse(yaml: with("{profile: iOS7, passcode: false, readyToUpdateSubscribersSkipRate: 0.25, "
                                                      + "scanFreezesAfterScreenLock: true, backgroundAdvertisingDropouts: true}"))
        let phone = try #require(old.devices.first { $0.name == "rider" }?.phone)
        #expect(phone.profile == "iOS7")
        #expect(phone.policy.scanProfile == .legacyIOS5to7 && phone.policy.relaunchProfile == .iOS10)
        #expect(!phone.policy.passcodeSet && phone.policy.readyToUpdateSubscribersSkipRate == 0.25)
        #expect(phone.policy.scanFreezesAfterScreenLock && phone.policy.backgroundAdvertisingDropouts == .occasional)
        #expect(try ScenarioLoader.parse(yaml: with("{}")).devices.first { $0.name == "rider" }?.phone?.policy == PhonePolicy())
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: with("{profile: iOS6}")) }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: with("{readyToUpdateSubscribersSkipRate: 2}")) }
        let extra = original.replacingOccurrences(of: "  - name: rider\n",
                                                  with: "  - name: extra\n    position: [0, 0, 1]\n    phone: {profile: iOS7}\n  - name: rider\n")
        let refused = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: extra) }
        #expect(refused?.description.contains("only a phone has phone settings") == true, "\(String(describing: refused))")
    }

    @Test("The profile a scenario names decides: a force-quit app is relaunched for the stop's region entry today, never on iOS 7.0", arguments: ["today", "iOS7"])
    func profileDecidesRelaunch(profile: String) throws {
        let original = try #require(BundledScenarios.yaml(named: "bus-stop-pocket"))
        let line = "    apps:\n      - {name: Bus, regions: [stop]}"
        let text = original.replacingOccurrences(of: line, with: "    phone: {profile: \(profile)}\n" + line)
            .replacingOccurrences(of: "  - {at: 55, app: {device: rider, app: Bus, do: forceQuit}}",
                                  with: "  - {at: 5, app: {device: rider, app: Bus, do: forceQuit}}")
        let timeline = try ScenarioRunner(scenario: ScenarioLoader.parse(yaml: text)).run(until: 60)
        let bus = Self.lines(timeline, app: "Bus")
        let relaunched = bus.contains { $0.1.hasPrefix("relaunched in the background for didEnterRegion") }
        #expect(relaunched == (profile == "today"), "\(bus)")
        if profile == "iOS7" {
            #expect(bus.contains { $0.1.contains("never gets didEnterRegion") && $0.1.contains("force-quit") }, "\(bus)")
        }
    }
}
