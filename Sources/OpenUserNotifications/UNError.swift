/// UserNotifications' error domain.
public let UNErrorDomain = "UNErrorDomain"

/// An error of UserNotifications (`UNError`,
/// https://developer.apple.com/documentation/usernotifications/unerror): its ``code`` and
/// a sentence saying what went wrong.
public struct UNError: Error, Sendable, Hashable, CustomStringConvertible, CustomNSError {
    /// Apple's codes (`UNError.Code`), with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        /// The app may not post notifications: not authorized, or refused by the user.
        case notificationsNotAllowed = 1
        /// An attachment's file URL is invalid.
        case attachmentInvalidURL = 100
        /// An attachment's type is not supported.
        case attachmentUnrecognizedType = 101
        /// An attachment's file is too large.
        case attachmentInvalidFileSize = 102
        /// An attachment's file is not readable.
        case attachmentNotInDataStore = 103
        /// Moving an attachment into the data store failed.
        case attachmentMoveIntoDataStoreFailed = 104
        /// An attachment's file is corrupt.
        case attachmentCorrupt = 105
        /// The trigger has no next date: here, a time interval of 0 or less, or a repeating
        /// one under 60 s (Apple raises an exception when such a trigger is made; SwiftBLE
        /// refuses the request when it is added instead).
        case notificationInvalidNoDate = 1400
        /// The notification has no content.
        case notificationInvalidNoContent = 1401
        /// The content providing extension is not available.
        case contentProvidingObjectNotAllowed = 1500
        /// The content providing extension refused.
        case contentProvidingInvalid = 1501
        /// A badge count is invalid.
        case badgeInputInvalid = 1600
    }

    /// What went wrong.
    public let code: Code
    /// Why, in a sentence.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// `UNErrorDomain`.
    public static var errorDomain: String { UNErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The reason as `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }

    /// "UNErrorDomain 1: …".
    public var description: String { "\(UNErrorDomain) \(code.rawValue): \(reason)" }

    /// Error codes are compared by ``code`` (`error.code == .notificationsNotAllowed`).
    public static let notificationsNotAllowed = Code.notificationsNotAllowed
    /// See ``Code/notificationInvalidNoDate``.
    public static let notificationInvalidNoDate = Code.notificationInvalidNoDate
}

extension UNError.Code {
    /// Whether `error` is a ``UNError`` with this code, so that `catch UNError.notificationsNotAllowed`
    /// matches as it does with Apple's bridged errors.
    public static func ~= (code: UNError.Code, error: any Error) -> Bool {
        (error as? UNError)?.code == code
    }
}
