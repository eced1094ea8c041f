import Foundation

/// The phone's notification centre and lock screen as a sans-IO state machine: each app's
/// permission to post, the pending requests with their triggers, the delivered list and a
/// log of what the user saw. Time comes in with each call; ``nextDeadline`` says when to
/// call ``advance(to:)``; region crossings come in from the phone's region monitoring
/// (``regionCrossed(_:entered:at:)``). What fires is returned for the runtime to present
/// (``present(_:as:)``), since the foreground case asks the app's delegate.
///
/// Apple's rules it follows (UserNotifications, "Scheduling a notification locally from
/// your app"; `UNNotificationRequest`): a request with the identifier of a pending one
/// replaces it; a non-repeating request leaves the pending list when it fires; a repeating
/// time interval is at least 60 s.
public struct LockScreen: Sendable {
    struct Pending: Sendable {
        var request: LocalNotification
        /// When a time trigger fires next.
        var fireAt: Int64?
    }

    /// The answer each app's user gives; ``NotificationAuthorizationAnswer/allow`` unless set.
    var answers: [String: NotificationAuthorizationAnswer] = [:]
    var authorizations: [String: NotificationAuthorization] = [:]
    var pending: [Pending] = []
    var delivered: [DeliveredNotification] = []
    /// What the user saw, in order.
    public private(set) var log: [LockScreenEntry] = []
    /// The date of time 0 on the phone's clock, for calendar triggers: by default 1 January
    /// 2026, 00:00 UTC, the start of a simulation's virtual time.
    public var epoch = Date(timeIntervalSince1970: 1_767_225_600)

    /// The phone's calendar: Gregorian, in UTC.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// An empty notification centre.
    public init() {}

