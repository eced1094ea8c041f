import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// What a phone's launches of an app made: one app object per launch, and its options.
@MainActor
final class Launches<App> {
    var apps: [App] = []
    var options: [PhoneLaunchOptions] = []
}

/// Apple-style centrals as apps of a simulated iPhone, against the neighbourhood's Polar H10
/// (a heart-rate strap notifying a measurement a second): the background rules of the iOS
/// research's §9 and state restoration, each a named test on virtual time.
@Suite("Core Bluetooth centrals on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneCentralTests {
    /// A phone on a fresh neighbourhood with a heart-rate app; its managers use `name`.
    private func phoneWithPulse(_ name: String, modes: BackgroundModes, restores: Bool, connectOptions: [String: Bool]? = nil)
        async throws -> (BLEDevice, SimulatedPhone, Launches<HeartRateCentral>) {
        let device = try await neighbourhood(name)
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        var managerOptions: [String: String] = [OpenCoreBluetoothControllerOptionKey: name]
        if restores { managerOptions[CBCentralManagerOptionRestoreIdentifierKey] = "pulse" }
        try phone.install(AppDescription(name: "Pulse", modes: modes, restoresState: restores)) { launch in
            launches.options.append(launch)
            launches.apps.append(HeartRateCentral(options: managerOptions, connectOptions: connectOptions))
        }
        return (device, phone, launches)
    }

    @Test("Rules 13–15: terminated by the system, the app is relaunched by a notification and restored before it hears it")
    func restoration() async throws {
        let (device, phone, launches) = try await phoneWithPulse("phone-restore", modes: .bluetoothCentral, restores: true)
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        let first = try #require(launches.apps.first)
        try phone.perform(.background("Pulse"))
        try phone.perform(.terminate("Pulse", .system))
        let heardBefore = first.measurements.count
        #expect(await eventually { launches.apps.count == 2 && launches.apps[1].measurements.count >= 3 })
        let second = try #require(launches.apps.last)
        #expect(launches.options == [PhoneLaunchOptions(), PhoneLaunchOptions(bluetoothCentrals: ["pulse"])])
        // Core Bluetooth's order after a relaunch (§9, rule 14).
        #expect(Array(second.log.prefix(3)) == ["willRestoreState 1", "didUpdateState 5", "didUpdateValueFor 2A37"])
        // The restored peripheral is connected, with its services and notify state (rule 15).
        let sensor = try #require(second.sensor)
        #expect(sensor.state == .connected)
        let measurement = sensor.services?.first?.characteristics?.first { $0.uuid == HeartRateCentral.measurement }
        #expect(measurement?.isNotifying == true)
        // The terminated app's objects hear nothing more.
        #expect(first.measurements.count == heardBefore)
        #expect(phone.timeline.contains { if case .relaunched(app: "Pulse", for: _) = $0.output { true } else { false } })
        phone.close()
        await device.close()
    }

    @Test("Rule 5: the connection alerts an app asked for are the system's while it is suspended, never calls into it")
    func connectionAlerts() async throws {
        let alerts = [CBConnectPeripheralOptionNotifyOnConnectionKey: true, CBConnectPeripheralOptionNotifyOnNotificationKey: true]
        let (device, phone, launches) = try await phoneWithPulse("phone-alerts", modes: [], restores: false, connectOptions: alerts)
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        // The system's alerts, less the Bluetooth permission prompt of the app's first manager.
        let connectionAlerts = {
            phone.timeline.compactMap { entry -> String? in
                guard case let .alert(app: "Pulse", message: message) = entry.output,
                      !message.contains("Would Like to Use Bluetooth") else { return nil }
                return message
            }
        }
        // In the foreground the app hears everything itself: no alert.
        #expect(connectionAlerts().isEmpty)
        try phone.perform(.background("Pulse"))
        #expect(await eventually { phone.state(of: "Pulse") == .suspended })
        try await testClock.sleep(for: .seconds(5))
        let shown = connectionAlerts()
        #expect(shown.count >= 3)
        #expect(shown.allSatisfy { $0.hasPrefix("Notification from Polar H10") }, "\(shown)")
        phone.close()
        await device.close()
    }

    @Test("Rule 14: relaunched, an app that makes no manager with its restore identifier loses the events it was relaunched for")
    func relaunchWithoutManager() async throws {
        let device = try await neighbourhood("phone-no-manager")
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral, restoresState: true)) { options in
            launches.options.append(options)
            // The second launch forgets to make its central manager again.
            guard options.bluetoothCentrals.isEmpty else { return }
            launches.apps.append(HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "phone-no-manager",
                                                            CBCentralManagerOptionRestoreIdentifierKey: "pulse"]))
        }
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        try phone.perform(.background("Pulse"))
        try phone.perform(.terminate("Pulse", .system))
        #expect(await eventually { launches.options.count == 2 })
        #expect(await eventually { phone.state(of: "Pulse") == .suspended })
        let relaunch = try #require(phone.timeline.lastIndex { if case .relaunched = $0.output { true } else { false } })
        let after = phone.timeline[relaunch...]
        #expect(!after.contains { if case .deliver = $0.output { true } else { false } })
        let lost = after.compactMap { entry -> String? in
            if case let .dropped(app: "Pulse", event, reason) = entry.output { "\(event.detail): \(reason)" } else { nil }
        }
        #expect(lost.first?.hasPrefix("didUpdateValueFor 2A37") == true, "\(lost)")
        #expect(lost.allSatisfy { $0.hasSuffix("the relaunched app made no manager with its restore identifier") }, "\(lost)")
        phone.close()
        await device.close()
    }

    @Test("Rule 16: a force-quit app is not relaunched, and its link ends with it")
    func forceQuit() async throws {
        let (device, phone, launches) = try await phoneWithPulse("phone-force-quit", modes: .bluetoothCentral, restores: true)
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        let sensor = try #require(launches.apps.first?.sensor)
        try phone.perform(.terminate("Pulse", .forceQuit))
        #expect(await eventually { sensor.state == .disconnected })
        try await testClock.sleep(for: .seconds(5))
        #expect(launches.apps.count == 1)
        #expect(!phone.timeline.contains { if case .relaunched = $0.output { true } else { false } })
        phone.close()
        await device.close()
    }

    @Test("Rule 3: a suspended app without bluetooth-central gets its notifications queued, in order, on its return")
    func queuedWhileSuspended() async throws {
        let (device, phone, launches) = try await phoneWithPulse("phone-queued", modes: [], restores: false)
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        let app = try #require(launches.apps.first)
        try phone.perform(.background("Pulse"))
        #expect(await eventually { phone.state(of: "Pulse") == .suspended })
        let heardBefore = app.measurements.count
        try await testClock.sleep(for: .seconds(10))
        #expect(app.measurements.count == heardBefore)
        #expect(phone.state(of: "Pulse") == .suspended)
        try phone.perform(.foreground("Pulse"))
        #expect(await eventually { app.measurements.count >= heardBefore + 8 })
        // The queued values came in one delivery, in the order they arrived.
        let delivery = phone.timeline.last { entry in
            if case let .deliver(app: "Pulse", events: events) = entry.output { events.count >= 8 } else { false }
        }
        #expect(delivery != nil)
        if case let .deliver(_, events)? = delivery?.output {
            #expect(events.map(\.time) == events.map(\.time).sorted())
        }
        phone.close()
        await device.close()
    }

    @Test("Rules 6 and 7: in the background a scan without services hears nothing, and each peripheral comes once per app")
    func backgroundScanning() async throws {
        let device = try await neighbourhood("phone-scan")
        let phone = SimulatedPhone(device: device)
        let everything = Launches<ScanningApp>()
        let pulse = Launches<ScanningApp>()
        try phone.install(AppDescription(name: "Everything", modes: .bluetoothCentral)) { _ in
            everything.apps.append(ScanningApp(services: nil, allowDuplicates: true, controller: "phone-scan"))
        }
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral)) { _ in
            pulse.apps.append(ScanningApp(services: [CBUUID(string: "180D")], allowDuplicates: true, controller: "phone-scan"))
        }
        try phone.perform(.launch("Everything"))
        try phone.perform(.launch("Pulse"))
        // In the foreground, duplicates come as asked.
        #expect(await eventually { (pulse.apps.first?.discoveries.count ?? 0) >= 3 && (everything.apps.first?.discoveries.count ?? 0) >= 3 })
        try phone.perform(.background("Everything"))
        try phone.perform(.background("Pulse"))
        let everythingBefore = try #require(everything.apps.first).discoveries.count
        let pulseBefore = try #require(pulse.apps.first).discoveries.count
        try await testClock.sleep(for: .seconds(30))
        #expect(everything.apps[0].discoveries.count == everythingBefore)
        // The strap once, though it advertises many times a second and duplicates were asked for.
        #expect(pulse.apps[0].discoveries.count == pulseBefore + 1)
        #expect(phone.state(of: "Pulse") == .background || phone.state(of: "Pulse") == .suspended)
        phone.close()
        await device.close()
    }
}

