import BLETime
import Dispatch

extension SimulatedPhone {
    /// A delegate call waiting for the phone's decision, and the queue it runs on.
    struct Delivery: Sendable {
        let isolation: any Actor
        let body: @Sendable () -> Void
    }

    /// What the system carries out once its lock is released.
    enum Effect: Sendable {
        /// Run a delivery (`id` 0 for one not to run inline).
        case run(Delivery, id: UInt64)
        /// Run the app's launch entry point.
        case launch(String, LaunchEntryPoint, PhoneLaunchOptions)
        /// Tell a manager its app ended.
        case terminate(any PhoneAppMember, preserved: Bool)
        /// Tell a manager its running app changed state.
        case changed(any PhoneAppMember, AppState)
        /// Hand a network request's outcome to the app's session.
        case call(@Sendable () -> Void)
        /// Hand a request that reached its server to the server.
        case serve(UInt64, NetworkRequest, any NetworkServer)
        /// Tell a manager Bluetooth was switched on or off.
        case bluetooth(any PhoneAppMember, on: Bool)
        /// Bluetooth was switched off: end the device's links still up.
        case radioOff
        /// Tell a manager the screen came on (after being off, when `afterLock`).
        case screenOn(any PhoneAppMember, afterLock: Bool)
    }

    /// The phone's system: the rules' core and what the layers above gave it.
    struct State {
        var core: PhoneCore
        var launchers: [String: LaunchEntryPoint] = [:]
        /// Delegate calls routed and not yet delivered or dropped, by event number.
        var pending: [UInt64: Delivery] = [:]
        var nextID: UInt64 = 1
        /// The managers of each running app: held until the app ends, as the system holds
        /// what an app asked of it.
        var members: [String: [any PhoneAppMember]] = [:]
        /// Managers whose restore identifier another manager of their app had first.
        var unpreserved: Set<ObjectIdentifier> = []
        /// The managers the system keeps for each terminated app, by restore identifier.
        var preserved: [String: [String: any PhoneAppMember]] = [:]
        /// The deliveries held for each app being relaunched, until a manager restores; they
        /// go on the timeline when they run, after the restoration's own calls.
        var relaunching: [String: [(event: PhoneEvent, delivery: Delivery)]] = [:]
        /// The peripherals each app has been told of while not in the foreground (rule 7).
        var backgroundReported: [String: Set<String>] = [:]
        var timeline: [PhoneTimelineEntry] = []
        var timer: Task<Void, Never>?
        var timerDeadline: Int64?
        /// Carries out the scenario's actions for the phone (``SimulatedPhone/followScenario()``).
        var follower: Task<Void, Never>?
        /// The Notification Center's UID of each notification the scenario posted, by its id.
        var notificationUIDs: [String: UInt32] = [:]
        /// The apps' local notifications: pending, delivered, and what the user saw.
        var lockScreen = LockScreen()
        /// How each app's notification layer presents a notification in the foreground and
        /// answers a tap (``SimulatedPhone/attachNotifications(of:present:respond:)``).
        var notificationHandlers: [String: NotificationHandlers] = [:]
        /// How many times each app has been started, by the user or the system.
        var runs: [String: Int] = [:]
        /// The cellular link, the servers it reaches and the apps' requests.
        var network: NetworkState
        /// The phone's own services that follow its apps' states and its Bluetooth switch
        /// (its region monitoring, ``PhoneRegionMonitoring``): each is called after a change.
        var systemListeners: [@Sendable () -> Void] = []

        init(core: PhoneCore, link: CellularLink = CellularLink()) {
            self.core = core
            network = NetworkState(link: link)
        }

