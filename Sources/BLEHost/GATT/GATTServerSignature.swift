import BLECrypto

extension GATTServer {
    /// Whether a signed PDU's MAC is the one the CSRK gives (Core 5.4, Vol 3, Part H,
    /// §2.4.5): AES-CMAC under the CSRK over the PDU up to and including the SignCounter
    /// (opcode, handle, value, counter). Part H numbers that message most significant octet
    /// first, which is the wire octets reversed; the MAC is the CMAC's most significant 64
    /// bits, sent little-endian.
    /// - Parameters:
    ///   - pdu: the whole Signed Write Command, signature included.
    ///   - csrk: the peer's CSRK as a 128-bit number.
    ///   - messageAuthenticationCode: the MAC as decoded (little-endian).
    static func signatureIsValid(of pdu: [UInt8], csrk: UInt128, messageAuthenticationCode: UInt64) -> Bool {
        guard pdu.count >= 15 else { return false }
        let signed = pdu[..<(pdu.count - 8)].reversed()
        guard let tag = try? BLECrypto.aesCMAC(key: csrk, message: signed) else { return false }
        return UInt64(truncatingIfNeeded: tag >> 64) == messageAuthenticationCode
    }
}
