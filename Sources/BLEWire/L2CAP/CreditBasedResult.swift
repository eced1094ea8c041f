extension L2CAP {
    /// The Result of an LE Credit Based Connection Response (Core 5.4, Vol 3, Part A,
    /// §4.23, Table 4.15) and of a Credit Based Connection Response (§4.26, Table 4.17),
    /// which share their codes (the "all"/"some" wording differs).
    ///
    /// Decoding is total: a code neither table lists is kept as ``unlisted(_:)``, so a
    /// refusal from a newer peer still reads as a refusal.
    public enum CreditBasedConnectionResult: Hashable, Sendable, CustomStringConvertible {
        /// 0x0000: the connection (or every connection) is established.
        case successful
        /// 0x0002: refused, SPSM not supported.
        case spsmNotSupported
        /// 0x0004: refused, no resources available (some connections, for 0x17).
        case noResourcesAvailable
        /// 0x0005: refused, insufficient authentication.
        case insufficientAuthentication
        /// 0x0006: refused, insufficient authorization.
        case insufficientAuthorization
        /// 0x0007: refused, encryption key size too short.
        case encryptionKeySizeTooShort
        /// 0x0008: refused, insufficient encryption.
        case insufficientEncryption
        /// 0x0009: refused, invalid Source CID (some connections, for 0x17).
        case invalidSourceCID
        /// 0x000A: refused, Source CID already allocated (some connections, for 0x17).
        case sourceCIDAlreadyAllocated
        /// 0x000B: refused, unacceptable parameters.
        case unacceptableParameters
        /// 0x000C: all refused, invalid parameters (Credit Based Connection Response).
        case invalidParameters
        /// 0x000D: all pending, no further information available.
        case pendingNoFurtherInformation
        /// 0x000E: all pending, authentication pending.
        case pendingAuthentication
        /// 0x000F: all pending, authorization pending.
        case pendingAuthorization
        /// A code the tables reserve (0x0001, 0x0003, 0x0010 and above).
        case unlisted(UInt16)

        private static let named: [(CreditBasedConnectionResult, UInt16, String)] = [
            (.successful, 0x0000, "Connection successful"),
            (.spsmNotSupported, 0x0002, "Connection refused – SPSM not supported"),
            (.noResourcesAvailable, 0x0004, "Connection refused – no resources available"),
            (.insufficientAuthentication, 0x0005, "Connection refused – insufficient authentication"),
            (.insufficientAuthorization, 0x0006, "Connection refused – insufficient authorization"),
            (.encryptionKeySizeTooShort, 0x0007, "Connection refused – encryption key size too short"),
            (.insufficientEncryption, 0x0008, "Connection refused – insufficient encryption"),
            (.invalidSourceCID, 0x0009, "Connection refused – invalid Source CID"),
            (.sourceCIDAlreadyAllocated, 0x000A, "Connection refused – Source CID already allocated"),
            (.unacceptableParameters, 0x000B, "Connection refused – unacceptable parameters"),
            (.invalidParameters, 0x000C, "All connections refused – invalid parameters"),
            (.pendingNoFurtherInformation, 0x000D, "All connections pending – no further information available"),
            (.pendingAuthentication, 0x000E, "All connections pending – authentication pending"),
            (.pendingAuthorization, 0x000F, "All connections pending – authorization pending"),
        ]

        /// The result for a code; every value maps to exactly one case.
        public init(rawValue: UInt16) {
            for (result, raw, _) in CreditBasedConnectionResult.named where raw == rawValue {
                self = result
                return
            }
            self = .unlisted(rawValue)
        }

        /// The 16-bit code.
        public var rawValue: UInt16 {
            if case let .unlisted(raw) = self { return raw }
            for (result, raw, _) in CreditBasedConnectionResult.named where result == self { return raw }
            return 0xFFFF
        }

        /// Whether the result is 0x0000, successful.
        public var isSuccess: Bool { self == .successful }

        /// The specification's wording and the code.
        public var description: String {
            let text = String(rawValue, radix: 16, uppercase: true)
            let code = "0x" + String(repeating: "0", count: max(0, 4 - text.count)) + text
            if case .unlisted = self { return "Reserved (\(code))" }
            for (result, _, name) in CreditBasedConnectionResult.named where result == self { return "\(name) (\(code))" }
            return code
        }
    }
}
