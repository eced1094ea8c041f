extension SMP {
    /// IO Capability of a device in pairing (Core 5.4, Vol 3, Part H, §3.5.1, Table 3.5):
    /// together with the peer's, it selects the association model (§2.3.5.1).
    /// Values 0x05–0xFF are reserved and rejected when decoded.
    public enum IOCapability: UInt8, Hashable, Sendable, CaseIterable {
        /// Can show a number but not take input.
        case displayOnly = 0x00
        /// Can show a number and take a yes/no answer.
        case displayYesNo = 0x01
        /// Can take digits but not show them.
        case keyboardOnly = 0x02
        /// Neither input nor output: Just Works.
        case noInputNoOutput = 0x03
        /// Both a display and a keyboard.
        case keyboardDisplay = 0x04

        /// Reads one octet; a reserved value throws naming `field`.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            let raw = try reader.readUInt8(field())
            guard let value = IOCapability(rawValue: raw) else {
                throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
            }
            self = value
        }
    }

    /// OOB Data Flag of Pairing Request/Response (Core 5.4, Vol 3, Part H, §3.5.1, Table 3.6):
    /// whether the sender holds out-of-band authentication data for the peer.
    /// Values 0x02–0xFF are reserved and rejected when decoded.
    public enum OOBDataFlag: UInt8, Hashable, Sendable, CaseIterable {
        /// No OOB authentication data present.
        case notPresent = 0x00
        /// OOB authentication data from the remote device is present.
        case present = 0x01

        /// Reads one octet; a reserved value throws naming `field`.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            let raw = try reader.readUInt8(field())
            guard let value = OOBDataFlag(rawValue: raw) else {
                throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
            }
            self = value
        }
    }

    /// AuthReq, the authentication requirements octet (Core 5.4, Vol 3, Part H, §3.5.1,
    /// Figure 3.3): Bonding_Flags (bits 0–1), MITM (2), SC (3), Keypress (4), CT2 (5), and
    /// two RFU bits (6–7).
    ///
    /// The raw octet is kept whole, RFU bits and the reserved Bonding_Flags values 0b10 and
    /// 0b11 included, because the receiver ignores them (§3.5.1) yet the exact octets feed
    /// the `c1` confirm function (§2.2.3); `decode(encode(x)) == x` therefore always holds.
    public struct AuthenticationRequirements: OptionSet, Hashable, Sendable {
        /// The octet on the wire.
        public var rawValue: UInt8

        /// Requirements from the raw octet; every octet is accepted.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bonding_Flags = 0b01: the device asks to bond (store the distributed keys).
        public static let bonding = AuthenticationRequirements(rawValue: 0x01)
        /// MITM: protection against man-in-the-middle attacks is requested.
        public static let mitm = AuthenticationRequirements(rawValue: 0x04)
        /// SC: the device supports LE Secure Connections pairing.
        public static let secureConnections = AuthenticationRequirements(rawValue: 0x08)
        /// Keypress: Keypress Notifications are requested in Passkey Entry.
        public static let keypress = AuthenticationRequirements(rawValue: 0x10)
        /// CT2: the device supports the h7 function for cross-transport key derivation.
        public static let ct2 = AuthenticationRequirements(rawValue: 0x20)

        /// The Bonding_Flags field, a two-bit value: 0b00 No Bonding, 0b01 Bonding, 0b10 and
        /// 0b11 reserved.
        public var bondingFlags: UInt8 { rawValue & 0x03 }
        /// The two RFU bits, in place (bits 6–7), kept so round trips hold.
        public var reservedBits: UInt8 { rawValue & 0xC0 }
    }

    /// Initiator/Responder Key Distribution / Generation (Core 5.4, Vol 3, Part H, §3.6.1,
    /// Figure 3.11): which keys each side will distribute in phase 3.
    ///
    /// The raw octet is kept whole: the four RFU bits (4–7) are ignored by receivers but
    /// preserved so `decode(encode(x)) == x`.
    public struct KeyDistribution: OptionSet, Hashable, Sendable {
        /// The octet on the wire.
        public var rawValue: UInt8

        /// A key distribution from the raw octet; every octet is accepted.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// EncKey: LTK with EDIV and Rand (legacy), or "derive the BR/EDR link key" (SC).
        public static let encryptionKey = KeyDistribution(rawValue: 0x01)
        /// IdKey: IRK and identity address.
        public static let identityKey = KeyDistribution(rawValue: 0x02)
        /// SignKey: CSRK for data signing.
        public static let signingKey = KeyDistribution(rawValue: 0x04)
        /// LinkKey: derive the BR/EDR link key from the LTK.
        public static let linkKey = KeyDistribution(rawValue: 0x08)

        /// The four RFU bits, in place (bits 4–7).
        public var reservedBits: UInt8 { rawValue & 0xF0 }
    }

    /// The Reason field of Pairing Failed (Core 5.4, Vol 3, Part H, §3.5.5, Table 3.7).
    /// Decoding is total: a code the specification does not list is kept as ``unlisted(_:)``
    /// so a log can still show it.
    public enum PairingFailedReason: Hashable, Sendable, CustomStringConvertible {
        /// 0x01: the user cancelled or mistyped the passkey.
        case passkeyEntryFailed
        /// 0x02: the OOB data is not available.
        case oobNotAvailable
        /// 0x03: the requested security cannot be met with the IO capabilities or OOB data.
        case authenticationRequirements
        /// 0x04: the confirm value does not match the calculated compare value.
        case confirmValueFailed
        /// 0x05: pairing is not supported by the device.
        case pairingNotSupported
        /// 0x06: the resulting key size is too small for this device.
        case encryptionKeySize
        /// 0x07: the SMP command received is not supported.
        case commandNotSupported
        /// 0x08: pairing failed for another reason.
        case unspecifiedReason
        /// 0x09: pairing was attempted too soon after a failure.
        case repeatedAttempts
        /// 0x0A: a command had invalid parameters or a wrong length.
        case invalidParameters
        /// 0x0B: the DHKey Check value does not match.
        case dhKeyCheckFailed
        /// 0x0C: the two numeric comparison values do not match.
        case numericComparisonFailed
        /// 0x0D: pairing over BR/EDR is already in progress.
        case brEdrPairingInProgress
        /// 0x0E: the BR/EDR link key or LE keys cannot be used to derive keys for the other transport.
        case crossTransportKeyDerivationNotAllowed
        /// 0x0F: the device chose not to accept a distributed key.
        case keyRejected
        /// A reason the specification does not list.
        case unlisted(UInt8)

        /// The reason for an octet; every octet maps to a value.
        public init(rawValue: UInt8) {
            switch rawValue {
            case 0x01: self = .passkeyEntryFailed
            case 0x02: self = .oobNotAvailable
            case 0x03: self = .authenticationRequirements
            case 0x04: self = .confirmValueFailed
            case 0x05: self = .pairingNotSupported
            case 0x06: self = .encryptionKeySize
            case 0x07: self = .commandNotSupported
            case 0x08: self = .unspecifiedReason
            case 0x09: self = .repeatedAttempts
            case 0x0A: self = .invalidParameters
            case 0x0B: self = .dhKeyCheckFailed
            case 0x0C: self = .numericComparisonFailed
            case 0x0D: self = .brEdrPairingInProgress
            case 0x0E: self = .crossTransportKeyDerivationNotAllowed
            case 0x0F: self = .keyRejected
            default: self = .unlisted(rawValue)
            }
        }

        /// The octet on the wire.
        public var rawValue: UInt8 {
            switch self {
            case .passkeyEntryFailed: return 0x01
            case .oobNotAvailable: return 0x02
            case .authenticationRequirements: return 0x03
            case .confirmValueFailed: return 0x04
            case .pairingNotSupported: return 0x05
            case .encryptionKeySize: return 0x06
            case .commandNotSupported: return 0x07
            case .unspecifiedReason: return 0x08
            case .repeatedAttempts: return 0x09
            case .invalidParameters: return 0x0A
            case .dhKeyCheckFailed: return 0x0B
            case .numericComparisonFailed: return 0x0C
            case .brEdrPairingInProgress: return 0x0D
            case .crossTransportKeyDerivationNotAllowed: return 0x0E
            case .keyRejected: return 0x0F
            case let .unlisted(raw): return raw
            }
        }

        /// The specification's name for the reason, e.g. "Confirm Value Failed".
        public var name: String {
            switch self {
            case .passkeyEntryFailed: return "Passkey Entry Failed"
            case .oobNotAvailable: return "OOB Not Available"
            case .authenticationRequirements: return "Authentication Requirements"
            case .confirmValueFailed: return "Confirm Value Failed"
            case .pairingNotSupported: return "Pairing Not Supported"
            case .encryptionKeySize: return "Encryption Key Size"
            case .commandNotSupported: return "Command Not Supported"
            case .unspecifiedReason: return "Unspecified Reason"
            case .repeatedAttempts: return "Repeated Attempts"
            case .invalidParameters: return "Invalid Parameters"
            case .dhKeyCheckFailed: return "DHKey Check Failed"
            case .numericComparisonFailed: return "Numeric Comparison Failed"
            case .brEdrPairingInProgress: return "BR/EDR pairing in progress"
            case .crossTransportKeyDerivationNotAllowed: return "Cross-transport Key Derivation/Generation not allowed"
            case .keyRejected: return "Key Rejected"
            case let .unlisted(raw): return "Unlisted reason 0x" + String(raw, radix: 16, uppercase: true)
            }
        }

        /// `Confirm Value Failed (0x04)`.
        public var description: String {
            let hex = String(rawValue, radix: 16, uppercase: true)
            return "\(name) (0x\(rawValue < 0x10 ? "0" : "")\(hex))"
        }
    }

    /// Notification Type of Keypress Notification (Core 5.4, Vol 3, Part H, §3.5.8,
    /// Table 3.8): progress of passkey entry shown to the other user.
    /// Values 0x05–0xFF are reserved and rejected when decoded.
    public enum KeypressNotificationType: UInt8, Hashable, Sendable, CaseIterable {
        /// Passkey entry started.
        case passkeyEntryStarted = 0x00
        /// A digit was entered.
        case passkeyDigitEntered = 0x01
        /// A digit was erased.
        case passkeyDigitErased = 0x02
        /// The entry was cleared.
        case passkeyCleared = 0x03
        /// Passkey entry completed.
        case passkeyEntryCompleted = 0x04
    }
}
