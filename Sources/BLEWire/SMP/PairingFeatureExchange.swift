extension SMP {
    /// The smallest Maximum Encryption Key Size a device may accept (Core 5.4, Vol 3,
    /// Part H, §3.5.1): 7 octets.
    public static let minimumEncryptionKeySize: UInt8 = 7
    /// The largest Maximum Encryption Key Size (§3.5.1): 16 octets.
    public static let maximumEncryptionKeySize: UInt8 = 16

    /// Pairing Request (Core 5.4, Vol 3, Part H, §3.5.1): the initiator starts pairing
    /// feature exchange with its IO capability, OOB flag, requirements and key wishes.
    ///
    /// `maximumEncryptionKeySize` is decoded whatever its value: the spec allows only 7–16,
    /// but answering an out-of-range value with Pairing Failed "Encryption Key Size" is the
    /// SMP layer's job (§3.5.5), so it must see the PDU.
    public struct PairingRequest: SMPPairingFeatureExchangePDU, Sendable {
        /// ``SMP/Code/pairingRequest``.
        public static let code = Code.pairingRequest
        /// The initiator's input and output capabilities.
        public var ioCapability: IOCapability
        /// Whether the initiator has OOB data for the responder.
        public var oobDataFlag: OOBDataFlag
        /// The initiator's AuthReq octet.
        public var authenticationRequirements: AuthenticationRequirements
        /// The largest key size, in octets, the initiator supports (valid range 7–16).
        public var maximumEncryptionKeySize: UInt8
        /// Keys the initiator asks to distribute.
        public var initiatorKeyDistribution: KeyDistribution
        /// Keys the initiator asks the responder to distribute.
        public var responderKeyDistribution: KeyDistribution

        /// A Pairing Request with every field given.
        public init(
            ioCapability: IOCapability,
            oobDataFlag: OOBDataFlag = .notPresent,
            authenticationRequirements: AuthenticationRequirements,
            maximumEncryptionKeySize: UInt8 = SMP.maximumEncryptionKeySize,
            initiatorKeyDistribution: KeyDistribution,
            responderKeyDistribution: KeyDistribution
        ) {
            self.ioCapability = ioCapability
            self.oobDataFlag = oobDataFlag
            self.authenticationRequirements = authenticationRequirements
            self.maximumEncryptionKeySize = maximumEncryptionKeySize
            self.initiatorKeyDistribution = initiatorKeyDistribution
            self.responderKeyDistribution = responderKeyDistribution
        }
    }

    /// Pairing Response (Core 5.4, Vol 3, Part H, §3.5.2): the responder's side of pairing
    /// feature exchange. Its key distribution fields are the keys that WILL be distributed
    /// (a subset of what the request asked for).
    ///
    /// As in ``PairingRequest``, any `maximumEncryptionKeySize` decodes; the SMP layer
    /// rejects values outside 7–16 with Pairing Failed "Encryption Key Size".
    public struct PairingResponse: SMPPairingFeatureExchangePDU, Sendable {
        /// ``SMP/Code/pairingResponse``.
        public static let code = Code.pairingResponse
        /// The responder's input and output capabilities.
        public var ioCapability: IOCapability
        /// Whether the responder has OOB data for the initiator.
        public var oobDataFlag: OOBDataFlag
        /// The responder's AuthReq octet.
        public var authenticationRequirements: AuthenticationRequirements
        /// The largest key size, in octets, the responder supports (valid range 7–16).
        public var maximumEncryptionKeySize: UInt8
        /// Keys the initiator will distribute.
        public var initiatorKeyDistribution: KeyDistribution
        /// Keys the responder will distribute.
        public var responderKeyDistribution: KeyDistribution

        /// A Pairing Response with every field given.
        public init(
            ioCapability: IOCapability,
            oobDataFlag: OOBDataFlag = .notPresent,
            authenticationRequirements: AuthenticationRequirements,
            maximumEncryptionKeySize: UInt8 = SMP.maximumEncryptionKeySize,
            initiatorKeyDistribution: KeyDistribution,
            responderKeyDistribution: KeyDistribution
        ) {
            self.ioCapability = ioCapability
            self.oobDataFlag = oobDataFlag
            self.authenticationRequirements = authenticationRequirements
            self.maximumEncryptionKeySize = maximumEncryptionKeySize
            self.initiatorKeyDistribution = initiatorKeyDistribution
            self.responderKeyDistribution = responderKeyDistribution
        }
    }
}