/// A manager as the phone sees it, for checking the system's bookkeeping alone.
final class StandInMember: PhoneAppMember, @unchecked Sendable {
    // @unchecked Sendable: its properties are constants; `ended` is written once, from the phone's task.
    let restoreIdentifier: String?
    let role: AppEventKind
    var ended: Bool?

    init(restoreIdentifier: String?, role: AppEventKind) {
        self.restoreIdentifier = restoreIdentifier
        self.role = role
    }

    func appTerminated(preserved: Bool) async { ended = preserved }
}

@Suite("The simulated iPhone's bookkeeping of managers", .simulatedOnMainActor)
@MainActor
struct PhoneMembershipTests {
    @Test("A restore identifier a second central manager of the app also uses is refused by name; that manager is not preserved")
    func duplicateRestoreIdentifier() async throws {
        let phone = SimulatedPhone(clock: testClock)
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral, restoresState: true)) { _ in }
        try phone.perform(.launch("Pulse"))
        let first = StandInMember(restoreIdentifier: "pulse", role: .central)
        let second = StandInMember(restoreIdentifier: "pulse", role: .central)
        let peripheralSide = StandInMember(restoreIdentifier: "pulse", role: .peripheral)
        #expect(try phone.join(first, app: "Pulse") == nil)
        #expect(throws: PhoneError.restoreIdentifierInUse("pulse", app: "Pulse")) { try phone.join(second, app: "Pulse") }
        #expect(try phone.join(peripheralSide, app: "Pulse") == nil, "the peripheral role has restore identifiers of its own")
        #expect("\(PhoneError.restoreIdentifierInUse("pulse", app: "Pulse"))".contains("\"pulse\" is used by another manager of Pulse"))
        try phone.perform(.terminate("Pulse", .system))
        #expect(await eventually { first.ended != nil && second.ended != nil })
        #expect(first.ended == true)
        #expect(second.ended == false)
        phone.close()
    }
}
