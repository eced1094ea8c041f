import BLETime
import Foundation

/// How an app's notification layer (OpenUserNotifications' `UNUserNotificationCenter`)
/// meets the phone: the two moments the system calls into the app for a local notification.
public struct NotificationHandlers: Sendable {
    /// A notification of the app arrived while it is in the foreground: the app's delegate
    /// (`willPresent`) decides how it is shown, and the layer calls the completion with that.
    public var present: @Sendable (DeliveredNotification, @escaping @Sendable (NotificationPresentation) -> Void) -> Void
    /// The user tapped the app's notification; the phone opened the app first, launching it
    /// when `launched` (a new run: the objects of the last run are gone).
    public var respond: @Sendable (_ notification: DeliveredNotification, _ launched: Bool) -> Void

    /// Handlers.
    public init(present: @escaping @Sendable (DeliveredNotification, @escaping @Sendable (NotificationPresentation) -> Void) -> Void,
                respond: @escaping @Sendable (DeliveredNotification, Bool) -> Void) {
        self.present = present
        self.respond = respond
    }
}

/// The phone's local notifications (UserNotifications on iOS): each app's permission, its
/// pending and delivered notifications, the lock screen's log, and the user's taps, on the
/// phone's clock. The rules are ``LockScreen``'s; this is its runtime: time triggers fire on
/// the phone's timer, location triggers when the app's notification layer reports a region
/// crossing its system monitoring saw, and each delivery is on the ``timeline``.
extension SimulatedPhone {
    /// Connects `app`'s notification layer: how it presents a notification in the
    /// foreground and hears a tap. Replaces earlier handlers.
    public func attachNotifications(of app: String, _ handlers: NotificationHandlers) {
        state.withLock { $0.notificationHandlers[app] = handlers }
    }

    /// How many times `app` has been started, by the user or the system: the objects of an
    /// earlier run (a delegate, say) are gone, as the process that held them is.
    public func launchCount(of app: String) -> Int {
        state.withLock { $0.runs[app] ?? 0 }
    }

    /// Sets what the phone's user answers when `app` asks to post notifications (by default
    /// ``NotificationAuthorizationAnswer/allow``); a scenario or a test makes the user refuse.
    public func setNotificationAnswer(_ answer: NotificationAuthorizationAnswer, for app: String) {
        state.withLock { $0.lockScreen.setAnswer(answer, for: app) }
    }

    /// Sets `app`'s notification authorization, as the user does in Settings.
    public func setNotificationAuthorization(_ authorization: NotificationAuthorization, for app: String) {
        state.withLock { $0.lockScreen.setAuthorization(authorization, for: app) }
    }

    /// `app`'s notification authorization, which the phone keeps across the app's runs.
    public func notificationAuthorization(of app: String) -> NotificationAuthorization {
        state.withLock { $0.lockScreen.authorization(of: app) }
    }

    /// `app` asks to post notifications (`provisional`: quietly, without a prompt). A prompt
    /// the user answers is on the timeline as a system alert. Returns whether the app may post.
    public func requestNotificationAuthorization(for app: String, provisional: Bool) -> Bool {
        let now = clock.microseconds
        return state.withLock { state in
            let before = state.lockScreen.authorization(of: app)
            let (granted, asked) = state.lockScreen.requestAuthorization(for: app, provisional: provisional)
            if asked {
                let after = state.lockScreen.authorization(of: app)
                state.timeline.append(PhoneTimelineEntry(time: now, output: .alert(
                    app: app, message: "notification authorization: \(before.rawValue) → \(after.rawValue)")))
            }
            return granted
        }
    }

    /// Adds `request` to its app's pending notifications (replacing one with its
    /// identifier); one without a trigger is delivered at once.
    /// - Throws: ``LocalNotificationError`` without authorization or for an invalid interval.
    public func addNotification(_ request: LocalNotification) throws(LocalNotificationError) {
        let now = clock.microseconds
        let epoch = notificationEpoch
        let fired = try state.withLock { state throws(LocalNotificationError) in
            state.lockScreen.epoch = epoch
            return try state.lockScreen.add(request, at: now)
        }
        notificationsFired(fired)
        rearm()
    }

    /// `app`'s pending notification requests, in the order added.
    public func pendingNotifications(of app: String) -> [LocalNotification] {
        state.withLock { $0.lockScreen.pendingRequests(of: app) }
    }

    /// `app`'s delivered notifications still in the notification centre, oldest first.
    public func deliveredNotifications(of app: String) -> [DeliveredNotification] {
        state.withLock { $0.lockScreen.deliveredNotifications(of: app) }
    }

    /// Removes `app`'s pending requests with these identifiers (all when `nil`).
    public func removePendingNotifications(_ identifiers: [String]?, of app: String) {
        state.withLock { $0.lockScreen.removePending(identifiers, of: app) }
        rearm()
    }

    /// Removes `app`'s delivered notifications with these identifiers (all when `nil`).
    public func removeDeliveredNotifications(_ identifiers: [String]?, of app: String) {
        state.withLock { $0.lockScreen.removeDelivered(identifiers, of: app) }
    }

    /// The phone's region monitoring saw the device enter (or leave) the region `app` named
    /// `region` for a location trigger: the waiting notifications fire, whatever the app's
    /// state, if the app has location authorization (When In Use suffices, Apple,
    /// `UNLocationNotificationTrigger`); without it they are dropped, on the timeline.
    public func notificationRegionCrossed(_ region: String, of app: String, entered: Bool) {
        let now = clock.microseconds
        let fired = state.withLock { $0.lockScreen.regionCrossed(region, of: app, entered: entered, at: now) }
        notificationsFired(fired)
    }

