/// A change to a phone's notifications, as a scenario scripts it: what the phone's
/// Notification Center holds, and what a phone serving Apple's Notification Center Service
/// publishes to an accessory (`notification: {device: iPhone, do: add, id: call, …}`).
///
/// The world knows no ANCS: the category stays a name here, and the phone that carries the
/// action out refuses names that are no category.
public struct ScenarioNotification: Hashable, Sendable {
    /// What happens to the notification.
    public enum Change: String, Hashable, Sendable, CaseIterable {
        /// It is posted.
        case add
        /// Its content changes.
        case modify
        /// It goes away (read, answered, dismissed).
        case remove
    }

    /// What happens.
    public var change: Change
    /// The scenario's name for the notification, by which later actions change it.
    public var id: String
    /// The ANCS category by name (`incomingCall`, `missedCall`, `social`, …), for add and modify.
    public var category: String?
    /// The posting app's bundle identifier (e.g. `com.apple.mobilephone`).
    public var app: String?
    /// Its title, subtitle and message.
    public var title: String, subtitle: String, message: String
    /// The labels of its positive and negative actions (`Answer`, `Decline`), if it has them.
    public var positiveAction: String?, negativeAction: String?

    /// A change with every field.
    public init(change: Change, id: String, category: String? = nil, app: String? = nil, title: String = "", subtitle: String = "",
                message: String = "", positiveAction: String? = nil, negativeAction: String? = nil) {
        self.change = change
        self.id = id
        self.category = category
        self.app = app
        self.title = title
        self.subtitle = subtitle
        self.message = message
        self.positiveAction = positiveAction
        self.negativeAction = negativeAction
    }
}

/// `notification: {device, do, id, category, app, title, subtitle, message, positiveAction, negativeAction}`.
struct NotificationSection: Decodable {
    var device: String
    var notification: ScenarioNotification

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "do", "id", "category", "app", "title", "subtitle", "message",
                                                       "positiveAction", "negativeAction"])
        device = try fields.required("device", String.self, expected: "the phone's name")
        let verb = try fields.required("do", String.self, expected: "add, modify or remove")
        guard let change = ScenarioNotification.Change(rawValue: verb) else {
            throw fields.error("do", "\"\(verb)\" is not a notification change; use add, modify or remove")
        }
        let id = try fields.required("id", String.self, expected: "the notification's name in this scenario")
        var notification = ScenarioNotification(change: change, id: id)
        if change != .remove {
            notification.category = try fields.required("category", String.self, expected: "an ANCS category, e.g. incomingCall")
            notification.app = try fields.required("app", String.self, expected: "the posting app's bundle identifier")
            notification.title = try fields.optional("title", String.self, expected: "a title") ?? ""
            notification.subtitle = try fields.optional("subtitle", String.self, expected: "a subtitle") ?? ""
            notification.message = try fields.optional("message", String.self, expected: "a message") ?? ""
            notification.positiveAction = try fields.optional("positiveAction", String.self, expected: "an action label, e.g. Answer")
            notification.negativeAction = try fields.optional("negativeAction", String.self, expected: "an action label, e.g. Decline")
        } else if let extra = ["category", "app", "title", "subtitle", "message", "positiveAction", "negativeAction"].first(where: fields.has) {
            throw fields.error(extra, "a removal names only the notification (id)")
        }
        self.notification = notification
    }
}

extension Scenario {
    /// Each notification action's device is the phone the run's host attaches to (the first
    /// `host: external` device), and its `id` refers to a notification posted before it
    /// and not yet removed (adds to one still there are refused too).
    func validateNotifications() throws(ScenarioError) {
        let phone = devices.first { $0.host == .external }?.name
        var posted = Set<String>()
        let ordered = actions.enumerated().sorted { ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset) }
        for (index, timed) in ordered {
            guard case let .notification(device, note) = timed.action else { continue }
            guard device == phone else {
                throw ScenarioError(.invalidField, path: "actions[\(index)]", device: device,
                                    message: "notifications are the phone's: \"\(device)\" is not the first host: external device"
                                        + (phone.map { " (\"\($0)\")" } ?? " (the scenario has none)"))
            }
            switch note.change {
            case .add:
                guard posted.insert(note.id).inserted else {
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: device,
                                        message: "notification \"\(note.id)\" is posted already; give the new one another id")
                }
            case .modify, .remove:
                guard posted.contains(note.id) else {
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: device,
                                        message: "no notification \"\(note.id)\" is posted at \(timed.atSeconds) s to \(note.change.rawValue)")
                }
                if note.change == .remove { posted.remove(note.id) }
            }
        }
    }
}
