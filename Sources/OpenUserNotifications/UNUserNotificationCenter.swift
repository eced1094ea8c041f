import BLE
import BLETime
import Dispatch
import OpenCoreLocation

/// The app's notification centre (UserNotifications' `UNUserNotificationCenter`,
/// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter):
/// authorization, scheduling, the pending and delivered lists, and the ``delegate``.
///
/// ```swift
/// #if canImport(UserNotifications)
/// import UserNotifications
/// #else
/// import OpenUserNotifications
/// #endif
///
/// let center = UNUserNotificationCenter.current()
/// center.requestAuthorization(options: [.alert, .sound]) { granted, _ in
///     guard granted else { return }
///     let content = UNMutableNotificationContent()
///     content.title = "Welcome back"
///     let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
///     center.add(UNNotificationRequest(identifier: "welcome", content: content, trigger: trigger))
/// }
/// ```
///
/// **The phone.** Each app of a `SimulatedPhone` has one centre: ``current()`` called in
/// the app's launch entry point returns it, and so does ``current()`` called anywhere else
/// afterwards (a delegate call, a completion handler) in the same simulation: the centre
/// of the app that last asked for it in a launch there. ``center(for:on:)`` names the app
/// explicitly. Pending and delivered notifications, the authorization and the lock
/// screen's log are the phone's (`SimulatedPhone.lockScreenLog`, `LockScreen`'s rules) and
/// outlive the app's termination. Off a phone, ``current()`` gives a centre on a phone of
/// its own with one app in the background, so every notification goes to that phone's
/// lock screen.
///
/// **Threads.** Completion handlers and delegate calls run on the main queue (Apple calls
/// completion handlers on a queue of its own); the async variants return at once. The
/// class is `@unchecked Sendable`: its state (the delegate, the requests' objects, the
/// responses waiting for a delegate) is behind one lock, and the delegate is called only on
/// the main queue.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    /// The phone the app is on.
    public let phone: SimulatedPhone
    /// The app's name on that phone.
    public let app: String
    let simulation: Simulation?
    private let lock = NSLock()
    private weak var storedDelegate: (any UNUserNotificationCenterDelegate)?
    /// The run of the app that set the delegate: a later run's centre has none until it sets one.
    private var delegateRun = 0
    /// The objects of the app's requests, by identifier, so that lists return what was added.
    private var requests: [String: UNNotificationRequest] = [:]
    /// Taps waiting for a delegate (the app launched by a tap sets it in its launch).
    private var responses: [DeliveredNotification] = []
    private let regions: NotificationRegionWatcher

    init(phone: SimulatedPhone, app: String) {
        self.phone = phone
        self.app = app
        simulation = Simulation.current
        regions = NotificationRegionWatcher(phone: phone, app: app)
        super.init()
        phone.attachNotifications(of: app, NotificationHandlers(
            present: { [weak self] notification, completion in
                guard let self else { return completion(.foreground(banner: false, list: false, sound: false)) }
                self.present(notification, completion)
            },
            respond: { [weak self] notification, launched in self?.respond(notification, launched: launched) }))
    }

    /// The app's centre: the one of the app whose launch entry point is running, else the
    /// one last asked for in a launch in this simulation, else a centre of its own phone.
    open class func current() -> UNUserNotificationCenter {
        CenterRegistry.shared.current()
    }

    /// The centre of the app named `app` on `phone` (SwiftBLE; not in UserNotifications):
    /// for a test or a scenario runner that acts outside the app's code.
    public class func center(for app: String, on phone: SimulatedPhone) -> UNUserNotificationCenter {
        CenterRegistry.shared.center(phone: phone, app: app)
    }

    /// How the phone's region monitoring for location triggers listens (SwiftBLE; not in
    /// UserNotifications): by default `$SWIFTBLE_HCI`, else `sim`, with a 30 s exit period.
    /// Set it before adding a request with a ``UNLocationNotificationTrigger``.
    public var regionMonitoringOptions: CLLocationManager.Options {
        get { regions.options }
        set { regions.options = newValue }
    }

    /// Stops the region monitoring of the location triggers (SwiftBLE; not in
    /// UserNotifications): the end of a test or a run. Their requests stay pending.
    public func stopRegionMonitoring() {
        regions.stop()
    }

    /// Who hears of notifications in the foreground and of the user's taps; held weakly,
    /// called on the main queue.
    ///
    /// The delegate belongs to the run of the app that set it: after the app ends, a new run
    /// (a launch or a relaunch) has none until its code sets one, as a new process has none.
    open var delegate: (any UNUserNotificationCenterDelegate)? {
        get {
            let run = phone.launchCount(of: app)
            return lock.withLock { delegateRun == run ? storedDelegate : nil }
        }
        set {
            let run = phone.launchCount(of: app)
            let waiting = lock.withLock { () -> Bool in
                storedDelegate = newValue
                delegateRun = run
                return !responses.isEmpty
            }
            if waiting { deliverResponses() }
        }
    }

    // MARK: Authorization

    /// Asks the user for permission to post (`requestAuthorization(options:completionHandler:)`):
    /// the phone's user answers as the phone says (allow by default,
    /// `SimulatedPhone.setNotificationAnswer(_:for:)`); asked again once answered, nothing is
    /// asked and `granted` says whether the app may post. `.provisional` grants provisional
    /// authorization without asking. The handler runs on the main queue.
    open func requestAuthorization(options: UNAuthorizationOptions = [],
                                   completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let granted = phone.requestNotificationAuthorization(for: app, provisional: options.contains(.provisional))
        onMain { completionHandler(granted, nil) }
    }

    /// Asks the user for permission to post; returns whether the app may.
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        phone.requestNotificationAuthorization(for: app, provisional: options.contains(.provisional))
    }

    /// The app's notification settings, on the main queue (`getNotificationSettings(completionHandler:)`).
    open func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        let status = authorizationStatus
        onMain { completionHandler(UNNotificationSettings(authorizationStatus: status)) }
    }

    /// The app's notification settings.
    open func notificationSettings() async -> UNNotificationSettings {
        UNNotificationSettings(authorizationStatus: authorizationStatus)
    }

    private var authorizationStatus: UNAuthorizationStatus {
        switch phone.notificationAuthorization(of: app) {
        case .notDetermined: .notDetermined
        case .denied: .denied
        case .authorized: .authorized
        case .provisional: .provisional
        case .ephemeral: .ephemeral
        }
    }

    // MARK: Scheduling

    /// Schedules `request` (`add(_:withCompletionHandler:)`), replacing a pending one with
    /// its identifier; the handler runs on the main queue with `nil` or a ``UNError``:
    /// ``UNError/Code/notificationsNotAllowed`` without authorization,
    /// ``UNError/Code/notificationInvalidNoDate`` for a time interval of 0 or less or a
    /// repeating one under 60 s (where Apple's framework raises an exception).
    open func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        let error = schedule(request)
        if let completionHandler { onMain { completionHandler(error) } }
    }

    /// Schedules `request`.
    /// - Throws: ``UNError`` as ``add(_:withCompletionHandler:)`` says.
    open func add(_ request: UNNotificationRequest) async throws {
        if let error = schedule(request) { throw error }
    }

    private func schedule(_ request: UNNotificationRequest) -> UNError? {
        let trigger: LocalNotificationTriggerValue
        do throws(UNError) {
            trigger = try request.trigger?.phoneTrigger() ?? .immediate
        } catch {
            return error
        }
        let content = request.content
        var value = LocalNotification(app: app, identifier: request.identifier, title: content.title, subtitle: content.subtitle,
                                      body: content.body, badge: content.badge?.intValue, sound: content.sound != nil,
                                      categoryIdentifier: content.categoryIdentifier, threadIdentifier: content.threadIdentifier)
        switch trigger {
        case .immediate: value.trigger = .immediate
        case let .timeInterval(microseconds, repeats): value.trigger = .timeInterval(microseconds: microseconds, repeats: repeats)
        case let .calendar(components, repeats): value.trigger = .calendar(components, repeats: repeats)
        case let .region(region, repeats):
            value.trigger = .region(region.identifier, onEntry: region.notifyOnEntry, onExit: region.notifyOnExit, repeats: repeats)
        }
        lock.withLock { requests[request.identifier] = request }
        do throws(LocalNotificationError) {
            try phone.addNotification(value)
        } catch {
            switch error {
            case .notificationsNotAllowed: return UNError(.notificationsNotAllowed, reason: error.description)
            case .invalidTimeInterval, .noNextDate: return UNError(.notificationInvalidNoDate, reason: error.description)
            }
        }
        if case let .region(region, _) = trigger { regions.monitor(region) }
        return nil
    }

    // MARK: Pending and delivered

    /// The requests waiting for their trigger, on the main queue (`getPendingNotificationRequests`).
    open func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        let pending = pendingRequests()
        onMain { completionHandler(pending) }
    }

    /// The requests waiting for their trigger.
    open func pendingNotificationRequests() async -> [UNNotificationRequest] {
        pendingRequests()
    }

    /// The app's notifications in the notification centre, on the main queue (`getDeliveredNotifications`).
    open func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        let delivered = deliveredList()
        onMain { completionHandler(delivered) }
    }

    /// The app's notifications in the notification centre.
    open func deliveredNotifications() async -> [UNNotification] {
        deliveredList()
    }

    /// Unschedules the pending requests with these identifiers.
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        phone.removePendingNotifications(identifiers, of: app)
    }

    /// Unschedules every pending request of the app.
    open func removeAllPendingNotificationRequests() {
        phone.removePendingNotifications(nil, of: app)
    }

    /// Removes the delivered notifications with these identifiers from the notification centre.
    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        phone.removeDeliveredNotifications(identifiers, of: app)
    }

    /// Removes every delivered notification of the app from the notification centre.
    open func removeAllDeliveredNotifications() {
        phone.removeDeliveredNotifications(nil, of: app)
    }

    private func pendingRequests() -> [UNNotificationRequest] {
        phone.pendingNotifications(of: app).map(object)
    }

    private func deliveredList() -> [UNNotification] {
        phone.deliveredNotifications(of: app).map(notification)
    }

    // MARK: The phone's calls

    /// The object of `value`: the request added, or one made from the phone's values.
    private func object(_ value: LocalNotification) -> UNNotificationRequest {
        if let kept = lock.withLock({ requests[value.identifier] }), kept.content.title == value.title, kept.content.body == value.body {
            return kept
        }
        let content = UNMutableNotificationContent()
        content.title = value.title
        content.subtitle = value.subtitle
        content.body = value.body
        content.badge = value.badge.map { NSNumber(value: $0) }
        content.sound = value.sound ? .default : nil
        content.categoryIdentifier = value.categoryIdentifier
        content.threadIdentifier = value.threadIdentifier
        return UNNotificationRequest(identifier: value.identifier, content: content, trigger: nil)
    }

    private func notification(_ delivered: DeliveredNotification) -> UNNotification {
        UNNotification(request: object(delivered.request), date: date(at: delivered.time))
    }

    /// The date of `time` on the phone's clock: virtual time counts from 1 January 2026.
    private func date(at time: Int64) -> Date {
        phone.notificationDate(at: time)
    }

    /// The app is in the foreground: its delegate decides (nothing shown without one).
    private func present(_ delivered: DeliveredNotification, _ completion: @escaping @Sendable (NotificationPresentation) -> Void) {
        let notification = notification(delivered)
        onMain { [self] in
            guard let delegate else { return completion(.foreground(banner: false, list: false, sound: false)) }
            delegate.userNotificationCenter(self, willPresent: notification) { options in
                completion(.foreground(banner: !options.isDisjoint(with: [.banner, .alert]),
                                       list: !options.isDisjoint(with: [.list, .alert]), sound: options.contains(.sound)))
            }
        }
    }

    /// The user tapped: the delegate hears it once the app's run has one (an app the tap
    /// launched sets it in its launch).
    private func respond(_ delivered: DeliveredNotification, launched: Bool) {
        lock.withLock { responses.append(delivered) }
        deliverResponses()
    }

    private func deliverResponses() {
        onMain { [self] in
            let run = phone.launchCount(of: app)
            let (delegate, taken) = lock.withLock { () -> ((any UNUserNotificationCenterDelegate)?, [DeliveredNotification]) in
                guard delegateRun == run, let delegate = storedDelegate else { return (nil, []) }
                defer { responses = [] }
                return (delegate, responses)
            }
            guard let delegate else { return }
            for delivered in taken {
                let response = UNNotificationResponse(notification: notification(delivered), actionIdentifier: UNNotificationDefaultActionIdentifier)
                delegate.userNotificationCenter(self, didReceive: response) {}
            }
        }
    }

    /// Runs `work` on the main queue, in the simulation when there is one.
    func onMain(_ work: @escaping @Sendable () -> Void) {
        if let simulation {
            simulation.dispatch(to: .main, work)
        } else {
            DispatchQueue.main.async(execute: work)
        }
    }
}
