extension ATT {
    /// The reason in an Error Response (Core 5.4, Vol 3, Part F, §3.4.1.1, Table 3.4) and
    /// the common profile and service error codes (Core Specification Supplement, Part B, §1.2).
    ///
    /// Decoding is total: 0x80–0x9F are left to the application as ``application(_:)``,
    /// and any other value the specifications do not list is kept as ``unlisted(_:)``, so
    /// a response from a newer peer still decodes and re-encodes unchanged.
    ///
    /// It is an `Error` so that an app's answer to a GATT server request can be a
    /// `Result<[UInt8], ATT.ErrorCode>`.
    public enum ErrorCode: Error, Hashable, Sendable, CustomStringConvertible {
        /// 0x01: the handle is not valid on this server.
        case invalidHandle
        /// 0x02: the attribute cannot be read.
        case readNotPermitted
        /// 0x03: the attribute cannot be written.
        case writeNotPermitted
        /// 0x04: the PDU was invalid.
        case invalidPDU
        /// 0x05: the attribute requires authentication.
        case insufficientAuthentication
        /// 0x06: the server does not support the request.
        case requestNotSupported
        /// 0x07: the offset is past the end of the attribute.
        case invalidOffset
        /// 0x08: the attribute requires authorization.
        case insufficientAuthorization
        /// 0x09: too many prepared writes are queued.
        case prepareQueueFull
        /// 0x0A: no attribute was found in the handle range.
        case attributeNotFound
        /// 0x0B: the attribute cannot be read with Read Blob.
        case attributeNotLong
        /// 0x0C: the encryption key is too short.
        case encryptionKeySizeTooShort
        /// 0x0D: the value's length is not allowed.
        case invalidAttributeValueLength
        /// 0x0E: the request failed for an unlikely reason.
        case unlikelyError
        /// 0x0F: the attribute requires encryption.
        case insufficientEncryption
        /// 0x10: the attribute type is not a grouping attribute.
        case unsupportedGroupType
        /// 0x11: the server lacks resources to complete the request.
        case insufficientResources
        /// 0x12: the server requests the client to rediscover the database.
        case databaseOutOfSync
        /// 0x13: the value is not allowed.
        case valueNotAllowed
        /// 0xFC (CSS Part B §1.2): a write request was rejected.
        case writeRequestRejected
        /// 0xFD (CSS Part B §1.2): a Client Characteristic Configuration descriptor is
        /// not configured as the procedure needs.
        case clientCharacteristicConfigurationDescriptorImproperlyConfigured
        /// 0xFE (CSS Part B §1.2): a procedure is already in progress.
        case procedureAlreadyInProgress
        /// 0xFF (CSS Part B §1.2): the value is out of range.
        case outOfRange
        /// 0x80–0x9F: defined by a higher-layer specification or application.
        case application(UInt8)
        /// Any other value (reserved at the time of writing), kept so nothing is lost.
        case unlisted(UInt8)

        private static let named: [(ErrorCode, UInt8, String)] = [
            (.invalidHandle, 0x01, "Invalid Handle"),
            (.readNotPermitted, 0x02, "Read Not Permitted"),
            (.writeNotPermitted, 0x03, "Write Not Permitted"),
            (.invalidPDU, 0x04, "Invalid PDU"),
            (.insufficientAuthentication, 0x05, "Insufficient Authentication"),
            (.requestNotSupported, 0x06, "Request Not Supported"),
            (.invalidOffset, 0x07, "Invalid Offset"),
            (.insufficientAuthorization, 0x08, "Insufficient Authorization"),
            (.prepareQueueFull, 0x09, "Prepare Queue Full"),
            (.attributeNotFound, 0x0A, "Attribute Not Found"),
            (.attributeNotLong, 0x0B, "Attribute Not Long"),
            (.encryptionKeySizeTooShort, 0x0C, "Encryption Key Size Too Short"),
            (.invalidAttributeValueLength, 0x0D, "Invalid Attribute Value Length"),
            (.unlikelyError, 0x0E, "Unlikely Error"),
            (.insufficientEncryption, 0x0F, "Insufficient Encryption"),
            (.unsupportedGroupType, 0x10, "Unsupported Group Type"),
            (.insufficientResources, 0x11, "Insufficient Resources"),
            (.databaseOutOfSync, 0x12, "Database Out Of Sync"),
            (.valueNotAllowed, 0x13, "Value Not Allowed"),
            (.writeRequestRejected, 0xFC, "Write Request Rejected"),
            (.clientCharacteristicConfigurationDescriptorImproperlyConfigured, 0xFD,
             "Client Characteristic Configuration Descriptor Improperly Configured"),
            (.procedureAlreadyInProgress, 0xFE, "Procedure Already in Progress"),
            (.outOfRange, 0xFF, "Out of Range"),
        ]

        /// The code for an octet; every octet maps to exactly one case.
        public init(rawValue: UInt8) {
            switch rawValue {
            case 0x01 ... 0x13:
                self = ErrorCode.named[Int(rawValue) - 1].0
            case 0x80 ... 0x9F:
                self = .application(rawValue)
            case 0xFC ... 0xFF:
                self = ErrorCode.named[Int(rawValue) - 0xFC + 0x13].0
            default:
                self = .unlisted(rawValue)
            }
        }

        /// The octet sent on the wire.
        public var rawValue: UInt8 {
            switch self {
            case let .application(code), let .unlisted(code): return code
            default:
                for (code, raw, _) in ErrorCode.named where code == self { return raw }
                return 0
            }
        }

        /// The specification's name, e.g. "Attribute Not Found".
        public var name: String {
            switch self {
            case let .application(code): return "Application Error 0x" + String(code, radix: 16, uppercase: true)
            case let .unlisted(code): return "Reserved 0x" + String(code, radix: 16, uppercase: true)
            default:
                for (code, _, text) in ErrorCode.named where code == self { return text }
                return ""
            }
        }

        /// The name followed by the code, e.g. "Attribute Not Found (0x0A)".
        public var description: String {
            let text = String(rawValue, radix: 16, uppercase: true)
            return name + " (0x" + (text.count < 2 ? "0" : "") + text + ")"
        }
    }
}