/// The six parameter octets Pairing Request and Pairing Response share (§3.5.1–§3.5.2).
struct PairingFeatures {
    var ioCapability: SMP.IOCapability
    var oobDataFlag: SMP.OOBDataFlag
    var authenticationRequirements: SMP.AuthenticationRequirements
    var maximumEncryptionKeySize: UInt8
    var initiatorKeyDistribution: SMP.KeyDistribution
    var responderKeyDistribution: SMP.KeyDistribution

    init(
        ioCapability: SMP.IOCapability, oobDataFlag: SMP.OOBDataFlag,
        authenticationRequirements: SMP.AuthenticationRequirements, maximumEncryptionKeySize: UInt8,
        initiatorKeyDistribution: SMP.KeyDistribution, responderKeyDistribution: SMP.KeyDistribution
    ) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataFlag
        self.authenticationRequirements = authenticationRequirements
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    init(from reader: inout ByteReader, pdu: String) throws(WireError) {
        ioCapability = try SMP.IOCapability(from: &reader, field: pdu + ".ioCapability")
        oobDataFlag = try SMP.OOBDataFlag(from: &reader, field: pdu + ".oobDataFlag")
        authenticationRequirements = SMP.AuthenticationRequirements(
            rawValue: try reader.readUInt8(pdu + ".authenticationRequirements"))
        maximumEncryptionKeySize = try reader.readUInt8(pdu + ".maximumEncryptionKeySize")
        initiatorKeyDistribution = SMP.KeyDistribution(rawValue: try reader.readUInt8(pdu + ".initiatorKeyDistribution"))
        responderKeyDistribution = SMP.KeyDistribution(rawValue: try reader.readUInt8(pdu + ".responderKeyDistribution"))
    }

    func encode(to writer: inout ByteWriter) {
        writer.write(ioCapability.rawValue)
        writer.write(oobDataFlag.rawValue)
        writer.write(authenticationRequirements.rawValue)
        writer.write(maximumEncryptionKeySize)
        writer.write(initiatorKeyDistribution.rawValue)
        writer.write(responderKeyDistribution.rawValue)
    }
}

/// Pairing Request and Pairing Response (Core 5.4, Vol 3, Part H, §3.5.1 and §3.5.2) carry
/// the same six fields after their code; they share one decoder and encoder.
public protocol SMPPairingFeatureExchangePDU: SMPPDU {
    /// The sender's input and output capabilities.
    var ioCapability: SMP.IOCapability { get }
    /// Whether the sender has OOB data for its peer.
    var oobDataFlag: SMP.OOBDataFlag { get }
    /// The sender's AuthReq octet.
    var authenticationRequirements: SMP.AuthenticationRequirements { get }
    /// The largest key size, in octets, the sender supports.
    var maximumEncryptionKeySize: UInt8 { get }
    /// Keys the initiator distributes.
    var initiatorKeyDistribution: SMP.KeyDistribution { get }
    /// Keys the responder distributes.
    var responderKeyDistribution: SMP.KeyDistribution { get }
    /// A PDU with every field given.
    init(ioCapability: SMP.IOCapability, oobDataFlag: SMP.OOBDataFlag, authenticationRequirements: SMP.AuthenticationRequirements,
         maximumEncryptionKeySize: UInt8, initiatorKeyDistribution: SMP.KeyDistribution, responderKeyDistribution: SMP.KeyDistribution)
}

extension SMPPairingFeatureExchangePDU {
    /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
    public init(from reader: inout ByteReader) throws(WireError) {
        try Self.readCode(from: &reader, wireTypeName(Self.self) + ".code")
        let fields = try PairingFeatures(from: &reader, pdu: wireTypeName(Self.self))
        self.init(
            ioCapability: fields.ioCapability, oobDataFlag: fields.oobDataFlag,
            authenticationRequirements: fields.authenticationRequirements,
            maximumEncryptionKeySize: fields.maximumEncryptionKeySize,
            initiatorKeyDistribution: fields.initiatorKeyDistribution,
            responderKeyDistribution: fields.responderKeyDistribution
        )
    }

    /// Appends the PDU, code octet first.
    public func encode(to writer: inout ByteWriter) {
        writer.write(Self.code.rawValue)
        PairingFeatures(
            ioCapability: ioCapability, oobDataFlag: oobDataFlag,
            authenticationRequirements: authenticationRequirements,
            maximumEncryptionKeySize: maximumEncryptionKeySize,
            initiatorKeyDistribution: initiatorKeyDistribution,
            responderKeyDistribution: responderKeyDistribution
        ).encode(to: &writer)
    }
}