    /// The date of `time` on the phone's clock (a delivered notification's date): virtual
    /// time counts from 1 January 2026, 00:00 UTC; the wall clock is the system's date.
    public func notificationDate(at time: Int64) -> Date {
        notificationEpoch.addingTimeInterval(Double(time) / 1e6)
    }

    /// The date of time 0 on the phone's clock.
    private var notificationEpoch: Date { Self.epoch(of: clock, policy: policy) }

    /// The date of time 0 on `clock`: on virtual time 1 January 2026, at
    /// `policy.timeOfDayAtStart` (midnight UTC by default); on the wall clock the system's
    /// date less the clock's reading, on that day at `policy.timeOfDayAtStart` if it is set.
    static func epoch(of clock: any StackClock, policy: PhonePolicy) -> Date {
        let now = Date().addingTimeInterval(-Double(clock.microseconds) / 1e6)
        let midnight = clock is VirtualClock ? 1_767_225_600 : (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        guard let timeOfDay = policy.timeOfDayAtStart else {
            return clock is VirtualClock ? Date(timeIntervalSince1970: midnight) : now
        }
        return Date(timeIntervalSince1970: midnight + Double(timeOfDay) / 1e6)
    }

    /// The phone's rules on `clock`, which places their time 0 in the day (the phone's
    /// calendar is UTC, as its notifications' is) for Control Center's 5 AM.
    static func core(policy: PhonePolicy, seed: UInt64, clock: any StackClock) -> PhoneCore {
        var core = PhoneCore(policy: policy, seed: seed)
        let seconds = epoch(of: clock, policy: policy).timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
        core.timeOfDayAtZero = Int64((seconds * 1e6).rounded())
        return core
    }

    /// What the lock screen and notification centre showed, in order.
    public var lockScreenLog: [LockScreenEntry] {
        state.withLock { $0.lockScreen.log }
    }

    /// The user taps `app`'s delivered notification `identifier`: it leaves the
    /// notification centre, the app opens (launched when not running, as a tap does), and
    /// the app's notification layer hears the tap (`didReceive`).
    /// - Throws: `PhoneError.unknownApp(_:)`, or `PhoneError.invalidAction(_:)` when no
    ///   such notification is listed.
    public func tapNotification(_ identifier: String, of app: String) throws(PhoneError) {
        let now = clock.microseconds
        guard let before = state(of: app) else { throw .unknownApp(app) }
        let (tapped, handlers) = state.withLock { state in
            (state.lockScreen.tap(identifier, of: app), state.notificationHandlers[app])
        }
        guard let tapped else { throw .invalidAction("\(app) has no delivered notification \"\(identifier)\" to tap") }
        state.withLock { state in
            state.timeline.append(PhoneTimelineEntry(time: now, output: .notification(app: app, change: "tapped “\(tapped.request.title)”")))
        }
        let launched = switch before {
        case .notRunning, .terminated: true
        default: false
        }
        try perform(.launch(app))
        handlers?.respond(tapped, launched)
    }

    /// The user swipes `app`'s delivered notification `identifier` away: it leaves the
    /// notification centre and the app hears nothing (Apple tells the app of a dismissal
    /// only for a category with `customDismissAction`, which the phone does not model).
    /// - Throws: `PhoneError.invalidAction(_:)` when no such notification is listed.
    public func dismissNotification(_ identifier: String, of app: String) throws(PhoneError) {
        let now = clock.microseconds
        try state.withLock { state throws(PhoneError) in
            guard let dismissed = state.lockScreen.tap(identifier, of: app) else {
                throw .invalidAction("\(app) has no delivered notification \"\(identifier)\" to dismiss")
            }
            state.timeline.append(PhoneTimelineEntry(time: now, output: .notification(app: app, change: "dismissed “\(dismissed.request.title)”")))
        }
    }

    /// Presents what fired: on the lock screen when its app is not in the foreground, as the
    /// app's delegate decides when it is (nothing shown without a delegate, Apple's rule);
    /// a location trigger of an app without location authorization is dropped.
    func notificationsFired(_ fired: [DeliveredNotification]) {
        for notification in fired {
            let app = notification.request.app
            let (appState, handlers, refusal) = state.withLock { state -> (AppState?, NotificationHandlers?, String?) in
                var refusal: String?
                if case .region = notification.request.trigger {
                    let location = state.core.locationAuthorization(of: app)
                    if location != .whenInUse && location != .always {
                        refusal = "a location trigger needs location authorization (the app's is \(location.rawValue))"
                    }
                }
                return (try? state.core.state(of: app), state.notificationHandlers[app], refusal)
            }
            if let refusal {
                state.withLock { state in
                    let event = PhoneEvent(kind: .region, detail: "notification \"\(notification.request.identifier)\"", time: notification.time)
                    state.timeline.append(PhoneTimelineEntry(time: clock.microseconds, output: .dropped(app: app, event: event, reason: refusal)))
                }
                continue
            }
            if appState == .foreground, let handlers {
                handlers.present(notification) { [weak self] presentation in self?.presented(notification, as: presentation) }
            } else if appState == .foreground {
                presented(notification, as: .foreground(banner: false, list: false, sound: false))
            } else {
                presented(notification, as: .lockScreen)
            }
        }
    }

    /// `notification` reached the user as `presentation`: logged, listed, on the timeline.
    private func presented(_ notification: DeliveredNotification, as presentation: NotificationPresentation) {
        let now = clock.microseconds
        state.withLock { state in
            state.lockScreen.present(notification, as: presentation)
            let request = notification.request
            let text = request.body.isEmpty ? "" : " — \(request.body)"
            state.timeline.append(PhoneTimelineEntry(time: now, output: .notification(
                app: request.app, change: "“\(request.title)”\(text) (\(presentation.description))")))
        }
    }
}
