import BLE
import Foundation

/// The error domain of ``CBATTError``.
public let CBATTErrorDomain = "CBATTErrorDomain"

/// An ATT error (Core Bluetooth's `CBATTError`): the Error Code of an ATT Error Response
/// (Core 5.4, Vol 3, Part F, §3.4.1.1, Table 3.4) in ``CBATTErrorDomain``, with the same
/// raw values. A peer's error reaches `CBPeripheralDelegate` as one of these; a peripheral
/// manager answers a request with one.
public struct CBATTError: Error, Hashable, Sendable, CustomNSError, CustomStringConvertible {
    /// The ATT error codes Core Bluetooth names (`CBError.h`).
    public enum Code: Int, Sendable, Hashable {
        /// No error (used with `respond(to:withResult:)`).
        case success = 0x00
        /// The handle is invalid.
        case invalidHandle = 0x01
        /// The value cannot be read.
        case readNotPermitted = 0x02
        /// The value cannot be written.
        case writeNotPermitted = 0x03
        /// The PDU was invalid.
        case invalidPdu = 0x04
        /// Authentication is needed first.
        case insufficientAuthentication = 0x05
        /// The server does not support the request.
        case requestNotSupported = 0x06
        /// The offset is past the value's end.
        case invalidOffset = 0x07
        /// Authorization is needed first.
        case insufficientAuthorization = 0x08
        /// Too many prepared writes are queued.
        case prepareQueueFull = 0x09
        /// No attribute in the range.
        case attributeNotFound = 0x0A
        /// The attribute cannot be read or written with Read Blob / Prepare Write.
        case attributeNotLong = 0x0B
        /// The encryption key is too short.
        case insufficientEncryptionKeySize = 0x0C
        /// The value has the wrong length.
        case invalidAttributeValueLength = 0x0D
        /// The request failed unexpectedly.
        case unlikelyError = 0x0E
        /// Encryption is needed first.
        case insufficientEncryption = 0x0F
        /// The grouping attribute type is not supported.
        case unsupportedGroupType = 0x10
        /// The server lacks resources.
        case insufficientResources = 0x11
    }

    /// What failed.
    public let code: Code
    /// Why, in one sentence, when SwiftBLE knows; carried as the localized failure reason.
    public let reason: String?

    /// The ATT Error Code as sent: ``code``'s raw value, or the peer's own code when Core
    /// Bluetooth has no name for it (then ``code`` is ``Code/unlikelyError``).
    let rawCode: Int

    /// An error with `code` and, optionally, the reason behind it.
    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
        rawCode = code.rawValue
    }

    /// ``CBATTErrorDomain``.
    public static var errorDomain: String { CBATTErrorDomain }
    /// The ATT Error Code, as `(error as NSError).code` gives it on Apple platforms (also
    /// for codes Core Bluetooth does not name, e.g. application errors 0x80–0x9F).
    public var errorCode: Int { rawCode }
    /// The reason, under `NSLocalizedFailureReasonErrorKey`, when there is one.
    public var errorUserInfo: [String: Any] { reason.map { [NSLocalizedFailureReasonErrorKey: $0] } ?? [:] }
    /// `CBATTErrorDomain error 2` and the reason.
    public var description: String { "\(CBATTErrorDomain) error \(rawCode)" + (reason.map { ": \($0)" } ?? "") }

    /// ``Code/success``, so `CBATTError.success` reads as on Apple platforms.
    public static var success: Code { .success }
    /// ``Code/invalidHandle``.
    public static var invalidHandle: Code { .invalidHandle }
    /// ``Code/readNotPermitted``.
    public static var readNotPermitted: Code { .readNotPermitted }
    /// ``Code/writeNotPermitted``.
    public static var writeNotPermitted: Code { .writeNotPermitted }
    /// ``Code/invalidPdu``.
    public static var invalidPdu: Code { .invalidPdu }
    /// ``Code/insufficientAuthentication``.
    public static var insufficientAuthentication: Code { .insufficientAuthentication }
    /// ``Code/requestNotSupported``.
    public static var requestNotSupported: Code { .requestNotSupported }
    /// ``Code/invalidOffset``.
    public static var invalidOffset: Code { .invalidOffset }
    /// ``Code/insufficientAuthorization``.
    public static var insufficientAuthorization: Code { .insufficientAuthorization }
    /// ``Code/prepareQueueFull``.
    public static var prepareQueueFull: Code { .prepareQueueFull }
    /// ``Code/attributeNotFound``.
    public static var attributeNotFound: Code { .attributeNotFound }
    /// ``Code/attributeNotLong``.
    public static var attributeNotLong: Code { .attributeNotLong }
    /// ``Code/insufficientEncryptionKeySize``.
    public static var insufficientEncryptionKeySize: Code { .insufficientEncryptionKeySize }
    /// ``Code/invalidAttributeValueLength``.
    public static var invalidAttributeValueLength: Code { .invalidAttributeValueLength }
    /// ``Code/unlikelyError``.
    public static var unlikelyError: Code { .unlikelyError }
    /// ``Code/insufficientEncryption``.
    public static var insufficientEncryption: Code { .insufficientEncryption }
    /// ``Code/unsupportedGroupType``.
    public static var unsupportedGroupType: Code { .unsupportedGroupType }
    /// ``Code/insufficientResources``.
    public static var insufficientResources: Code { .insufficientResources }
}

extension CBATTError.Code {
    /// Matches an error by code, as in `catch CBATTError.readNotPermitted`.
    public static func ~= (code: CBATTError.Code, error: any Error) -> Bool {
        (error as? CBATTError)?.code == code
    }
}

extension CBATTError {
    /// The Core Bluetooth form of an ATT Error Code a peer answered: the same raw value;
    /// codes Core Bluetooth does not name (application errors 0x80–0x9F, profile errors,
    /// Vol 3, Part F, §3.4.1.1) become ``Code/unlikelyError`` with the peer's code kept as ``errorCode``.
    init(_ attCode: ATT.ErrorCode) {
        if let code = Code(rawValue: Int(attCode.rawValue)), code != .success {
            self.init(code, reason: attCode.description)
        } else {
            self.init(code: .unlikelyError, reason: attCode.description, rawCode: Int(attCode.rawValue))
        }
    }

    private init(code: Code, reason: String?, rawCode: Int) {
        self.code = code
        self.reason = reason
        self.rawCode = rawCode
    }
}
