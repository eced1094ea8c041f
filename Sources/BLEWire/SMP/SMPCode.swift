extension SMP {
    /// The command codes of the Security Manager Protocol (Core 5.4, Vol 3, Part H, §3.3,
    /// Table 3.4): the first octet of every SMP PDU on the L2CAP fixed channel 0x0006.
    ///
    /// Codes outside 0x01–0x0E are reserved; ``SMP/PDU`` rejects them with
    /// ``WireError/Reason/unknownCode(_:)`` so the SMP layer can answer with Pairing Failed
    /// "Command Not Supported" (§3.5.5).
    public enum Code: UInt8, Hashable, Sendable, CaseIterable {
        /// Pairing Request (§3.5.1).
        case pairingRequest = 0x01
        /// Pairing Response (§3.5.2).
        case pairingResponse = 0x02
        /// Pairing Confirm (§3.5.3).
        case pairingConfirm = 0x03
        /// Pairing Random (§3.5.4).
        case pairingRandom = 0x04
        /// Pairing Failed (§3.5.5).
        case pairingFailed = 0x05
        /// Encryption Information (§3.6.2).
        case encryptionInformation = 0x06
        /// Central Identification (§3.6.3).
        case centralIdentification = 0x07
        /// Identity Information (§3.6.4).
        case identityInformation = 0x08
        /// Identity Address Information (§3.6.5).
        case identityAddressInformation = 0x09
        /// Signing Information (§3.6.6).
        case signingInformation = 0x0A
        /// Security Request (§3.6.7).
        case securityRequest = 0x0B
        /// Pairing Public Key (§3.5.6).
        case pairingPublicKey = 0x0C
        /// Pairing DHKey Check (§3.5.7).
        case pairingDHKeyCheck = 0x0D
        /// Keypress Notification (§3.5.8).
        case keypressNotification = 0x0E

        /// The fixed length of the PDU with this code, code octet included (§3.5–§3.6):
        /// SMP PDUs have no length field, so a PDU of any other length is malformed.
        public var pduLength: Int {
            switch self {
            case .pairingRequest, .pairingResponse: return 7
            case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation,
                 .signingInformation, .pairingDHKeyCheck:
                return 17
            case .pairingFailed, .securityRequest, .keypressNotification: return 2
            case .centralIdentification: return 11
            case .identityAddressInformation: return 8
            case .pairingPublicKey: return 65
            }
        }
    }
}

/// An SMP PDU (Core 5.4, Vol 3, Part H, §3.3): a code octet followed by fixed-length
/// parameters. The wire form of a conforming type INCLUDES the code octet, so
/// `SMP.PairingRandom(value: r).encoded()` is exactly the L2CAP payload, and the 7-octet
/// Pairing Request/Response encodings are the `preq`/`pres` inputs of the legacy `c1`
/// function (§2.2.3).
public protocol SMPPDU: WireCodable, Hashable {
    /// The command code that starts this PDU.
    static var code: SMP.Code { get }
}

extension SMPPDU {
    /// Reads the code octet and checks it is `Self.code`; decoders call this first.
    static func readCode(from reader: inout ByteReader, _ field: @autoclosure () -> String) throws(WireError) {
        let raw = try reader.readUInt8(field())
        guard raw == code.rawValue else {
            throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
        }
    }
}

/// An SMP command that is its code and one 128-bit value: Pairing Confirm, Pairing Random,
/// Pairing DHKey Check, Encryption Information, Identity Information and Signing
/// Information (Core 5.4, Vol 3, Part H, §3.5.3, §3.5.4, §3.5.7, §3.6.2, §3.6.4, §3.6.6).
/// They share one decoder and encoder.
public protocol SMPSingleValuePDU: SMPPDU {
    /// The name of the value field in the specification's terms, for error messages.
    static var valueField: String { get }
    /// The value, as the specification writes it (little-endian on the wire).
    var value128: UInt128 { get }
    /// A PDU carrying `value128`.
    init(value128: UInt128)
}

extension SMPSingleValuePDU {
    /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
    public init(from reader: inout ByteReader) throws(WireError) {
        try Self.readCode(from: &reader, wireTypeName(Self.self) + ".code")
        self.init(value128: try reader.readUInt128(wireTypeName(Self.self) + "." + Self.valueField))
    }

    /// Appends the PDU, code octet first.
    public func encode(to writer: inout ByteWriter) {
        writer.write(Self.code.rawValue)
        writer.write(value128)
    }
}
