import BLEBeacons
import BLEController
import BLEPhone
import BLEWorld

extension ScenarioRunner {
    /// Gives every device with apps a phone system (`BLEPhone`) and schedules the
    /// scenario's app and Bluetooth actions for it. The regions of its `observe.monitor`
    /// are registered with the phone at its start, app by app in file order and each app's
    /// regions in the order the file monitors them, so that beyond
    /// `PhonePolicy.deviceRegionPriority` of them a region's events are best effort
    /// (research §9, rule 20). Each app has the location authorization the file gives it
    /// (`location:`, Always by default); a denied app's regions are not monitored, as
    /// `startMonitoring(for:)` fails for it (`CLError.regionMonitoringDenied`), so they take
    /// no place among the phone's priority regions.
    func installPhones() throws(ScenarioError) {
        for (index, device) in scenario.devices.enumerated() where !device.apps.isEmpty {
            var phone = PhoneCore(policy: device.phone?.policy ?? PhonePolicy(), seed: scenario.seed &+ UInt64(index))
            for app in device.apps {
                do {
                    try phone.install(AppDescription(name: app.name, modes: BackgroundModes(names: app.modes),
                                                     restoresState: app.restoresState))
                    try phone.setLocationAuthorization(LocationAuthorization(rawValue: app.location) ?? .always, for: app.name)
                } catch {
                    throw ScenarioError(.invalidField, path: "devices.apps", device: device.name, message: "\(error)")
                }
            }
            for app in device.apps where phone.locationAuthorization(of: app.name) != .denied {
                for region in device.observing?.regions ?? [] where app.regions?.contains(region.identifier) ?? true {
                    phone.startMonitoringRegion(region.identifier, for: app.name)
                }
            }
            phones[device.name] = phone
            phoneApps[device.name] = device.apps
        }
        for timed in scenario.actions {
            let name: String, action: PhoneAction
            switch timed.action {
            case let .app(phone, app, verb):
                guard let named = PhoneAction(named: verb.rawValue, app: app) else { continue }
                name = phone
                action = named
            case let .bluetooth(phone, on):
                name = phone
                action = .bluetooth(on: on)
            case let .airplaneMode(phone, on):
                name = phone
                action = .airplaneMode(on: on)
            case let .controlCenterBluetooth(phone, on):
                name = phone
                action = .controlCenterBluetooth(on: on)
            case let .reboot(phone):
                name = phone
                action = .reboot
            case let .unlock(phone):
                name = phone
                action = .unlock
            case let .screen(phone, on):
                // Off, the app on screen leaves it; on, the regions that ask are told (rule 23).
                world.schedule(at: world.now + timed.time) { [weak self] world in
                    self?.carryOut(.screen(on: on), on: phone, at: world.now)
                    if on { self?.screenOn(phone, at: world.now) }
                }
                continue
            default:
                continue
            }
            world.schedule(at: world.now + timed.time) { [weak self] world in
                self?.carryOut(action, on: name, at: world.now)
            }
        }
    }

    /// Keeps (or streams) observer events, and hands region entries and exits to the apps of the
    /// observing phone that follow the region.
    func record(_ new: [ScenarioTimelineEvent]) {
        for event in new {
            keep(event)
            guard phones[event.device] != nil else { continue }
            let call: String
            switch event.kind {
            case let .entered(region):
                call = "didEnterRegion \"\(region)\""
                phoneInside[event.device, default: []].insert(region)
            case let .exited(region):
                call = "didExitRegion \"\(region)\""
                phoneInside[event.device]?.remove(region)
            default: continue
            }
            guard let region = event.region else { continue }
            for app in phoneApps[event.device] ?? [] where app.regions?.contains(region) ?? true {
                route(PhoneEvent(kind: .region, detail: call, time: event.time, region: region), to: app.name, on: event.device)
            }
        }
    }

    /// The screen comes on: every app asking `notifyEntryStateOnDisplay` learns, for each of
    /// its regions the phone is inside, `didDetermineState(.inside)` (§9 rule 23), woken or
    /// relaunched as a region event would.
    private func screenOn(_ name: String, at now: Microseconds) {
        let inside = phoneInside[name] ?? []
        for app in phoneApps[name] ?? [] where app.notifyEntryStateOnDisplay {
            for region in inside.sorted() where app.regions?.contains(region) ?? true {
                route(PhoneEvent(kind: .region, detail: "didDetermineState inside \"\(region)\"", time: now, region: region),
                      to: app.name, on: name)
            }
        }
    }

