import Foundation

/// The error domain of ``CBError``.
public let CBErrorDomain = "CBErrorDomain"

/// A Core Bluetooth error (`CBError`): a ``Code`` in ``CBErrorDomain`` with Apple's raw
/// values. Matched as on Apple platforms: `(error as? CBError)?.code == .peripheralDisconnected`,
/// `catch CBError.connectionTimeout`, or `(error as NSError).code`.
public struct CBError: Error, Hashable, Sendable, CustomNSError, CustomStringConvertible {
    /// Core Bluetooth's error codes (`CBError.h`).
    public enum Code: Int, Sendable, Hashable {
        /// An unknown error.
        case unknown = 0
        /// A parameter was invalid.
        case invalidParameters = 1
        /// The attribute handle is invalid.
        case invalidHandle = 2
        /// The peripheral is not connected.
        case notConnected = 3
        /// No room left (e.g. for more services).
        case outOfSpace = 4
        /// The operation was cancelled.
        case operationCancelled = 5
        /// The link was lost: the supervision timeout passed (HCI Connection Timeout, 0x08,
        /// Core 5.4, Vol 1, Part F).
        case connectionTimeout = 6
        /// The peripheral ended the link.
        case peripheralDisconnected = 7
        /// The UUID may not be used (reserved by the system).
        case uuidNotAllowed = 8
        /// The peripheral manager is already advertising.
        case alreadyAdvertising = 9
        /// The connection failed.
        case connectionFailed = 10
        /// No more connections can be made.
        case connectionLimitReached = 11
        /// The device is unknown.
        case unknownDevice = 12
        /// The operation is not supported.
        case operationNotSupported = 13
        /// The peer removed its pairing information.
        case peerRemovedPairingInformation = 14
        /// Encryption timed out.
        case encryptionTimedOut = 15
        /// Too many LE devices are paired.
        case tooManyLEPairedDevices = 16
        /// A GATT background notification limit was exceeded (Apple-only).
        case leGattExceededBackgroundNotificationLimit = 17
        /// A GATT background notification limit is near (Apple-only).
        case leGattNearBackgroundNotificationLimit = 18
    }

    /// What failed.
    public let code: Code
    /// Why, in one sentence, when SwiftBLE knows (e.g. the front door's error); carried as
    /// the localized failure reason.
    public let reason: String?

    /// An error with `code` and, optionally, the reason behind it.
    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    /// ``CBErrorDomain``.
    public static var errorDomain: String { CBErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// What failed in one sentence under `NSLocalizedDescriptionKey`, so that
    /// `localizedDescription` says it as Core Bluetooth's does (Foundation's default read "The
    /// operation could not be completed."), and the reason, under
    /// `NSLocalizedFailureReasonErrorKey`, when there is one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: code.sentence + (reason.map { " " + $0 } ?? "")]
        if let reason { info[NSLocalizedFailureReasonErrorKey] = reason }
        return info
    }
    /// `CBErrorDomain error 7` and the reason.
    public var description: String { "\(CBErrorDomain) error \(code.rawValue)" + (reason.map { ": \($0)" } ?? "") }

    /// ``Code/unknown``, so `CBError.unknown` reads as on Apple platforms.
    public static var unknown: Code { .unknown }
    /// ``Code/invalidParameters``.
    public static var invalidParameters: Code { .invalidParameters }
    /// ``Code/invalidHandle``.
    public static var invalidHandle: Code { .invalidHandle }
    /// ``Code/notConnected``.
    public static var notConnected: Code { .notConnected }
    /// ``Code/outOfSpace``.
    public static var outOfSpace: Code { .outOfSpace }
    /// ``Code/operationCancelled``.
    public static var operationCancelled: Code { .operationCancelled }
    /// ``Code/connectionTimeout``.
    public static var connectionTimeout: Code { .connectionTimeout }
    /// ``Code/peripheralDisconnected``.
    public static var peripheralDisconnected: Code { .peripheralDisconnected }
    /// ``Code/uuidNotAllowed``.
    public static var uuidNotAllowed: Code { .uuidNotAllowed }
    /// ``Code/alreadyAdvertising``.
    public static var alreadyAdvertising: Code { .alreadyAdvertising }
    /// ``Code/connectionFailed``.
    public static var connectionFailed: Code { .connectionFailed }
    /// ``Code/connectionLimitReached``.
    public static var connectionLimitReached: Code { .connectionLimitReached }
    /// ``Code/unknownDevice``.
    public static var unknownDevice: Code { .unknownDevice }
    /// ``Code/operationNotSupported``.
    public static var operationNotSupported: Code { .operationNotSupported }
    /// ``Code/peerRemovedPairingInformation``.
    public static var peerRemovedPairingInformation: Code { .peerRemovedPairingInformation }
    /// ``Code/encryptionTimedOut``.
    public static var encryptionTimedOut: Code { .encryptionTimedOut }
    /// ``Code/tooManyLEPairedDevices``.
    public static var tooManyLEPairedDevices: Code { .tooManyLEPairedDevices }
}

extension CBError.Code {
    /// The code in one sentence of our own words, for ``CBError/errorUserInfo``.
    var sentence: String {
        switch self {
        case .unknown: "An unknown Bluetooth error occurred."
        case .invalidParameters: "A parameter was invalid."
        case .invalidHandle: "The attribute handle is invalid."
        case .notConnected: "The peripheral is not connected."
        case .outOfSpace: "There is no room left for the operation."
        case .operationCancelled: "The operation was cancelled."
        case .connectionTimeout: "The connection timed out: the peer was not heard for the supervision timeout."
        case .peripheralDisconnected: "The peripheral ended the connection."
        case .uuidNotAllowed: "The UUID may not be used for this operation."
        case .alreadyAdvertising: "The peripheral manager is already advertising."
        case .connectionFailed: "The connection failed."
        case .connectionLimitReached: "No more connections can be made."
        case .unknownDevice: "The device is unknown."
        case .operationNotSupported: "The operation is not supported."
        case .peerRemovedPairingInformation: "The peer removed its pairing information."
        case .encryptionTimedOut: "Encryption timed out."
        case .tooManyLEPairedDevices: "Too many LE devices are paired."
        case .leGattExceededBackgroundNotificationLimit: "The background notification limit was exceeded."
        case .leGattNearBackgroundNotificationLimit: "The background notification limit is near."
        }
    }

    /// Matches an error by code, as in `catch CBError.peripheralDisconnected`.
    public static func ~= (code: CBError.Code, error: any Error) -> Bool {
        (error as? CBError)?.code == code
    }
}