    /// The time of the first date after `time` that matches `components`, if any.
    func nextMatch(of components: DateComponents, after time: Int64) -> Int64? {
        let date = epoch.addingTimeInterval(Double(time) / 1e6)
        guard let next = Self.calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime) else { return nil }
        let seconds = next.timeIntervalSince(epoch)
        guard seconds.isFinite, abs(seconds) < 9e12 else { return nil }
        return Int64((seconds * 1e6).rounded())
    }

    // MARK: Authorization

    /// Sets what the user answers when `app` asks to post notifications.
    public mutating func setAnswer(_ answer: NotificationAuthorizationAnswer, for app: String) {
        answers[app] = answer
    }

    /// Sets `app`'s authorization directly, as the user does in Settings.
    public mutating func setAuthorization(_ authorization: NotificationAuthorization, for app: String) {
        authorizations[app] = authorization
    }

    /// `app`'s authorization (``NotificationAuthorization/notDetermined`` until it asks).
    public func authorization(of app: String) -> NotificationAuthorization {
        authorizations[app] ?? .notDetermined
    }

    /// `app` asks to post notifications (`requestAuthorization(options:)`). Not determined,
    /// the user answers as set (``setAnswer(_:for:)``); with `provisional`, the system grants
    /// provisional authorization without asking (Apple, "Asking permission to use
    /// notifications": "provisional authorization"); provisional, a request without it asks
    /// the user. Otherwise nothing is asked and the status stands.
    /// - Returns: whether the app may post, and whether the user was asked.
    public mutating func requestAuthorization(for app: String, provisional: Bool) -> (granted: Bool, asked: Bool) {
        let status = authorization(of: app)
        let asks = status == .notDetermined || (status == .provisional && !provisional)
        switch status {
        case .notDetermined where provisional:
            authorizations[app] = .provisional
            return (true, false)
        case _ where asks:
            // Not determined (a provisional request was answered above), or provisional and
            // now asking for the prompt.
            switch answers[app] ?? .allow {
            case .allow: authorizations[app] = .authorized
            case .deny: authorizations[app] = .denied
            case .undecided: break
            }
            return (authorization(of: app).allowsDelivery, true)
        default:
            return (status.allowsDelivery, false)
        }
    }

    // MARK: Requests

    /// Adds `request` at `now`, replacing a pending one of the app with its identifier.
    /// - Returns: what fires at once (a request without trigger).
    /// - Throws: ``LocalNotificationError/notificationsNotAllowed(app:_:)`` without
    ///   authorization; ``LocalNotificationError/invalidTimeInterval(seconds:repeats:)`` for
    ///   an interval of 0 or less, or a repeating one under 60 s.
    public mutating func add(_ request: LocalNotification, at now: Int64) throws(LocalNotificationError) -> [DeliveredNotification] {
        let status = authorization(of: request.app)
        guard status.allowsDelivery else { throw .notificationsNotAllowed(app: request.app, status) }
        var fireAt: Int64?
        if case let .timeInterval(interval, repeats) = request.trigger {
            let (at, overflow) = now.addingReportingOverflow(interval)
            guard interval > 0, !repeats || interval >= 60_000_000, !overflow else {
                throw .invalidTimeInterval(seconds: Double(interval) / 1e6, repeats: repeats)
            }
            fireAt = at
        }
        if case let .calendar(components, _) = request.trigger {
            guard let next = nextMatch(of: components, after: now) else { throw .noNextDate }
            fireAt = next
        }
        pending.removeAll { $0.request.app == request.app && $0.request.identifier == request.identifier }
        if request.trigger == .immediate { return [DeliveredNotification(request: request, time: now)] }
        pending.append(Pending(request: request, fireAt: fireAt))
        return []
    }

    /// `app`'s pending requests, in the order added.
    public func pendingRequests(of app: String) -> [LocalNotification] {
        pending.filter { $0.request.app == app }.map(\.request)
    }

    /// `app`'s delivered notifications still in the notification centre, oldest first.
    public func deliveredNotifications(of app: String) -> [DeliveredNotification] {
        delivered.filter { $0.request.app == app }
    }

    /// Removes `app`'s pending requests with these identifiers (all when `nil`).
    public mutating func removePending(_ identifiers: [String]?, of app: String) {
        pending.removeAll { $0.request.app == app && (identifiers?.contains($0.request.identifier) ?? true) }
    }

    /// Removes `app`'s delivered notifications with these identifiers (all when `nil`).
    public mutating func removeDelivered(_ identifiers: [String]?, of app: String) {
        delivered.removeAll { $0.request.app == app && (identifiers?.contains($0.request.identifier) ?? true) }
    }

    // MARK: Firing

    /// The earliest time a time or calendar trigger fires, if any.
    public var nextDeadline: Int64? { pending.compactMap(\.fireAt).min() }

    /// Fires the time and calendar triggers due at `now`, in order of their time; a
    /// repeating one is due again one interval (or at the next matching date) later, the
    /// others leave the pending list.
    public mutating func advance(to now: Int64) -> [DeliveredNotification] {
        var fired: [DeliveredNotification] = []
        while let index = pending.indices.filter({ (pending[$0].fireAt ?? .max) <= now }).min(by: {
            (pending[$0].fireAt ?? .max) < (pending[$1].fireAt ?? .max)
        }), let at = pending[index].fireAt {
            let request = pending[index].request
            fired.append(DeliveredNotification(request: request, time: at))
            if case let .timeInterval(interval, true) = request.trigger, case let (next, false) = at.addingReportingOverflow(interval) {
                pending[index].fireAt = next
            } else if case let .calendar(components, true) = request.trigger, let next = nextMatch(of: components, after: at) {
                pending[index].fireAt = next
            } else {
                pending.remove(at: index)
            }
        }
        return fired
    }

    /// The phone's region monitoring saw the device enter (or leave) the region `app` named
    /// `region`: the app's location triggers waiting for that crossing fire, whatever state
    /// the app is in; a repeating one stays pending.
    public mutating func regionCrossed(_ region: String, of app: String, entered: Bool, at now: Int64) -> [DeliveredNotification] {
        var fired: [DeliveredNotification] = []
        pending.removeAll { item in
            guard item.request.app == app, case let .region(name, onEntry, onExit, repeats) = item.request.trigger, name == region,
                  entered ? onEntry : onExit else { return false }
            fired.append(DeliveredNotification(request: item.request, time: now))
            return !repeats
        }
        return fired
    }

    /// Records that `notification` reached the user as `presentation`: in the log, and in
    /// the delivered list when the presentation keeps it there.
    public mutating func present(_ notification: DeliveredNotification, as presentation: NotificationPresentation) {
        let request = notification.request
        if presentation.isListed {
            delivered.removeAll { $0.request.app == request.app && $0.request.identifier == request.identifier }
            delivered.append(notification)
        }
        log.append(LockScreenEntry(time: notification.time, app: request.app, identifier: request.identifier, title: request.title,
                                   subtitle: request.subtitle, body: request.body, presentation: presentation))
    }

    /// The user tapped `app`'s delivered notification `identifier`: it leaves the
    /// notification centre. Returns it, or `nil` when no such notification is listed.
    public mutating func tap(_ identifier: String, of app: String) -> DeliveredNotification? {
        guard let index = delivered.firstIndex(where: { $0.request.app == app && $0.request.identifier == identifier }) else { return nil }
        return delivered.remove(at: index)
    }
}
