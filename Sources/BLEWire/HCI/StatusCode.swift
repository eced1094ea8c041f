extension HCI {
    /// Controller error codes (Core 5.4, Vol 1, Part F, §1.3), returned in Status fields and
    /// used as disconnection reasons. Decoding is total: a code the specification does not
    /// list is kept as ``unlisted(_:)``.
    public enum StatusCode: Hashable, Sendable, CustomStringConvertible {
        case success
        case unknownHCICommand
        case unknownConnectionIdentifier
        case hardwareFailure
        case pageTimeout
        case authenticationFailure
        case pinOrKeyMissing
        case memoryCapacityExceeded
        case connectionTimeout
        case connectionLimitExceeded
        case synchronousConnectionLimitExceeded
        case connectionAlreadyExists
        case commandDisallowed
        case connectionRejectedLimitedResources
        case connectionRejectedSecurityReasons
        case connectionRejectedUnacceptableBDADDR
        case connectionAcceptTimeoutExceeded
        case unsupportedFeatureOrParameterValue
        case invalidHCICommandParameters
        case remoteUserTerminatedConnection
        case remoteDeviceTerminatedConnectionLowResources
        case remoteDeviceTerminatedConnectionPowerOff
        case connectionTerminatedByLocalHost
        case repeatedAttempts
        case pairingNotAllowed
        case unknownLMPPDU
        case unsupportedRemoteFeature
        case scoOffsetRejected
        case scoIntervalRejected
        case scoAirModeRejected
        case invalidLMPOrLLParameters
        case unspecifiedError
        case unsupportedLMPOrLLParameterValue
        case roleChangeNotAllowed
        case lmpOrLLResponseTimeout
        case lmpErrorTransactionCollision
        case lmpPDUNotAllowed
        case encryptionModeNotAcceptable
        case linkKeyCannotBeChanged
        case requestedQoSNotSupported
        case instantPassed
        case pairingWithUnitKeyNotSupported
        case differentTransactionCollision
        case qosUnacceptableParameter
        case qosRejected
        case channelClassificationNotSupported
        case insufficientSecurity
        case parameterOutOfMandatoryRange
        case roleSwitchPending
        case reservedSlotViolation
        case roleSwitchFailed
        case extendedInquiryResponseTooLarge
        case secureSimplePairingNotSupportedByHost
        case hostBusyPairing
        case connectionRejectedNoSuitableChannelFound
        case controllerBusy
        case unacceptableConnectionParameters
        case advertisingTimeout
        case connectionTerminatedMICFailure
        case connectionFailedToBeEstablished
        case coarseClockAdjustmentRejected
        case type0SubmapNotDefined
        case unknownAdvertisingIdentifier
        case limitReached
        case operationCancelledByHost
        case packetTooLong
        case tooLate
        case tooEarly
        /// A value the specification does not list (kept so nothing is lost).
        case unlisted(UInt8)

        private static let table: [(StatusCode, UInt8, String)] = [
            (.success, 0x00, "Success"),
            (.unknownHCICommand, 0x01, "Unknown HCI Command"),
            (.unknownConnectionIdentifier, 0x02, "Unknown Connection Identifier"),
            (.hardwareFailure, 0x03, "Hardware Failure"),
            (.pageTimeout, 0x04, "Page Timeout"),
            (.authenticationFailure, 0x05, "Authentication Failure"),
            (.pinOrKeyMissing, 0x06, "PIN or Key Missing"),
            (.memoryCapacityExceeded, 0x07, "Memory Capacity Exceeded"),
            (.connectionTimeout, 0x08, "Connection Timeout"),
            (.connectionLimitExceeded, 0x09, "Connection Limit Exceeded"),
            (.synchronousConnectionLimitExceeded, 0x0A, "Synchronous Connection Limit To A Device Exceeded"),
            (.connectionAlreadyExists, 0x0B, "Connection Already Exists"),
            (.commandDisallowed, 0x0C, "Command Disallowed"),
            (.connectionRejectedLimitedResources, 0x0D, "Connection Rejected due to Limited Resources"),
            (.connectionRejectedSecurityReasons, 0x0E, "Connection Rejected due to Security Reasons"),
            (.connectionRejectedUnacceptableBDADDR, 0x0F, "Connection Rejected due to Unacceptable BD_ADDR"),
            (.connectionAcceptTimeoutExceeded, 0x10, "Connection Accept Timeout Exceeded"),
            (.unsupportedFeatureOrParameterValue, 0x11, "Unsupported Feature or Parameter Value"),
            (.invalidHCICommandParameters, 0x12, "Invalid HCI Command Parameters"),
            (.remoteUserTerminatedConnection, 0x13, "Remote User Terminated Connection"),
            (.remoteDeviceTerminatedConnectionLowResources, 0x14, "Remote Device Terminated Connection due to Low Resources"),
            (.remoteDeviceTerminatedConnectionPowerOff, 0x15, "Remote Device Terminated Connection due to Power Off"),
            (.connectionTerminatedByLocalHost, 0x16, "Connection Terminated By Local Host"),
            (.repeatedAttempts, 0x17, "Repeated Attempts"),
            (.pairingNotAllowed, 0x18, "Pairing Not Allowed"),
            (.unknownLMPPDU, 0x19, "Unknown LMP PDU"),
            (.unsupportedRemoteFeature, 0x1A, "Unsupported Remote Feature"),
            (.scoOffsetRejected, 0x1B, "SCO Offset Rejected"),
            (.scoIntervalRejected, 0x1C, "SCO Interval Rejected"),
            (.scoAirModeRejected, 0x1D, "SCO Air Mode Rejected"),
            (.invalidLMPOrLLParameters, 0x1E, "Invalid LMP Parameters / Invalid LL Parameters"),
            (.unspecifiedError, 0x1F, "Unspecified Error"),
            (.unsupportedLMPOrLLParameterValue, 0x20, "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"),
            (.roleChangeNotAllowed, 0x21, "Role Change Not Allowed"),
            (.lmpOrLLResponseTimeout, 0x22, "LMP Response Timeout / LL Response Timeout"),
            (.lmpErrorTransactionCollision, 0x23, "LMP Error Transaction Collision / LL Procedure Collision"),
            (.lmpPDUNotAllowed, 0x24, "LMP PDU Not Allowed"),
            (.encryptionModeNotAcceptable, 0x25, "Encryption Mode Not Acceptable"),
            (.linkKeyCannotBeChanged, 0x26, "Link Key cannot be Changed"),
            (.requestedQoSNotSupported, 0x27, "Requested QoS Not Supported"),
            (.instantPassed, 0x28, "Instant Passed"),
            (.pairingWithUnitKeyNotSupported, 0x29, "Pairing With Unit Key Not Supported"),
            (.differentTransactionCollision, 0x2A, "Different Transaction Collision"),
            (.qosUnacceptableParameter, 0x2C, "QoS Unacceptable Parameter"),
            (.qosRejected, 0x2D, "QoS Rejected"),
            (.channelClassificationNotSupported, 0x2E, "Channel Classification Not Supported"),
            (.insufficientSecurity, 0x2F, "Insufficient Security"),
            (.parameterOutOfMandatoryRange, 0x30, "Parameter Out Of Mandatory Range"),
            (.roleSwitchPending, 0x32, "Role Switch Pending"),
            (.reservedSlotViolation, 0x34, "Reserved Slot Violation"),
            (.roleSwitchFailed, 0x35, "Role Switch Failed"),
            (.extendedInquiryResponseTooLarge, 0x36, "Extended Inquiry Response Too Large"),
            (.secureSimplePairingNotSupportedByHost, 0x37, "Secure Simple Pairing Not Supported By Host"),
            (.hostBusyPairing, 0x38, "Host Busy - Pairing"),
            (.connectionRejectedNoSuitableChannelFound, 0x39, "Connection Rejected due to No Suitable Channel Found"),
            (.controllerBusy, 0x3A, "Controller Busy"),
            (.unacceptableConnectionParameters, 0x3B, "Unacceptable Connection Parameters"),
            (.advertisingTimeout, 0x3C, "Advertising Timeout"),
            (.connectionTerminatedMICFailure, 0x3D, "Connection Terminated due to MIC Failure"),
            (.connectionFailedToBeEstablished, 0x3E, "Connection Failed to be Established / Synchronization Timeout"),
            (.coarseClockAdjustmentRejected, 0x40, "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"),
            (.type0SubmapNotDefined, 0x41, "Type0 Submap Not Defined"),
            (.unknownAdvertisingIdentifier, 0x42, "Unknown Advertising Identifier"),
            (.limitReached, 0x43, "Limit Reached"),
            (.operationCancelledByHost, 0x44, "Operation Cancelled by Host"),
            (.packetTooLong, 0x45, "Packet Too Long"),
            (.tooLate, 0x46, "Too Late"),
            (.tooEarly, 0x47, "Too Early"),
        ]

        private static let byRawValue: [UInt8: StatusCode] = {
            var map: [UInt8: StatusCode] = [:]
            for (code, raw, _) in table { map[raw] = code }
            return map
        }()

        private static let rawValues: [StatusCode: (UInt8, String)] = {
            var map: [StatusCode: (UInt8, String)] = [:]
            for (code, raw, name) in table { map[code] = (raw, name) }
            return map
        }()

        /// The code for an octet; every octet maps to a value.
        public init(rawValue: UInt8) {
            self = StatusCode.byRawValue[rawValue] ?? .unlisted(rawValue)
        }

        /// The octet on the wire.
        public var rawValue: UInt8 {
            if case let .unlisted(raw) = self { return raw }
            return StatusCode.rawValues[self]?.0 ?? 0xFF
        }

        /// The specification's name for the code, e.g. "Command Disallowed".
        public var name: String {
            if case let .unlisted(raw) = self { return "Unlisted error 0x" + String(raw, radix: 16, uppercase: true) }
            return StatusCode.rawValues[self]?.1 ?? "Unlisted"
        }

        /// `Command Disallowed (0x0C)`.
        public var description: String {
            let hex = String(rawValue, radix: 16, uppercase: true)
            return "\(name) (0x\(rawValue < 0x10 ? "0" : "")\(hex))"
        }

        /// Reads one octet as a status code.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            self.init(rawValue: try reader.readUInt8(field()))
        }

        /// Appends the octet.
        public func encode(to writer: inout ByteWriter) { writer.write(rawValue) }
    }
}
