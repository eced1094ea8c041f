import Synchronization

/// The one scan a device runs for all the central managers that share it: the controller
/// scans once (Core 5.4, Vol 6, Part B, §4.4.3: one scanning state per link layer), and
/// every report goes to each manager scanning, which keeps what its own services and
/// options ask for. Several managers of one app, or the apps of a simulated phone, scan at
/// once this way, as they do on an iPhone, where the system's daemon shares the radio.
///
/// The device's scan starts with the first subscriber and ends with the last one. On a
/// simulated phone its duty is the phone's (``PhonePolicy/scanDuty(foregroundScanner:)``):
/// fast and active while an app scanning is in the foreground, slow and passive while none
/// is (research §9, rules 8 and 9); the scan restarts with the new duty when an app
/// scanning comes or goes, or moves on or off screen. On the
/// ``ScanProfile/legacyIOS5to7`` profile the background duty runs only in the phone's
/// bursts (``PhonePolicy/backgroundScanPhase(at:)``): the controller's scan stops at a
/// burst's end and starts again at the next one's start. A device on no phone scans
/// actively and continuously.
///
/// The phone's own region monitoring (``PhoneRegionMonitoring``) shares the same scan as the
/// system: on iOS the system's beacon monitoring and the apps' scans use one radio. It lives
/// here, beside the phone, for that; OpenCoreBluetooth's central managers use it through
/// `package` access.
package final class SharedScan: Sendable {
    /// A report of the device's scan, and whether that scan was active: a passive scan
    /// never brings a scan response, so no discovery should wait for one.
    package struct Report: Sendable {
        /// The advertisement as the device's central reported it.
        package let advertisement: Advertisement
        /// Whether the scan that heard it was active.
        package let active: Bool
    }

    /// Whom a share of the scan is for: a manager of an app (or of no phone), or the phone's
    /// system, which scans at the foreground duty only while `onScreen` says so.
    package enum Scanner: Sendable {
        /// A manager of `app`; `nil` for a manager on no phone.
        case app(PhoneApp?)
        /// The system of `phone` (its region monitoring).
        case system(SimulatedPhone, onScreen: @Sendable () -> Bool)

        /// The phone's rules the scan follows, `nil` on no phone.
        var policy: PhonePolicy? {
            switch self {
            case let .app(app): app?.policy
            case let .system(phone, _): phone.policy
            }
        }

        /// Whether this share asks for the foreground duty now.
        var inForeground: Bool {
            switch self {
            case let .app(app): app.map { $0.state == .foreground } ?? true
            case let .system(_, onScreen): onScreen()
            }
        }
    }

    /// A manager's share of the scan: its reports, and whom it scans for.
    private struct Subscriber {
        let continuation: AsyncStream<Report>.Continuation
        let scanner: Scanner
        /// Frozen by the screen-lock fault (``freeze()``): it hears nothing more.
        var frozen = false
    }

    private struct State {
        /// Held weakly: the shared scan must not keep a closed device alive.
        weak var device: BLEDevice?
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var pump: Task<Void, Never>?
        /// The number of the running pump, so a pump that ends late touches only its own.
        var pumpNumber: UInt64 = 0
        /// What the running pump scans with.
        var plan: Plan?
    }

    /// How the device scans: with these options, continuously or in the bursts of the
    /// phone's policy.
    private struct Plan: Equatable {
        let options: ScanOptions
        /// The policy whose bursts the scan follows (every scanning app off screen on the
        /// ``ScanProfile/legacyIOS5to7`` profile); `nil` for a continuous scan.
        let bursts: PhonePolicy?
    }

    private let state: Mutex<State>
    /// How many reports wait for a slow manager before the oldest are dropped (a scan's
    /// reports are a sample; a stalled app must not hold the radio's memory).
    private static let backlog = 256

    /// The shared scans, one per device.
    private static let scans = Mutex([ObjectIdentifier: SharedScan]())

    private init(device: BLEDevice) {
        state = Mutex(State(device: device))
    }

    private var isOrphaned: Bool { state.withLock { $0.device == nil } }

    /// The shared scan of `device`.
    package static func of(_ device: BLEDevice) -> SharedScan {
        scans.withLock { scans in
            scans = scans.filter { !$0.value.isOrphaned }
            if let scan = scans[ObjectIdentifier(device)] { return scan }
            let scan = SharedScan(device: device)
            scans[ObjectIdentifier(device)] = scan
            return scan
        }
    }

    /// Every report of the device's scan from now on, until the caller stops iterating.
    /// The stream ends early when the device cannot scan (another user of the device's
    /// central scans on its own, or the device closed).
    /// - Parameter app: the app of a simulated phone the caller scans for, whose state
    ///   sets the scan's duty; `nil` for a manager on no phone.
    package func subscribe(for app: PhoneApp?) -> AsyncStream<Report> {
        subscribe(.app(app))
    }

    /// Every report of the device's scan from now on for `scanner`, until the caller stops
    /// iterating; ends early as ``subscribe(for:)`` does.
    package func subscribe(_ scanner: Scanner) -> AsyncStream<Report> {
        let (stream, continuation) = AsyncStream.makeStream(of: Report.self, bufferingPolicy: .bufferingNewest(Self.backlog))
        let (id, replaced) = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(continuation: continuation, scanner: scanner)
            return (state.nextID, reconcile(&state))
        }
        replaced?.cancel()
        continuation.onTermination = { [weak self] _ in self?.leave(id) }
        return stream
    }

    /// The phone's screen-lock fault (``PhonePolicy/scanFreezesAfterScreenLock``): every scan
    /// running now delivers nothing more, though its app still believes it scans; a scan
    /// started afresh is not frozen.
    package func freeze() {
        state.withLock { state in
            for id in state.subscribers.keys { state.subscribers[id]?.frozen = true }
        }
    }

    /// An app's state changed: the scan takes the duty its subscribers' apps now need.
    package func reconsider() {
        state.withLock { reconcile(&$0) }?.cancel()
    }

    private func leave(_ id: UInt64) {
        state.withLock { state in
            state.subscribers[id] = nil
            return reconcile(&state)
        }?.cancel()
    }

    /// Makes the running scan the one the subscribers need: none without subscribers, else
    /// one with their options, started after the scan it replaces has stopped. Returns the
    /// pump to cancel (once the lock is released).
    private func reconcile(_ state: inout State) -> Task<Void, Never>? {
        guard !state.subscribers.isEmpty else {
            defer {
                state.pump = nil
                state.plan = nil
            }
            return state.pump
        }
        guard let device = state.device else { return nil }
        let wanted = Self.plan(for: Array(state.subscribers.values))
        guard state.pump == nil || wanted != state.plan else { return nil }
        let previous = state.pump
        state.pumpNumber += 1
        state.plan = wanted
        state.pump = startPump(device, number: state.pumpNumber, plan: wanted, after: previous)
        return previous
    }

    /// The scan `subscribers` need: on a phone, its duty for whether any of them scans for
    /// an app in the foreground (or for no app, or for the system while an app following a
    /// region is on screen), in bursts when none does and the phone's profile is
    /// ``ScanProfile/legacyIOS5to7``; on no phone, an active, continuous scan.
    /// Every report is wanted: each manager applies its own duplicate rule.
    private static func plan(for subscribers: [Subscriber]) -> Plan {
        guard let policy = subscribers.lazy.compactMap(\.scanner.policy).first else {
            return Plan(options: ScanOptions(allowDuplicates: true), bursts: nil)
        }
        let foreground = subscribers.contains { $0.scanner.inForeground }
        let duty = policy.scanDuty(foregroundScanner: foreground)
        let options = ScanOptions(active: duty.active, allowDuplicates: true,
                                  interval: .microseconds(duty.interval), window: .microseconds(duty.window))
        return Plan(options: options, bursts: !foreground && policy.scanProfile == .legacyIOS5to7 ? policy : nil)
    }

    private func startPump(_ device: BLEDevice, number: UInt64, plan: Plan, after previous: Task<Void, Never>?) -> Task<Void, Never> {
        Task { [weak self, weak device] in
            // The controller runs one scan: the one replaced stops first.
            await previous?.value
            // The device is held only while it scans: a pump waiting for a burst keeps no
            // closed device alive.
            while let clock = device?.clock {
                // Between two bursts the radio does not scan (rule 8, legacyIOS5to7).
                var burstEnd: Int64?
                if let policy = plan.bursts {
                    let phase = policy.backgroundScanPhase(at: clock.microseconds)
                    if !phase.listening, let start = phase.changesAt {
                        do { try await clock.sleep(untilMicroseconds: start) } catch { return }
                        continue
                    }
                    burstEnd = phase.changesAt
                }
                guard let results = try? await device?.central.scan(options: plan.options) else { break }
                await withTaskGroup(of: Void.self) { group in
                    if let burstEnd {
                        group.addTask {
                            guard (try? await clock.sleep(untilMicroseconds: burstEnd)) != nil else { return }
                            await results.stop()
                        }
                    }
                    for await advertisement in results {
                        guard let self else { break }
                        let report = Report(advertisement: advertisement, active: plan.options.active)
                        for subscriber in self.state.withLock({ Array($0.subscribers.values) }) where !subscriber.frozen {
                            subscriber.continuation.yield(report)
                        }
                    }
                    group.cancelAll()
                }
                // A burst's scan ends at the burst's end; any other end is the scan's.
                guard let burstEnd, !Task.isCancelled, clock.microseconds >= burstEnd else { break }
            }
            // The scan ended (or never started): its subscribers' streams end with it,
            // unless a scan with other options replaced it.
            let ended = self?.state.withLock { state -> [Subscriber] in
                guard state.pumpNumber == number, state.pump != nil else { return [] }
                defer {
                    state.subscribers = [:]
                    state.pump = nil
                    state.plan = nil
                }
                return Array(state.subscribers.values)
            } ?? []
            for subscriber in ended { subscriber.continuation.finish() }
        }
    }
}
