import BLEProfiles
import BLEWire

/// A notification as an ANCS accessory sees it: the Notification Source event and, for an
/// added or modified notification, its attributes fetched from the Data Source.
public struct ANCSNotification: Sendable, Hashable {
    /// The notification's UID within the session.
    public var uid: UInt32
    /// Added, modified or removed.
    public var event: ANCS.EventID
    /// Its flags (PreExisting for those present when the session began).
    public var flags: ANCS.EventFlags
    /// Its category.
    public var category: ANCS.CategoryID
    /// The notifications of that category on the phone.
    public var categoryCount: UInt8
    /// The posting app's bundle identifier (`nil` for a removal).
    public var appIdentifier: String?
    /// The posting app's display name, fetched once per app per session.
    public var appName: String?
    /// The title, cut to the consumer's maximum.
    public var title: String?
    /// The subtitle.
    public var subtitle: String?
    /// The message, cut to the consumer's maximum.
    public var message: String?
    /// `yyyyMMdd'T'HHmmSS`.
    public var date: String?
    /// The positive action's label, when the notification has one.
    public var positiveActionLabel: String?
    /// The negative action's label, when the notification has one.
    public var negativeActionLabel: String?

    init(_ event: ANCS.NotificationSourceEvent) {
        uid = event.notificationUID
        self.event = event.eventID
        flags = event.flags
        category = event.category
        categoryCount = event.categoryCount
    }
}

/// What an ``ANCSConsumer`` reports, in order.
public enum ANCSConsumerEvent: Sendable, Hashable {
    /// A phone connected and a session began (both sources subscribed).
    case sessionStarted(peer: BluetoothAddress)
    /// A notification was added, modified or removed.
    case notification(ANCSNotification)
    /// Something went wrong in the session, which goes on (e.g. a malformed Data Source
    /// response: the next command's response is read afresh).
    case failure(ANCSConsumerError)
    /// The session ended: the link went down. UIDs of the session are no longer valid.
    case sessionEnded
}

/// Why an ANCS consumer's request failed.
public enum ANCSConsumerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The phone answered the Control Point write with an ANCS error.
    case refused(ANCS.ErrorCode)
    /// The Data Source response did not match the command.
    case malformedResponse(ANCS.DataSourceError)
    /// A Notification Source notification was not 8 well-formed octets.
    case malformedNotificationSource(WireError)
    /// No complete response came within the consumer's limit.
    case timedOut
    /// No session is open.
    case noSession
    /// The phone has no ANCS service, or it lacks a characteristic.
    case serviceMissing(String)
    /// A link or GATT failure.
    case link(BLEError)

    /// One sentence.
    public var description: String {
        switch self {
        case let .refused(code): "the phone refused the command with ANCS error 0x\(String(code.rawValue, radix: 16, uppercase: true)) (\(code))"
        case let .malformedResponse(error): "\(error)"
        case let .malformedNotificationSource(error): "a malformed Notification Source notification: \(error)"
        case .timedOut: "no Data Source response came in time"
        case .noSession: "no phone is connected"
        case let .serviceMissing(what): "the phone does not serve ANCS: \(what)"
        case let .link(error): "\(error)"
        }
    }
}
