import BLEPhone
import Testing

/// The background rules of the simulated iPhone (research §9), each a named test of the
/// phone's system alone: time is passed in, so seconds to minutes take none.
@Suite("The simulated iPhone's background rules")
struct PhoneRulesTests {
    static let second: Int64 = 1_000_000

    static func phone(_ apps: AppDescription...) throws -> PhoneCore {
        var phone = PhoneCore()
        for app in apps { try phone.install(app) }
        return phone
    }

    static func event(_ kind: AppEventKind, _ detail: String, at time: Int64) -> PhoneEvent {
        PhoneEvent(kind: kind, detail: detail, time: time)
    }

    @Test("Rule 1: a backgrounded app is suspended after the grace period, not before")
    func suspendedAfterGrace() throws {
        var phone = try Self.phone(AppDescription(name: "Bus"))
        _ = try phone.handle(.launch("Bus"), at: 0)
        #expect(try phone.handle(.background("Bus"), at: Self.second) == [.stateChanged(app: "Bus", from: .foreground, to: .background)])
        #expect(phone.nextDeadline == 6 * Self.second)
        #expect(phone.advance(to: 6 * Self.second - 1).isEmpty)
        #expect(phone.advance(to: 6 * Self.second) == [.stateChanged(app: "Bus", from: .background, to: .suspended)])
        #expect(phone.nextDeadline == nil)
    }

    @Test("Rule 2: a background task keeps the app running until it ends; one that runs over gets the app terminated")
    func backgroundTask() throws {
        var phone = try Self.phone(AppDescription(name: "Sync"))
        _ = try phone.handle(.launch("Sync"), at: 0)
        _ = try phone.handle(.background("Sync"), at: 0)
        _ = try phone.handle(.beginBackgroundTask("Sync"), at: Self.second)
        #expect(phone.advance(to: 10 * Self.second).isEmpty, "the task keeps it past the grace period")
        _ = try phone.handle(.endBackgroundTask("Sync"), at: 12 * Self.second)
        #expect(phone.advance(to: 12 * Self.second) == [.stateChanged(app: "Sync", from: .background, to: .suspended)])

        _ = try phone.handle(.foreground("Sync"), at: 20 * Self.second)
        _ = try phone.handle(.beginBackgroundTask("Sync"), at: 20 * Self.second)
        _ = try phone.handle(.background("Sync"), at: 21 * Self.second)
        #expect(phone.advance(to: 50 * Self.second) == [.stateChanged(app: "Sync", from: .background, to: .terminated(.system))])
        #expect(throws: PhoneError.self) { try phone.handle(.beginBackgroundTask("Sync"), at: 60 * Self.second) }
    }

