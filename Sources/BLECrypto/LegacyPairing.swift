extension BLECrypto {
    /// Confirm value generation function c1 for LE legacy pairing (Core 5.4, Vol 3, Part H,
    /// §2.2.3): `c1 = e(k, e(k, r XOR p1) XOR p2)` with
    /// `p1 = pres || preq || rat' || iat'` and `p2 = padding || ia || ra`.
    ///
    /// - Parameters:
    ///   - k: the Temporary Key (TK).
    ///   - r: the 128-bit random value (Mrand or Srand).
    ///   - preq: the 7 octets of the Pairing Request command as a 56-bit number whose least
    ///     significant octet is the first one sent (the opcode, 0x01). Higher bits are ignored.
    ///   - pres: the Pairing Response command, likewise (opcode 0x02 least significant).
    ///   - iat: the initiating device's address type, 0 public or 1 random (one bit is used).
    ///   - ia: the initiating device's 48-bit address (higher bits ignored).
    ///   - rat: the responding device's address type, 0 or 1.
    ///   - ra: the responding device's 48-bit address.
    /// - Returns: the 128-bit confirm value (Mconfirm or Sconfirm).
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func c1(
        k: UInt128, r: UInt128, preq: UInt64, pres: UInt64,
        iat: UInt8, ia: UInt64, rat: UInt8, ra: UInt64
    ) throws(BLECrypto.Error) -> UInt128 {
        let mask56: UInt64 = 0xFF_FFFF_FFFF_FFFF
        let mask48: UInt64 = 0xFFFF_FFFF_FFFF
        let p1 = UInt128(pres & mask56) << 72 | UInt128(preq & mask56) << 16
            | UInt128(rat & 1) << 8 | UInt128(iat & 1)
        let p2 = UInt128(ia & mask48) << 48 | UInt128(ra & mask48)
        let cipher = AESBlockCipher(key: k)
        return try cipher.encrypt(try cipher.encrypt(r ^ p1) ^ p2)
    }

    /// Key generation function s1 for LE legacy pairing (Core 5.4, Vol 3, Part H, §2.2.4):
    /// the Short Term Key `e(k, r1' || r2')`, where r1' and r2' are the least significant
    /// 64 bits of r1 and r2.
    ///
    /// - Parameters:
    ///   - k: the Temporary Key (TK).
    ///   - r1: Srand (the responding device's random).
    ///   - r2: Mrand (the initiating device's random).
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func s1(k: UInt128, r1: UInt128, r2: UInt128) throws(BLECrypto.Error) -> UInt128 {
        let lowHalf: UInt128 = 0xFFFF_FFFF_FFFF_FFFF
        return try e(key: k, plaintext: (r1 & lowHalf) << 64 | (r2 & lowHalf))
    }

    /// Random address hash function ah (Core 5.4, Vol 3, Part H, §2.2.2): the 24-bit hash
    /// of a resolvable private address, `e(k, padding || r) mod 2^24`.
    ///
    /// - Parameters:
    ///   - k: the Identity Resolving Key (IRK).
    ///   - r: prand, the address's 24 most significant bits (higher bits are ignored).
    /// - Returns: the hash, the address's 24 least significant bits.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func ah(k: UInt128, r: UInt32) throws(BLECrypto.Error) -> UInt32 {
        let hash = try e(key: k, plaintext: UInt128(r & 0xFF_FFFF))
        return UInt32(truncatingIfNeeded: hash) & 0xFF_FFFF
    }
}
