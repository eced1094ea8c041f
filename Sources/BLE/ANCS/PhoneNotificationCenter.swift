import BLEProfiles
import Foundation
import Synchronization

/// One notification as a phone holds it: what ANCS serves about it.
public struct PhoneNotification: Sendable, Hashable {
    /// Its category.
    public var category: ANCS.CategoryID
    /// The posting app's bundle identifier.
    public var appIdentifier: String
    /// The title.
    public var title: String
    /// The subtitle (often empty).
    public var subtitle: String
    /// The message.
    public var message: String
    /// When it was posted, `yyyyMMdd'T'HHmmSS` (ANCS Specification, "Date").
    public var date: String
    /// Whether it makes no sound.
    public var isSilent: Bool
    /// Whether it is important.
    public var isImportant: Bool
    /// The positive action's label (e.g. "Answer"), if it has one.
    public var positiveActionLabel: String?
    /// The negative action's label (e.g. "Decline"), if it has one.
    public var negativeActionLabel: String?

    /// A notification; by default not silent, not important, without actions.
    public init(category: ANCS.CategoryID, appIdentifier: String, title: String, subtitle: String = "", message: String = "",
                date: String = "20260101T000000", isSilent: Bool = false, isImportant: Bool = false,
                positiveActionLabel: String? = nil, negativeActionLabel: String? = nil) {
        self.category = category
        self.appIdentifier = appIdentifier
        self.title = title
        self.subtitle = subtitle
        self.message = message
        self.date = date
        self.isSilent = isSilent
        self.isImportant = isImportant
        self.positiveActionLabel = positiveActionLabel
        self.negativeActionLabel = negativeActionLabel
    }

    /// The event flags it is announced with (PreExisting is added for a session's replay).
    var flags: ANCS.EventFlags {
        var flags: ANCS.EventFlags = []
        if isSilent { flags.insert(.silent) }
        if isImportant { flags.insert(.important) }
        if positiveActionLabel != nil { flags.insert(.positiveAction) }
        if negativeActionLabel != nil { flags.insert(.negativeAction) }
        return flags
    }

    /// The value of `attribute`, cut to `maximum` octets when given.
    func value(of attribute: ANCS.NotificationAttributeID, maximum: UInt16?) -> [UInt8] {
        let text: String
        switch attribute {
        case .appIdentifier: text = appIdentifier
        case .title: text = title
        case .subtitle: text = subtitle
        case .message: text = message
        case .messageSize: text = String(message.utf8.count)
        case .date: text = date
        case .positiveActionLabel: text = positiveActionLabel ?? ""
        case .negativeActionLabel: text = negativeActionLabel ?? ""
        }
        return maximum.map { ANCS.truncated(text, toOctets: Int($0)) } ?? Array(text.utf8)
    }
}

/// A phone's notifications — added, modified, removed — and the names of the apps that post
/// them: what an ``ANCSProvider`` serves. Changes reach every open ANCS session in order.
public final class PhoneNotificationCenter: Sendable {
    /// A change, as ANCS announces it.
    public enum Change: Sendable, Hashable {
        /// A new notification with its UID.
        case added(UInt32, PhoneNotification)
        /// A notification changed.
        case modified(UInt32, PhoneNotification)
        /// A notification went away.
        case removed(UInt32, PhoneNotification)
    }

    /// An action a consumer performed on a notification (Perform Notification Action).
    public struct PerformedAction: Sendable, Hashable {
        /// The notification's UID.
        public var notificationUID: UInt32
        /// The notification acted on.
        public var notification: PhoneNotification
        /// Positive or negative.
        public var action: ANCS.ActionID
    }

    private struct State {
        var notifications: [(uid: UInt32, notification: PhoneNotification)] = []
        var nextUID: UInt32 = 1
        var appNames: [String: String] = [:]
        var observers: [UInt64: AsyncStream<Change>.Continuation] = [:]
        var nextObserver: UInt64 = 0
    }

    private let state = Mutex(State())
    private let actionsContinuation: AsyncStream<PerformedAction>.Continuation
    /// The actions consumers performed, in order. One reader.
    public let actions: AsyncStream<PerformedAction>

    /// An empty notification center.
    public init() {
        (actions, actionsContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Posts `notification`; returns its UID.
    @discardableResult
    public func add(_ notification: PhoneNotification) -> UInt32 {
        state.withLock { state in
            let uid = state.nextUID
            state.nextUID &+= 1
            state.notifications.append((uid, notification))
            for observer in state.observers.values { observer.yield(.added(uid, notification)) }
            return uid
        }
    }

    /// Replaces the notification with `uid`; `false` if there is none.
    @discardableResult
    public func modify(_ uid: UInt32, to notification: PhoneNotification) -> Bool {
        state.withLock { state in
            guard let index = state.notifications.firstIndex(where: { $0.uid == uid }) else { return false }
            state.notifications[index].notification = notification
            for observer in state.observers.values { observer.yield(.modified(uid, notification)) }
            return true
        }
    }

    /// Removes the notification with `uid`; `false` if there is none.
    @discardableResult
    public func remove(_ uid: UInt32) -> Bool {
        state.withLock { state in
            guard let index = state.notifications.firstIndex(where: { $0.uid == uid }) else { return false }
            let notification = state.notifications.remove(at: index).notification
            for observer in state.observers.values { observer.yield(.removed(uid, notification)) }
            return true
        }
    }

    /// Sets the display name of the app with `appIdentifier` (Get App Attributes).
    public func setAppName(_ name: String, for appIdentifier: String) {
        state.withLock { $0.appNames[appIdentifier] = name }
    }

    /// The notification with `uid`, if present.
    public func notification(_ uid: UInt32) -> PhoneNotification? {
        state.withLock { state in state.notifications.first { $0.uid == uid }?.notification }
    }

    /// The display name of `appIdentifier`: the one set, else `nil`.
    public func appName(for appIdentifier: String) -> String? {
        state.withLock { $0.appNames[appIdentifier] }
    }

    /// The notifications present, oldest first.
    public var notifications: [(uid: UInt32, notification: PhoneNotification)] {
        state.withLock { $0.notifications }
    }

    /// How many notifications of `category` are present.
    public func count(of category: ANCS.CategoryID) -> Int {
        state.withLock { state in state.notifications.count { $0.notification.category == category } }
    }

    /// The notifications present and the changes after them, taken together so none is
    /// missed or seen twice; ``stopObserving(_:)`` ends the changes.
    func observe() -> (existing: [(uid: UInt32, notification: PhoneNotification)], changes: AsyncStream<Change>, id: UInt64) {
        let (changes, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
        return state.withLock { state in
            let id = state.nextObserver
            state.nextObserver += 1
            state.observers[id] = continuation
            return (state.notifications, changes, id)
        }
    }

    func stopObserving(_ id: UInt64) {
        let continuation = state.withLock { $0.observers.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// Records an action a consumer performed.
    func performed(_ action: PerformedAction) {
        actionsContinuation.yield(action)
    }
}