        /// Records `outputs` and turns them into what is to be done.
        mutating func process(_ outputs: [PhoneOutput], at now: Int64) -> [Effect] {
            var effects: [Effect] = []
            for output in outputs {
                if case let .deliver(app, events) = output, relaunching[app] != nil {
                    // Held for the relaunch: recorded when ``SimulatedPhone/restored(app:)`` runs them.
                    for event in events {
                        if let delivery = pending.removeValue(forKey: event.id) { relaunching[app]?.append((event, delivery)) }
                    }
                    continue
                }
                timeline.append(PhoneTimelineEntry(time: now, output: output))
                switch output {
                case let .stateChanged(app, from, to):
                    // A start; a terminated app ended again by a restart is not one.
                    switch (from, to) {
                    case (_, .terminated): break
                    case (.notRunning, _), (.terminated, _): runs[app, default: 0] += 1
                    default: break
                    }
                    if case let .terminated(reason) = to {
                        effects += terminate(app, reason)
                    } else {
                        effects += (members[app] ?? []).map { .changed($0, to) }
                    }
                    effects += networkFollows(app, to: to, at: now)
                    effects += systemListeners.map { .call($0) }
                    if to == .suspended {
                        // A relaunched app that made no manager to restore before it was
                        // suspended again loses the events it was relaunched for, as
                        // observed on iOS (research §9, rule 14); the timeline says so.
                        for (event, _) in relaunching.removeValue(forKey: app) ?? [] {
                            timeline.append(PhoneTimelineEntry(time: now, output: .dropped(
                                app: app, event: event, reason: "the relaunched app made no manager with its restore identifier")))
                        }
                    }
                case let .deliver(_, events):
                    for event in events {
                        guard let delivery = pending.removeValue(forKey: event.id) else { continue }
                        effects.append(.run(delivery, id: event.id))
                    }
                case let .relaunched(app, event):
                    guard let launcher = launchers[app] else { continue }
                    let kept = preserved[app] ?? [:]
                    var options = PhoneLaunchOptions(location: event.kind == .region)
                    options.bluetoothCentrals = kept.filter { $0.value.role == .central }.keys.sorted()
                    options.bluetoothPeripherals = kept.filter { $0.value.role == .peripheral }.keys.sorted()
                    if event.kind != .region { relaunching[app] = [] }
                    effects.append(.launch(app, launcher, options))
                case let .dropped(_, event, _):
                    pending[event.id] = nil
                case .alert, .notification, .network, .crashed, .system:
                    break
                }
            }
            return effects
        }

        /// The app ended: managers with a restore identifier are kept unless the user
        /// force-quit it, or the relaunch profile ends their work for `reason` (rules 13
        /// and 16, `PhoneCore.keepsBluetoothState(of:after:)`); the others end with it.
        private mutating func terminate(_ app: String, _ reason: TerminationReason) -> [Effect] {
            var effects: [Effect] = []
            // Monitored regions are the phone's: they outlive even a force-quit when the
            // policy relaunches for beacons then (rules 20 and 22).
            let regionsKept = reason != .forceQuit || core.policy.beaconRelaunchAfterForceQuit
            let bluetoothKept = core.keepsBluetoothState(of: app, after: reason)
            for member in members.removeValue(forKey: app) ?? [] {
                let duplicate = unpreserved.remove(ObjectIdentifier(member)) != nil
                let keeps = member.role == .region ? regionsKept : bluetoothKept
                if keeps, !duplicate, let identifier = member.restoreIdentifier {
                    preserved[app, default: [:]][identifier] = member
                    effects.append(.terminate(member, preserved: true))
                } else {
                    effects.append(.terminate(member, preserved: false))
                }
            }
            // What was kept from an earlier end goes too when this one ends it (a force-quit,
            // or a restart on iOS 10, of an app the system had ended).
            for (identifier, member) in preserved[app] ?? [:] where !(member.role == .region ? regionsKept : bluetoothKept) {
                preserved[app]?[identifier] = nil
                effects.append(.terminate(member, preserved: false))
            }
            relaunching[app] = nil
            backgroundReported[app] = nil
            return effects
        }
    }