    private func carryOut(_ action: PhoneAction, on name: String, at now: Microseconds) {
        guard var phone = phones[name] else { return }
        let wasOn = phone.bluetoothOn
        let outputs: [PhoneOutput]
        do {
            outputs = try phone.handle(action, at: now)
        } catch {
            outputs = []
            keep(ScenarioTimelineEvent(time: now, device: name, kind: .action("refuses: \(error)")))
        }
        phones[name] = phone
        if phone.bluetoothOn != wasOn { bluetoothSwitched(on: phone.bluetoothOn, observer: name, at: now) }
        show(outputs, on: name, at: now)
    }

    /// Bluetooth went off or on in the phone's Settings (or with Airplane Mode): its
    /// observer hears nothing while off, its regions go unknown without an exit, and back on
    /// they are determined afresh, with no entry or exit (Stack Overflow answer 34062216;
    /// ``BeaconMonitor/radioSwitchedOff(at:)``). Its ranging starts over.
    private func bluetoothSwitched(on: Bool, observer name: String, at now: Microseconds) {
        guard let index = observers.firstIndex(where: { $0.name == name }) else { return }
        observers[index].radioSwitched(on: on, at: now)
    }

    /// Whether the observing phone `name` has Bluetooth on (a device that is no phone has).
    func hearsBeacons(_ name: String) -> Bool {
        // A scenario without phones hashes no name here (this runs for every report).
        phones.isEmpty || (phones[name]?.bluetoothOn ?? true)
    }

    /// Routes a region event to `app` by the phone's rules, once its location authorization
    /// lets it through (research §9, rule 22; Apple, "Choosing the Location Services
    /// Authorization to Request"): with When In Use only while the app is on screen, denied
    /// or not determined never; a refused event is on the timeline as never delivered.
    private func route(_ event: PhoneEvent, to app: String, on name: String) {
        guard var phone = phones[name] else { return }
        let now = world.now
        if let refusal = phone.locationRefusal(for: app) {
            show([.dropped(app: app, event: event, reason: refusal)], on: name, at: now)
            return
        }
        let outputs = (try? phone.event(event, for: app, at: now)) ?? []
        phones[name] = phone
        show(outputs, on: name, at: now)
    }

    /// Puts a phone's outputs on the timeline and schedules its next deadline.
    private func show(_ outputs: [PhoneOutput], on name: String, at now: Microseconds) {
        for output in outputs {
            let kind: ScenarioTimelineEvent.Kind
            switch output {
            case let .stateChanged(app, from, to): kind = .app(app: app, "\(from) → \(to)")
            case let .deliver(app, delivered): kind = .app(app: app, "← " + delivered.map(\.detail).joined(separator: ", "))
            case let .relaunched(app, event): kind = .app(app: app, "relaunched in the background for \(event.detail)")
            case let .dropped(app, event, reason): kind = .app(app: app, "never gets \(event.detail): \(reason)")
            case let .alert(app, message): kind = .app(app: app, "alert: \(message)")
            case let .notification(app, change): kind = .app(app: app, "notification \(change)")
            case let .network(app, exchange): kind = .app(app: app, exchange)
            case let .crashed(app, reason): kind = .app(app: app, "crashed: \(reason)")
            case let .system(change): kind = .app(app: "system", change)
            }
            keep(ScenarioTimelineEvent(time: now, device: name, kind: kind))
        }
        if outputs.contains(where: { if case .stateChanged = $0 { true } else { false } }) { reconsiderScan(of: name, at: now) }
        guard let deadline = phones[name]?.nextDeadline, deadline > now, phoneWakeups.insert(deadline).inserted else { return }
        world.schedule(at: deadline) { [weak self] world in
            guard let self, var phone = phones[name] else { return }
            phoneWakeups.remove(deadline)
            let due = phone.advance(to: world.now)
            phones[name] = phone
            show(due, on: name, at: world.now)
        }
    }
}
