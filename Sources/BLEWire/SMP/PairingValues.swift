extension SMP {
    /// Pairing Confirm (Core 5.4, Vol 3, Part H, §3.5.3): the commitment `Mconfirm`/`Sconfirm`
    /// to a random value, computed with `c1` (legacy) or `f4` (Secure Connections).
    public struct PairingConfirm: SMPSingleValuePDU, Sendable {
        /// ``SMP/Code/pairingConfirm``.
        public static let code = Code.pairingConfirm
        /// The 128-bit confirm value, as the spec writes it (little-endian on the wire).
        public var confirmValue: UInt128

        /// A Pairing Confirm carrying `confirmValue`.
        public init(confirmValue: UInt128) { self.confirmValue = confirmValue }

        /// The name of the value field, for errors.
        public static let valueField = "confirmValue"
        /// The 128-bit value, for the shared coder.
        public var value128: UInt128 { confirmValue }
        /// The PDU from its value, for the shared coder.
        public init(value128: UInt128) { self.init(confirmValue: value128) }
    }

    /// Pairing Random (Core 5.4, Vol 3, Part H, §3.5.4): reveals `Mrand`/`Srand` (or `Na`/`Nb`)
    /// so the peer can check the earlier confirm value.
    public struct PairingRandom: SMPSingleValuePDU, Sendable {
        /// ``SMP/Code/pairingRandom``.
        public static let code = Code.pairingRandom
        /// The 128-bit random value, as the spec writes it (little-endian on the wire).
        public var randomValue: UInt128

        /// A Pairing Random carrying `randomValue`.
        public init(randomValue: UInt128) { self.randomValue = randomValue }

        /// The name of the value field, for errors.
        public static let valueField = "randomValue"
        /// The 128-bit value, for the shared coder.
        public var value128: UInt128 { randomValue }
        /// The PDU from its value, for the shared coder.
        public init(value128: UInt128) { self.init(randomValue: value128) }
    }

    /// Pairing DHKey Check (Core 5.4, Vol 3, Part H, §3.5.7): `Ea`/`Eb`, computed with `f6`,
    /// proving in LE Secure Connections that both sides derived the same DHKey.
    public struct PairingDHKeyCheck: SMPSingleValuePDU, Sendable {
        /// ``SMP/Code/pairingDHKeyCheck``.
        public static let code = Code.pairingDHKeyCheck
        /// The 128-bit check value, as the spec writes it (little-endian on the wire).
        public var checkValue: UInt128

        /// A Pairing DHKey Check carrying `checkValue`.
        public init(checkValue: UInt128) { self.checkValue = checkValue }

        /// The name of the value field, for errors.
        public static let valueField = "checkValue"
        /// The 128-bit value, for the shared coder.
        public var value128: UInt128 { checkValue }
        /// The PDU from its value, for the shared coder.
        public init(value128: UInt128) { self.init(checkValue: value128) }
    }

    /// Pairing Failed (Core 5.4, Vol 3, Part H, §3.5.5): ends pairing with a reason.
    /// Every reason octet decodes (unlisted ones as ``PairingFailedReason/unlisted(_:)``).
    public struct PairingFailed: SMPPDU, Sendable {
        /// ``SMP/Code/pairingFailed``.
        public static let code = Code.pairingFailed
        /// Why pairing failed.
        public var reason: PairingFailedReason

        /// A Pairing Failed with `reason`.
        public init(reason: PairingFailedReason) { self.reason = reason }

        /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try Self.readCode(from: &reader, "SMP.PairingFailed.code")
            reason = PairingFailedReason(rawValue: try reader.readUInt8("SMP.PairingFailed.reason"))
        }

        /// Appends the PDU, code octet first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.code.rawValue)
            writer.write(reason.rawValue)
        }
    }

    /// Keypress Notification (Core 5.4, Vol 3, Part H, §3.5.8): passkey entry progress
    /// sent by a keyboard-only device when both sides set the Keypress bit.
    public struct KeypressNotification: SMPPDU, Sendable {
        /// ``SMP/Code/keypressNotification``.
        public static let code = Code.keypressNotification
        /// What happened on the keyboard.
        public var notificationType: KeypressNotificationType

        /// A Keypress Notification of `notificationType`.
        public init(notificationType: KeypressNotificationType) { self.notificationType = notificationType }

        /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try Self.readCode(from: &reader, "SMP.KeypressNotification.code")
            let raw = try reader.readUInt8("SMP.KeypressNotification.notificationType")
            guard let type = KeypressNotificationType(rawValue: raw) else {
                throw WireError(field: "SMP.KeypressNotification.notificationType", reason: .invalidValue(UInt64(raw)))
            }
            notificationType = type
        }

        /// Appends the PDU, code octet first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.code.rawValue)
            writer.write(notificationType.rawValue)
        }
    }

    /// Security Request (Core 5.4, Vol 3, Part H, §3.6.7): a peripheral asks the central
    /// to start pairing or encryption with these requirements.
    public struct SecurityRequest: SMPPDU, Sendable {
        /// ``SMP/Code/securityRequest``.
        public static let code = Code.securityRequest
        /// The peripheral's AuthReq octet (raw bits kept).
        public var authenticationRequirements: AuthenticationRequirements

        /// A Security Request with `authenticationRequirements`.
        public init(authenticationRequirements: AuthenticationRequirements) {
            self.authenticationRequirements = authenticationRequirements
        }

        /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try Self.readCode(from: &reader, "SMP.SecurityRequest.code")
            authenticationRequirements = AuthenticationRequirements(
                rawValue: try reader.readUInt8("SMP.SecurityRequest.authenticationRequirements"))
        }

        /// Appends the PDU, code octet first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.code.rawValue)
            writer.write(authenticationRequirements.rawValue)
        }
    }
}