    @Test("Rule 2: an app woken for an event runs for the wake window, then is suspended again")
    func wakeWindow() throws {
        var phone = try Self.phone(AppDescription(name: "HR", modes: .bluetoothCentral))
        _ = try phone.handle(.launch("HR"), at: 0)
        _ = try phone.handle(.suspend("HR"), at: 0)
        let value = Self.event(.central, "didUpdateValue 2A37", at: 30 * Self.second)
        #expect(try phone.event(value, for: "HR", at: 30 * Self.second) == [
            .stateChanged(app: "HR", from: .suspended, to: .background), .deliver(app: "HR", events: [value]),
        ])
        #expect(phone.advance(to: 39 * Self.second).isEmpty)
        #expect(phone.advance(to: 40 * Self.second) == [.stateChanged(app: "HR", from: .background, to: .suspended)])
    }

    @Test("Rule 3: a suspended app without the mode gets its events queued in order and delivered on the foreground")
    func queuedUntilForeground() throws {
        var phone = try Self.phone(AppDescription(name: "Lock"))
        _ = try phone.handle(.launch("Lock"), at: 0)
        _ = try phone.handle(.background("Lock"), at: 0)
        _ = phone.advance(to: 5 * Self.second)
        let events = [Self.event(.central, "didUpdateValue", at: 7 * Self.second),
                      Self.event(.central, "didDisconnectPeripheral", at: 8 * Self.second)]
        for event in events { #expect(try phone.event(event, for: "Lock", at: event.time).isEmpty) }
        #expect(try phone.state(of: "Lock") == .suspended)
        #expect(phone.queuedEvents(of: "Lock") == events)
        #expect(try phone.handle(.foreground("Lock"), at: 60 * Self.second) == [
            .stateChanged(app: "Lock", from: .suspended, to: .foreground), .deliver(app: "Lock", events: events),
        ])
        #expect(phone.queuedEvents(of: "Lock").isEmpty)
    }

    @Test("Rule 3: a peripheral-mode app is not woken for central events")
    func modePerRole() throws {
        var phone = try Self.phone(AppDescription(name: "Sensor", modes: .bluetoothPeripheral))
        _ = try phone.handle(.launch("Sensor"), at: 0)
        _ = try phone.handle(.suspend("Sensor"), at: 0)
        #expect(try phone.event(Self.event(.central, "didDiscover", at: 1), for: "Sensor", at: 1).isEmpty)
        let read = Self.event(.peripheral, "didReceiveRead", at: 2)
        #expect(try phone.event(read, for: "Sensor", at: 2).contains(.deliver(app: "Sensor", events: [read])))
    }

    @Test("Rule 13: an app terminated by the system that restores state is relaunched in the background for its event")
    func relaunchAfterSystemTermination() throws {
        var phone = try Self.phone(AppDescription(name: "HR", modes: .bluetoothCentral, restoresState: true),
                                   AppDescription(name: "Plain", modes: .bluetoothCentral))
        for app in ["HR", "Plain"] {
            _ = try phone.handle(.launch(app), at: 0)
            _ = try phone.handle(.terminate(app, .system), at: Self.second)
        }
        let value = Self.event(.central, "didUpdateValue", at: 2 * Self.second)
        #expect(try phone.event(value, for: "HR", at: value.time) == [
            .relaunched(app: "HR", for: value), .stateChanged(app: "HR", from: .terminated(.system), to: .background),
            .deliver(app: "HR", events: [value]),
        ])
        let dropped = try phone.event(value, for: "Plain", at: value.time)
        guard case .dropped? = dropped.first else {
            Issue.record("an app without restoration was relaunched: \(dropped)")
            return
        }
    }

    @Test("Rule 16: no Bluetooth relaunch after a force-quit or with Bluetooth off; a crash relaunches")
    func noRelaunchAfterForceQuit() throws {
        var phone = try Self.phone(AppDescription(name: "HR", modes: .bluetoothCentral, restoresState: true))
        _ = try phone.handle(.launch("HR"), at: 0)
        _ = try phone.handle(.terminate("HR", .forceQuit), at: 0)
        let value = Self.event(.central, "didUpdateValue", at: 1)
        #expect(try phone.event(value, for: "HR", at: 1) == [.dropped(app: "HR", event: value, reason: "the user force-quit the app")])
        _ = try phone.handle(.launch("HR"), at: 2)
        _ = try phone.handle(.terminate("HR", .crash), at: 3)
        _ = try phone.handle(.bluetooth(on: false), at: 4)
        #expect(try phone.event(value, for: "HR", at: 5) == [.dropped(app: "HR", event: value, reason: "Bluetooth is off")])
        _ = try phone.handle(.bluetooth(on: true), at: 6)
        #expect(try phone.event(value, for: "HR", at: 7).first == .relaunched(app: "HR", for: value))
    }

    @Test("Rule 22: a region event relaunches an app even after a force-quit, unless the policy says otherwise")
    func regionRelaunch() throws {
        var phone = try Self.phone(AppDescription(name: "Bus"))
        _ = try phone.handle(.launch("Bus"), at: 0)
        _ = try phone.handle(.terminate("Bus", .forceQuit), at: 0)
        let exit = Self.event(.region, "didExitRegion stop", at: 1)
        #expect(try phone.event(exit, for: "Bus", at: 1).first == .relaunched(app: "Bus", for: exit))
        var policy = PhonePolicy()
        policy.beaconRelaunchAfterForceQuit = false
        var strict = PhoneCore(policy: policy)
        try strict.install(AppDescription(name: "Bus"))
        _ = try strict.handle(.launch("Bus"), at: 0)
        _ = try strict.handle(.terminate("Bus", .forceQuit), at: 0)
        #expect(try strict.event(exit, for: "Bus", at: 1).first == .dropped(app: "Bus", event: exit, reason: "the user force-quit the app"))
    }

    @Test("Rule 22: a significant change or a visit wakes a suspended app at once and relaunches a terminated one, but not after a force-quit")
    func locationServices() throws {
        for detail in ["didUpdateLocations (significant change)", "didVisit"] {
            var phone = try Self.phone(AppDescription(name: "Bus"))
            _ = try phone.handle(.launch("Bus"), at: 0)
            _ = try phone.handle(.suspend("Bus"), at: 0)
            let change = Self.event(.region, detail, at: 1)
            #expect(try phone.event(change, for: "Bus", at: 1) == [
                .stateChanged(app: "Bus", from: .suspended, to: .background), .deliver(app: "Bus", events: [change]),
            ])
            _ = try phone.handle(.terminate("Bus", .system), at: 2)
            #expect(try phone.event(change, for: "Bus", at: 3).first == .relaunched(app: "Bus", for: change))
            // Beacon regions relaunch after a force-quit by default; these services do not.
            _ = try phone.handle(.terminate("Bus", .forceQuit), at: 4)
            #expect(try phone.event(change, for: "Bus", at: 5) == [.dropped(app: "Bus", event: change, reason: "the user force-quit the app")])
        }
    }

    @Test("Rule 21: a region entry reaches an app in the background 1 to 12 s late (seeded), in the foreground at once")
    func entryDelay() throws {
        var delays: Set<Int64> = []
        for seed in 0 ..< 40 as Range<UInt64> {
            var phone = PhoneCore(seed: seed)
            try phone.install(AppDescription(name: "Bus"))
            try phone.install(AppDescription(name: "Map"))
            _ = try phone.handle(.launch("Bus"), at: 0)
            _ = try phone.handle(.launch("Map"), at: 0)
            _ = try phone.handle(.background("Bus"), at: 0)
            _ = phone.advance(to: 5 * Self.second)
            let entry = Self.event(.region, "didEnterRegion stop", at: 10 * Self.second)
            #expect(try phone.event(entry, for: "Map", at: entry.time) == [.deliver(app: "Map", events: [entry])])
            #expect(try phone.event(entry, for: "Bus", at: entry.time).isEmpty)
            let due = try #require(phone.nextDeadline)
            #expect((11 * Self.second ... 22 * Self.second).contains(due))
            #expect(phone.advance(to: due).contains(.deliver(app: "Bus", events: [entry])))
            delays.insert(due)
            var again = PhoneCore(seed: seed)
            try again.install(AppDescription(name: "Bus"))
            _ = try again.event(entry, for: "Bus", at: entry.time)
            #expect(again.nextDeadline == due, "the same seed, the same delay")
        }
        #expect(delays.count > 20, "the delays spread over the range")
    }

    @Test("Bad input: unknown and duplicate apps, actions that make no sense, are typed errors")
    func badInput() throws {
        var phone = try Self.phone(AppDescription(name: "A"))
        #expect(throws: PhoneError.duplicateApp("A")) { try phone.install(AppDescription(name: "A")) }
        #expect(throws: PhoneError.unknownApp("B")) { try phone.handle(.launch("B"), at: 0) }
        #expect(throws: PhoneError.self) { try phone.handle(.background("A"), at: 0) }
        #expect(throws: PhoneError.self) { try phone.handle(.endBackgroundTask("A"), at: 0) }
        #expect(throws: PhoneError.unknownApp("C")) { try phone.event(Self.event(.central, "x", at: 0), for: "C", at: 0) }
        #expect(BackgroundModes(name: "bluetooth-central") == .bluetoothCentral)
        #expect(BackgroundModes(name: "audio") == nil)
    }
}