    /// Carries `effects` out in order: the delivery numbered `inline` at once, on the
    /// caller's queue, when nothing comes before it; the rest in a task, each on its queue.
    func carryOut(_ effects: [Effect], inline: UInt64?) {
        var later: [Effect] = []
        for effect in effects {
            if case let .run(delivery, id) = effect, let inline, id == inline, later.isEmpty {
                delivery.body()
            } else {
                later.append(effect)
            }
        }
        guard !later.isEmpty else { return }
        // The app being launched is the one a request belongs to from now on, not only once
        // its entry point has run in the task below: a request made right after `launch`
        // (on a loaded machine, before that task runs) is the launched app's, not nobody's.
        for case let .launch(app, _, _) in later.reversed() {
            state.withLock { $0.network.currentApp = app }
            break
        }
        spawn { [self, later] in
            for effect in later {
                switch effect {
                case let .run(delivery, _):
                    await runIsolated(on: delivery.isolation, delivery.body)
                case let .launch(app, launcher, options):
                    launch(app, launcher, options)
                case let .terminate(member, preserved):
                    await member.appTerminated(preserved: preserved)
                case let .changed(member, state):
                    await member.appStateChanged(to: state)
                case let .call(body):
                    body()
                case let .serve(id, request, server):
                    serve(id, request, with: server)
                case let .bluetooth(member, on):
                    await member.bluetoothSwitched(on: on)
                case .radioOff:
                    for connection in device?.connections ?? [] { try? await connection.disconnect() }
                case let .screenOn(member, afterLock):
                    await member.screenCameOn(afterLock: afterLock)
                }
            }
        }
    }

    /// Runs the launch entry point on the main queue, with the app current for the
    /// managers it makes (and for requests, as ``carryOut(_:inline:)`` made it already).
    private func launch(_ app: String, _ launcher: @escaping LaunchEntryPoint, _ options: PhoneLaunchOptions) {
        let binding = PhoneApp(phone: self, name: app)
        state.withLock { $0.network.currentApp = app }
        let work: @Sendable () -> Void = {
            MainActor.assumeIsolated {
                PhoneApp.$launching.withValue(binding) { launcher(options) }
            }
        }
        if let simulation {
            simulation.dispatch(to: .main, work)
        } else {
            DispatchQueue.main.async(execute: work)
        }
    }

    /// Sets the timer for the rules' next deadline (a suspension, a background task's end,
    /// a delayed region entry).
    func rearm() {
        state.withLock { state in
            let deadline = [state.core.nextDeadline, state.lockScreen.nextDeadline, state.network.link.nextDeadline].compactMap { $0 }.min()
            guard deadline != state.timerDeadline else { return }
            state.timer?.cancel()
            state.timer = nil
            state.timerDeadline = deadline
            guard let deadline else { return }
            state.timer = spawn { [weak self] in
                guard let clock = self?.clock else { return }
                do {
                    try await clock.sleep(untilMicroseconds: deadline)
                } catch {
                    return
                }
                self?.tick()
            }
        }
    }

    /// The rules' deadline (or a notification's time trigger, or the link's next arrival) came.
    private func tick() {
        let now = clock.microseconds
        let (effects, fired) = state.withLock { state -> ([Effect], [DeliveredNotification]) in
            state.timer = nil
            state.timerDeadline = nil
            let switches = state.switches
            // Control Center's button may come on by itself (5 AM): the managers hear it.
            let effects = state.process(state.core.advance(to: now), at: now) + state.radioSwitched(from: switches)
            return (effects + state.linkOutputs(state.network.link.advance(to: now), at: now), state.lockScreen.advance(to: now))
        }
        carryOut(effects, inline: nil)
        notificationsFired(fired)
        rearm()
    }

    /// Starts a task in the phone's simulation, if it has one.
    @discardableResult
    private func spawn(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if let simulation { return Task(executorPreference: simulation) { await work() } }
        return Task { await work() }
    }
}

/// Runs `body` on `isolation`'s executor.
private func runIsolated(on isolation: isolated any Actor, _ body: @Sendable () -> Void) {
    body()
}
