extension SMP {
    /// Any SMP PDU, decoded by its code octet (Core 5.4, Vol 3, Part H, §3.3).
    ///
    /// A reserved code throws ``WireError/Reason/unknownCode(_:)`` on field `"SMP.PDU.code"`
    /// (the SMP layer answers Pairing Failed "Command Not Supported", §3.5.5); a PDU whose
    /// length is not its command's fixed length throws (``init(decoding:)`` rejects
    /// trailing octets, and the typed decoder rejects truncation), which the SMP layer
    /// answers with "Invalid Parameters".
    public enum PDU: WireCodable, Hashable, Sendable {
        /// Pairing Request (0x01).
        case pairingRequest(PairingRequest)
        /// Pairing Response (0x02).
        case pairingResponse(PairingResponse)
        /// Pairing Confirm (0x03).
        case pairingConfirm(PairingConfirm)
        /// Pairing Random (0x04).
        case pairingRandom(PairingRandom)
        /// Pairing Failed (0x05).
        case pairingFailed(PairingFailed)
        /// Encryption Information (0x06).
        case encryptionInformation(EncryptionInformation)
        /// Central Identification (0x07).
        case centralIdentification(CentralIdentification)
        /// Identity Information (0x08).
        case identityInformation(IdentityInformation)
        /// Identity Address Information (0x09).
        case identityAddressInformation(IdentityAddressInformation)
        /// Signing Information (0x0A).
        case signingInformation(SigningInformation)
        /// Security Request (0x0B).
        case securityRequest(SecurityRequest)
        /// Pairing Public Key (0x0C).
        case pairingPublicKey(PairingPublicKey)
        /// Pairing DHKey Check (0x0D).
        case pairingDHKeyCheck(PairingDHKeyCheck)
        /// Keypress Notification (0x0E).
        case keypressNotification(KeypressNotification)

        /// The PDU's command code.
        public var code: Code {
            switch self {
            case .pairingRequest: return .pairingRequest
            case .pairingResponse: return .pairingResponse
            case .pairingConfirm: return .pairingConfirm
            case .pairingRandom: return .pairingRandom
            case .pairingFailed: return .pairingFailed
            case .encryptionInformation: return .encryptionInformation
            case .centralIdentification: return .centralIdentification
            case .identityInformation: return .identityInformation
            case .identityAddressInformation: return .identityAddressInformation
            case .signingInformation: return .signingInformation
            case .securityRequest: return .securityRequest
            case .pairingPublicKey: return .pairingPublicKey
            case .pairingDHKeyCheck: return .pairingDHKeyCheck
            case .keypressNotification: return .keypressNotification
            }
        }

        /// The typed PDU inside.
        public var pdu: any SMPPDU {
            switch self {
            case let .pairingRequest(pdu): return pdu
            case let .pairingResponse(pdu): return pdu
            case let .pairingConfirm(pdu): return pdu
            case let .pairingRandom(pdu): return pdu
            case let .pairingFailed(pdu): return pdu
            case let .encryptionInformation(pdu): return pdu
            case let .centralIdentification(pdu): return pdu
            case let .identityInformation(pdu): return pdu
            case let .identityAddressInformation(pdu): return pdu
            case let .signingInformation(pdu): return pdu
            case let .securityRequest(pdu): return pdu
            case let .pairingPublicKey(pdu): return pdu
            case let .pairingDHKeyCheck(pdu): return pdu
            case let .keypressNotification(pdu): return pdu
            }
        }

        /// Reads the code octet without consuming it and decodes the matching PDU.
        public init(from reader: inout ByteReader) throws(WireError) {
            var peek = reader
            let raw = try peek.readUInt8("SMP.PDU.code")
            guard let code = Code(rawValue: raw) else {
                throw WireError(field: "SMP.PDU.code", reason: .unknownCode(UInt64(raw)))
            }
            switch code {
            case .pairingRequest: self = .pairingRequest(try PairingRequest(from: &reader))
            case .pairingResponse: self = .pairingResponse(try PairingResponse(from: &reader))
            case .pairingConfirm: self = .pairingConfirm(try PairingConfirm(from: &reader))
            case .pairingRandom: self = .pairingRandom(try PairingRandom(from: &reader))
            case .pairingFailed: self = .pairingFailed(try PairingFailed(from: &reader))
            case .encryptionInformation: self = .encryptionInformation(try EncryptionInformation(from: &reader))
            case .centralIdentification: self = .centralIdentification(try CentralIdentification(from: &reader))
            case .identityInformation: self = .identityInformation(try IdentityInformation(from: &reader))
            case .identityAddressInformation:
                self = .identityAddressInformation(try IdentityAddressInformation(from: &reader))
            case .signingInformation: self = .signingInformation(try SigningInformation(from: &reader))
            case .securityRequest: self = .securityRequest(try SecurityRequest(from: &reader))
            case .pairingPublicKey: self = .pairingPublicKey(try PairingPublicKey(from: &reader))
            case .pairingDHKeyCheck: self = .pairingDHKeyCheck(try PairingDHKeyCheck(from: &reader))
            case .keypressNotification: self = .keypressNotification(try KeypressNotification(from: &reader))
            }
        }

        /// Appends the typed PDU, code octet first (switching directly, to avoid boxing
        /// the payload in an existential).
        public func encode(to writer: inout ByteWriter) {
            switch self {
            case let .pairingRequest(pdu): pdu.encode(to: &writer)
            case let .pairingResponse(pdu): pdu.encode(to: &writer)
            case let .pairingConfirm(pdu): pdu.encode(to: &writer)
            case let .pairingRandom(pdu): pdu.encode(to: &writer)
            case let .pairingFailed(pdu): pdu.encode(to: &writer)
            case let .encryptionInformation(pdu): pdu.encode(to: &writer)
            case let .centralIdentification(pdu): pdu.encode(to: &writer)
            case let .identityInformation(pdu): pdu.encode(to: &writer)
            case let .identityAddressInformation(pdu): pdu.encode(to: &writer)
            case let .signingInformation(pdu): pdu.encode(to: &writer)
            case let .securityRequest(pdu): pdu.encode(to: &writer)
            case let .pairingPublicKey(pdu): pdu.encode(to: &writer)
            case let .pairingDHKeyCheck(pdu): pdu.encode(to: &writer)
            case let .keypressNotification(pdu): pdu.encode(to: &writer)
            }
        }
    }
}
