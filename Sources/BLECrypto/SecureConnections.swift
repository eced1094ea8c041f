extension BLECrypto {
    /// The 56-bit address argument A1 or A2 of f5 and f6 (Core 5.4, Vol 3, Part H, §2.2.7):
    /// the address type octet (0x00 public, 0x01 random) above the 48-bit address.
    ///
    /// - Parameters:
    ///   - isRandom: whether the address is a random one.
    ///   - address: the 48-bit address as written, e.g. `0x56123737BFCE` (higher bits ignored).
    public static func addressField(isRandom: Bool, address: UInt64) -> UInt64 {
        (isRandom ? 1 << 48 : 0) | (address & 0xFFFF_FFFF_FFFF)
    }

    /// LE Secure Connections confirm value generation function f4 (Core 5.4, Vol 3, Part H,
    /// §2.2.6): `AES-CMAC_X(U || V || Z)`.
    ///
    /// - Parameters:
    ///   - u: the sender's public key X coordinate (PKax or PKbx).
    ///   - v: the receiver's public key X coordinate.
    ///   - x: the key, the sender's nonce (Na or Nb).
    ///   - z: 0 for Just Works and Numeric Comparison, 0x80 | bit for Passkey Entry.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func f4(u: Value256, v: Value256, x: UInt128, z: UInt8) throws(BLECrypto.Error) -> UInt128 {
        var message: [UInt8] = []
        message.reserveCapacity(65)
        u.appendBigEndian(to: &message)
        v.appendBigEndian(to: &message)
        message.append(z)
        return try aesCMAC(key: x, message: message)
    }

    /// The two keys that f5 derives (Core 5.4, Vol 3, Part H, §2.2.7).
    public struct F5Keys: Hashable, Sendable {
        /// MacKey, the key of the DHKey checks computed with f6.
        public var macKey: UInt128
        /// The Long Term Key of the pairing.
        public var longTermKey: UInt128

        /// Both keys, as f5 returns them.
        public init(macKey: UInt128, longTermKey: UInt128) {
            self.macKey = macKey
            self.longTermKey = longTermKey
        }
    }

    /// The SALT of f5 (Core 5.4, Vol 3, Part H, §2.2.7).
    static let f5Salt: UInt128 = 0x6C88_8391_AAF5_A538_6037_0BDB_5A60_83BE

    /// LE Secure Connections key generation function f5 (Core 5.4, Vol 3, Part H, §2.2.7):
    /// `T = AES-CMAC_SALT(W)`, then MacKey and LTK are
    /// `AES-CMAC_T(Counter || keyID || N1 || N2 || A1 || A2 || Length)` with Counter 0 and 1,
    /// keyID "btle" (0x62746C65) and Length 256.
    ///
    /// - Parameters:
    ///   - w: the DHKey.
    ///   - n1: the initiating device's nonce (Na).
    ///   - n2: the responding device's nonce (Nb).
    ///   - a1: the initiating device's address field, see ``addressField(isRandom:address:)``.
    ///   - a2: the responding device's address field.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func f5(w: Value256, n1: UInt128, n2: UInt128, a1: UInt64, a2: UInt64) throws(BLECrypto.Error) -> F5Keys {
        let t = try aesCMAC(key: f5Salt, message: w.bigEndianBytes)
        let cmac = try CMAC(key: t)
        var message: [UInt8] = []
        message.reserveCapacity(53)
        message.append(0)  // Counter
        message.appendBigEndian(UInt64(0x6274_6C65), octets: 4)  // keyID "btle"
        message.appendBigEndian(n1)
        message.appendBigEndian(n2)
        message.appendBigEndian(a1, octets: 7)
        message.appendBigEndian(a2, octets: 7)
        message.appendBigEndian(UInt64(256), octets: 2)  // Length
        let macKey = try cmac.tag(message)
        message[0] = 1
        let longTermKey = try cmac.tag(message)
        return F5Keys(macKey: macKey, longTermKey: longTermKey)
    }

    /// LE Secure Connections check value generation function f6 (Core 5.4, Vol 3, Part H,
    /// §2.2.8): the DHKey check value `AES-CMAC_W(N1 || N2 || R || IOcap || A1 || A2)`.
    ///
    /// - Parameters:
    ///   - w: MacKey from ``f5(w:n1:n2:a1:a2:)``.
    ///   - n1: the nonce of the device whose check value this is (Na for Ea, Nb for Eb).
    ///   - n2: the other device's nonce.
    ///   - r: the other device's random value for Passkey Entry or OOB (rb for Ea), else 0.
    ///   - ioCap: 24 bits: AuthReq, OOB data flag and IO Capability of the device whose
    ///     check this is, AuthReq most significant (higher bits ignored).
    ///   - a1: that device's address field (``addressField(isRandom:address:)``).
    ///   - a2: the other device's address field.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func f6(
        w: UInt128, n1: UInt128, n2: UInt128, r: UInt128, ioCap: UInt32, a1: UInt64, a2: UInt64
    ) throws(BLECrypto.Error) -> UInt128 {
        var message: [UInt8] = []
        message.reserveCapacity(65)
        message.appendBigEndian(n1)
        message.appendBigEndian(n2)
        message.appendBigEndian(r)
        message.appendBigEndian(UInt64(ioCap), octets: 3)
        message.appendBigEndian(a1, octets: 7)
        message.appendBigEndian(a2, octets: 7)
        return try aesCMAC(key: w, message: message)
    }

    /// LE Secure Connections numeric comparison value generation function g2 (Core 5.4,
    /// Vol 3, Part H, §2.2.9): `AES-CMAC_X(U || V || Y) mod 2^32`, reduced to the six
    /// decimal digits both users compare.
    ///
    /// - Parameters:
    ///   - u: PKax, the initiating device's public key X coordinate.
    ///   - v: PKbx, the responding device's public key X coordinate.
    ///   - x: Na, the initiating device's nonce.
    ///   - y: Nb, the responding device's nonce.
    /// - Returns: a value in `0 ..< 1_000_000`, shown with leading zeros.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func g2(u: Value256, v: Value256, x: UInt128, y: UInt128) throws(BLECrypto.Error) -> UInt32 {
        var message: [UInt8] = []
        message.reserveCapacity(80)
        u.appendBigEndian(to: &message)
        v.appendBigEndian(to: &message)
        message.appendBigEndian(y)
        let tag = try aesCMAC(key: x, message: message)
        return UInt32(truncatingIfNeeded: tag) % 1_000_000
    }

    /// Link key conversion function h6 (Core 5.4, Vol 3, Part H, §2.2.10):
    /// `AES-CMAC_W(keyID)`, used to derive a BR/EDR link key from an LTK and back.
    ///
    /// - Parameters:
    ///   - w: the key.
    ///   - keyID: four ASCII octets as a number, e.g. 0x6C656272 for "lebr".
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func h6(w: UInt128, keyID: UInt32) throws(BLECrypto.Error) -> UInt128 {
        var message: [UInt8] = []
        message.reserveCapacity(4)
        message.appendBigEndian(UInt64(keyID), octets: 4)
        return try aesCMAC(key: w, message: message)
    }

    /// Link key conversion function h7 (Core 5.4, Vol 3, Part H, §2.2.11):
    /// `AES-CMAC_SALT(W)`, used instead of the first h6 step when both devices set CT2.
    ///
    /// - Parameters:
    ///   - salt: the 128-bit salt, e.g. 0x746D7031 ("tmp1") or 0x746D7032 ("tmp2").
    ///   - w: the key being converted.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func h7(salt: UInt128, w: UInt128) throws(BLECrypto.Error) -> UInt128 {
        var message: [UInt8] = []
        message.reserveCapacity(16)
        message.appendBigEndian(w)
        return try aesCMAC(key: salt, message: message)
    }
}
