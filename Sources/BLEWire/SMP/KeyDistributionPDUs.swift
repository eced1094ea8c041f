extension SMP {
    /// Encryption Information (Core 5.4, Vol 3, Part H, §3.6.2): the LTK distributed in
    /// phase 3 of legacy pairing.
    public struct EncryptionInformation: SMPSingleValuePDU, Sendable {
        /// ``SMP/Code/encryptionInformation``.
        public static let code = Code.encryptionInformation
        /// The Long Term Key, as the spec writes it (little-endian on the wire).
        public var longTermKey: UInt128

        /// An Encryption Information carrying `longTermKey`.
        public init(longTermKey: UInt128) { self.longTermKey = longTermKey }

        /// The name of the value field, for errors.
        public static let valueField = "longTermKey"
        /// The 128-bit value, for the shared coder.
        public var value128: UInt128 { longTermKey }
        /// The PDU from its value, for the shared coder.
        public init(value128: UInt128) { self.init(longTermKey: value128) }
    }

    /// Central Identification (Core 5.4, Vol 3, Part H, §3.6.3): EDIV and Rand, which
    /// identify the LTK just distributed when encryption is started later.
    public struct CentralIdentification: SMPPDU, Sendable {
        /// ``SMP/Code/centralIdentification``.
        public static let code = Code.centralIdentification
        /// Encrypted Diversifier.
        public var encryptedDiversifier: UInt16
        /// The 64-bit Rand value.
        public var random: UInt64

        /// A Central Identification with `encryptedDiversifier` (EDIV) and `random` (Rand).
        public init(encryptedDiversifier: UInt16, random: UInt64) {
            self.encryptedDiversifier = encryptedDiversifier
            self.random = random
        }

        /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try Self.readCode(from: &reader, "SMP.CentralIdentification.code")
            encryptedDiversifier = try reader.readUInt16("SMP.CentralIdentification.encryptedDiversifier")
            random = try reader.readUInt64("SMP.CentralIdentification.random")
        }

        /// Appends the PDU, code octet first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.code.rawValue)
            writer.write(encryptedDiversifier)
            writer.write(random)
        }
    }

    /// Identity Information (Core 5.4, Vol 3, Part H, §3.6.4): the Identity Resolving Key,
    /// with which the peer can resolve this device's private addresses.
    public struct IdentityInformation: SMPSingleValuePDU, Sendable {
        /// ``SMP/Code/identityInformation``.
        public static let code = Code.identityInformation
        /// The IRK, as the spec writes it (little-endian on the wire).
        public var identityResolvingKey: UInt128

        /// An Identity Information carrying `identityResolvingKey`.
        public init(identityResolvingKey: UInt128) { self.identityResolvingKey = identityResolvingKey }

        /// The name of the value field, for errors.
        public static let valueField = "identityResolvingKey"
        /// The 128-bit value, for the shared coder.
        public var value128: UInt128 { identityResolvingKey }
        /// The PDU from its value, for the shared coder.
        public init(value128: UInt128) { self.init(identityResolvingKey: value128) }
    }

    /// Identity Address Information (Core 5.4, Vol 3, Part H, §3.6.5): the public or
    /// static random identity address that goes with the distributed IRK.
    ///
    /// The AddrType octet is 0x00 (public) or 0x01 (static random); other values are
    /// reserved and rejected. The type lives in the address's ``BluetoothAddress/kind``.
    public struct IdentityAddressInformation: SMPPDU, Sendable {
        /// ``SMP/Code/identityAddressInformation``.
        public static let code = Code.identityAddressInformation
        /// The identity address, with its kind from the AddrType octet.
        public var address: BluetoothAddress

        /// An Identity Address Information carrying `address`.
        public init(address: BluetoothAddress) { self.address = address }

        /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try Self.readCode(from: &reader, "SMP.IdentityAddressInformation.code")
            let rawType = try reader.readUInt8("SMP.IdentityAddressInformation.addressType")
            guard let kind = BluetoothAddress.Kind(rawValue: rawType) else {
                throw WireError(field: "SMP.IdentityAddressInformation.addressType", reason: .invalidValue(UInt64(rawType)))
            }
            address = try BluetoothAddress(from: &reader, kind: kind, field: "SMP.IdentityAddressInformation.address")
        }

        /// Appends the PDU, code octet first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.code.rawValue)
            writer.write(address.kind.rawValue)
            address.encode(to: &writer)
        }
    }

    /// Signing Information (Core 5.4, Vol 3, Part H, §3.6.6): the Connection Signature
    /// Resolving Key used to verify signed ATT writes.
    public struct SigningInformation: SMPSingleValuePDU, Sendable {
        /// ``SMP/Code/signingInformation``.
        public static let code = Code.signingInformation
        /// The CSRK, as the spec writes it (little-endian on the wire).
        public var signatureKey: UInt128

        /// A Signing Information carrying `signatureKey`.
        public init(signatureKey: UInt128) { self.signatureKey = signatureKey }

        /// The name of the value field, for errors.
        public static let valueField = "signatureKey"
        /// The 128-bit value, for the shared coder.
        public var value128: UInt128 { signatureKey }
        /// The PDU from its value, for the shared coder.
        public init(value128: UInt128) { self.init(signatureKey: value128) }
    }
}
