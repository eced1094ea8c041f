extension PhoneCore {
    /// Carries out a user or scenario action at `now`.
    public mutating func handle(_ action: PhoneAction, at now: Int64) throws(PhoneError) -> [PhoneOutput] {
        var outputs: [PhoneOutput] = []
        switch action {
        case .bluetooth, .controlCenterBluetooth, .airplaneMode:
            switchRadio(action)
            // Off at the button, it comes on again at the next 5 AM (Apple).
            if case .controlCenterBluetooth = action {
                controlCenterOnAgainAt = controlCenterBluetoothOn ? nil : nextFiveAM(after: now)
            }
            return []
        case let .screen(on):
            screenOn = on
            guard !on else { return [] }
            // The app on screen leaves it, as when the user goes home (§9, rule 1).
            for name in appNames {
                guard var app = apps[name], app.state == .foreground else { continue }
                move(&app, to: .background, outputs: &outputs)
                app.suspendAt = now + policy.suspendGrace
                store(app)
            }
        case .reboot:
            for name in appNames {
                guard var app = apps[name] else { continue }
                switch app.state {
                case .notRunning, .terminated(.forceQuit): continue
                default: break
                }
                end(&app, .reboot, outputs: &outputs)
                store(app)
            }
            awaitingFirstUnlock = policy.passcodeSet
            // Control Center's Bluetooth button is on again after a restart (Apple, "Use
            // Bluetooth and Wi-Fi in Control Center").
            controlCenterBluetoothOn = true
            controlCenterOnAgainAt = nil
        case .unlock:
            awaitingFirstUnlock = false
        case let .launch(name), let .foreground(name):
            guard !awaitingFirstUnlock else { throw .invalidAction("the phone has not been unlocked since it restarted: unlock it first") }
            var app = try record(name)
            screenOn = true
            app.bluetoothWorkDropped = nil
            move(&app, to: .foreground, outputs: &outputs)
            app.suspendAt = nil
            app.taskEndsAt = nil
            if !app.queued.isEmpty {
                outputs.append(.deliver(app: name, events: app.queued))
                app.queued = []
            }
            store(app)
        case let .background(name):
            var app = try record(name)
            guard app.state == .foreground else { throw .invalidAction("\(name) is \(app.state), not in the foreground") }
            move(&app, to: .background, outputs: &outputs)
            app.suspendAt = now + policy.suspendGrace
            store(app)
        case let .suspend(name):
            var app = try record(name)
            guard app.state.isRunning else { throw .invalidAction("\(name) is \(app.state), not running") }
            suspend(&app, outputs: &outputs)
            store(app)
        case let .terminate(name, reason):
            var app = try record(name)
            end(&app, reason, outputs: &outputs)
            store(app)
        case let .beginBackgroundTask(name):
            var app = try record(name)
            guard app.state.isRunning else { throw .invalidAction("\(name) is \(app.state): only a running app starts a background task") }
            app.taskEndsAt = now + policy.backgroundTaskLimit
            store(app)
        case let .endBackgroundTask(name):
            var app = try record(name)
            guard app.taskEndsAt != nil else { throw .invalidAction("\(name) has no background task") }
            app.taskEndsAt = nil
            if app.state == .background { app.suspendAt = min(app.suspendAt ?? now, now) }
            store(app)
        }
        return outputs
    }

    /// Routes `event` to `app` at `now`: delivered now, after a wake or a relaunch, queued,
    /// or dropped (§9, rules 1–3, 13, 16, 22). A region entry for an app not in the
    /// foreground is first held back for ``PhonePolicy/backgroundEntryDelay`` (rule 21); an
    /// entry or exit of a region beyond the device's priority ones, for
    /// ``PhonePolicy/bestEffortRegionDelay`` (rule 20).
    public mutating func event(_ event: PhoneEvent, for name: String, at now: Int64) throws(PhoneError) -> [PhoneOutput] {
        let app = try record(name)
        guard event.kind == .region, app.state != .foreground else { return route(event, to: name, at: now) }
        let crossing = event.detail.hasPrefix("didEnterRegion") || event.detail.hasPrefix("didExitRegion")
        if crossing, let region = event.region, !isPriorityRegion(region, of: name) {
            // Beyond the device's priority regions, monitoring is best effort (rule 20).
            hold(event, for: name, at: now, delay: randomDelay(in: policy.bestEffortRegionDelay))
            return []
        }
        if event.detail.hasPrefix("didEnterRegion") {
            hold(event, for: name, at: now, delay: randomDelay(in: policy.backgroundEntryDelay))
            return []
        }
        return route(event, to: name, at: now)
    }

    /// Registers `identifier` as a region `app` monitors (again, when it replaces one of the
    /// same identifier: its place is kept). Regions are the phone's, kept across the app's
    /// launches until it stops monitoring them.
    public mutating func startMonitoringRegion(_ identifier: String, for app: String) {
        guard !monitoredRegions.contains(where: { $0.app == app && $0.identifier == identifier }) else { return }
        monitoredRegions.append((app, identifier))
    }

    /// `app` stops monitoring `identifier`: a later region may take its priority.
    public mutating func stopMonitoringRegion(_ identifier: String, for app: String) {
        monitoredRegions.removeAll { $0.app == app && $0.identifier == identifier }
    }

    /// Whether `app`'s region `identifier` is among the first ``PhonePolicy/deviceRegionPriority``
    /// registered on the phone, whose events come promptly (§9, rule 20); a region the phone
    /// was not told of counts as one.
    public func isPriorityRegion(_ identifier: String, of app: String) -> Bool {
        guard let index = monitoredRegions.firstIndex(where: { $0.app == app && $0.identifier == identifier }) else { return true }
        return index < policy.deviceRegionPriority
    }

    /// Keeps `event` for `name` until `delay` after `now`.
    private mutating func hold(_ event: PhoneEvent, for name: String, at now: Int64, delay: Int64) {
        let index = delayed.firstIndex { $0.at > now + delay } ?? delayed.endIndex
        delayed.insert((now + delay, name, event), at: index)
    }

    /// A delay drawn uniformly from `range` with the phone's seeded sequence.
    private mutating func randomDelay(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(nextRandom() % UInt64(max(1, range.upperBound - range.lowerBound + 1)))
    }

    /// The next value of the phone's seeded sequence.
    private mutating func nextRandom() -> UInt64 {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The routing of ``event(_:for:at:)`` once any delay is over.
    private mutating func route(_ event: PhoneEvent, to name: String, at now: Int64) -> [PhoneOutput] {
        guard var app = apps[name] else { return [] }
        var outputs: [PhoneOutput] = []
        defer { store(app) }
        // A manager's state report comes whatever the switch says (it is how the app
        // learns of it), but relaunches no app: Bluetooth switched off relaunches nothing
        // (TN3115), and a relaunched manager reports its state itself (rule 14).
        let stateReport = event.detail.hasPrefix("didUpdateState")
        guard bluetoothAvailable || event.kind == .region || stateReport else {
            return [.dropped(app: name, event: event, reason: bluetoothOn ? "Bluetooth is off in Control Center" : "Bluetooth is off")]
        }
        if stateReport, case .terminated = app.state {
            return [.dropped(app: name, event: event, reason: "a state change relaunches no app")]
        }
        let hasMode = switch event.kind {
        case .central: app.description.modes.contains(.bluetoothCentral)
        case .peripheral: app.description.modes.contains(.bluetoothPeripheral)
        case .region: true
        }
        switch app.state {
        case .foreground, .background:
            outputs.append(.deliver(app: name, events: [event]))
        case .suspended:
            // The system wakes no app to say it may write without response again (Apple
            // Developer Forums thread 765444, Apple DTS): the call is lost.
            if event.detail == "isReadyToSendWriteWithoutResponse" {
                outputs.append(.dropped(app: name, event: event, reason: "the system wakes no app for peripheralIsReady(toSendWriteWithoutResponse:)"))
            } else if hasMode {
                wake(&app, at: now, outputs: &outputs)
                outputs.append(.deliver(app: name, events: [event]))
            } else {
                app.queued.append(event)
            }
        case .notRunning:
            outputs.append(.dropped(app: name, event: event, reason: "the app has not been launched"))
        case let .terminated(reason):
            let refusal: String? = switch (event.kind, reason) {
            // The significant-change and visit services relaunch no app the user force-quit
            // (Apple Developer Forums thread 826964); beacon regions may (rule 22).
            case (.region, .forceQuit):
                !Self.isLocationService(event) && policy.beaconRelaunchAfterForceQuit ? nil : "the user force-quit the app"
            case (.region, _): nil
            // Bluetooth: the relaunch profile and the first unlock after a restart (rule 16).
            default: bluetoothRelaunchRefusal(of: app, after: reason, hasMode: hasMode)
            }
            if let refusal {
                outputs.append(.dropped(app: name, event: event, reason: refusal))
                return outputs
            }
            outputs.append(.relaunched(app: name, for: event))
            wake(&app, at: now, outputs: &outputs)
            outputs.append(.deliver(app: name, events: [event]))
        }
        return outputs
    }

    /// Whether `event` comes from the significant-change or the visit service (a
    /// `didUpdateLocations` or `didVisit` routed as a location event), which wakes and
    /// relaunches as a region event does but never after a force-quit.
    static func isLocationService(_ event: PhoneEvent) -> Bool {
        event.kind == .region && (event.detail.hasPrefix("didUpdateLocations") || event.detail.hasPrefix("didVisit"))
    }

    /// Carries out what is due by `now`: suspensions at the end of a grace period or a wake
    /// window, and terminations of background tasks that ran over.
    public mutating func advance(to now: Int64) -> [PhoneOutput] {
        var outputs: [PhoneOutput] = []
        controlCenterComesOnIfDue(at: now, outputs: &outputs)
        while let first = delayed.first, first.at <= now {
            delayed.removeFirst()
            outputs += route(first.event, to: first.app, at: now)
        }
        for name in appNames {
            guard var app = apps[name] else { continue }
            if let ends = app.taskEndsAt, ends <= now {
                app.taskEndsAt = nil
                app.suspendAt = nil
                move(&app, to: .terminated(.system), outputs: &outputs)
            } else if let at = app.suspendAt, at <= now, app.taskEndsAt == nil {
                suspend(&app, outputs: &outputs)
            }
            store(app)
        }
        return outputs
    }

    // MARK: Helpers

    private func record(_ name: String) throws(PhoneError) -> App {
        guard let app = apps[name] else { throw .unknownApp(name) }
        return app
    }

    /// Keeps `app`'s record as changed.
    mutating func store(_ app: App) { apps[app.description.name] = app }

    private mutating func move(_ app: inout App, to state: AppState, outputs: inout [PhoneOutput]) {
        guard app.state != state else { return }
        outputs.append(.stateChanged(app: app.description.name, from: app.state, to: state))
        app.state = state
        switch state {
        // Temporary full accuracy lasts while the app is in use (`requestTemporaryFullLocationAccuracy`).
        case .suspended: app.temporaryFullAccuracy = false
        case .terminated:
            app.temporaryFullAccuracy = false
            // Its connections end with it, and the alerts it asked for with them (rule 5).
            forgetConnectionAlerts(of: app.description.name)
        case .foreground:
            foregroundMoves += 1
            app.lastForeground = foregroundMoves
        default: break
        }
    }

    /// Ends the app for `reason`: what it had queued is dropped with it.
    private mutating func end(_ app: inout App, _ reason: TerminationReason, outputs: inout [PhoneOutput]) {
        move(&app, to: .terminated(reason), outputs: &outputs)
        app.suspendAt = nil
        app.taskEndsAt = nil
        for event in app.queued {
            outputs.append(.dropped(app: app.description.name, event: event, reason: "the app was terminated before it returned to the foreground"))
        }
        app.queued = []
    }

    private mutating func suspend(_ app: inout App, outputs: inout [PhoneOutput]) {
        app.suspendAt = nil
        move(&app, to: .suspended, outputs: &outputs)
    }

    /// Runs the app in the background for a wake window (a relaunch starts the same way).
    private mutating func wake(_ app: inout App, at now: Int64, outputs: inout [PhoneOutput]) {
        move(&app, to: .background, outputs: &outputs)
        app.suspendAt = now + policy.wakeWindow
    }
}
