extension BLECrypto {
    /// AES-CMAC (RFC 4493; Core 5.4, Vol 3, Part H, §2.2.5): a 128-bit message
    /// authentication code of `message` under `key`. It is the building block of f4, f5,
    /// f6, g2, h6 and h7, and of signed ATT writes.
    ///
    /// - Parameters:
    ///   - key: the 128-bit key, as the specification writes it.
    ///   - message: the octets in the order they are authenticated (M_1 first).
    /// - Returns: the tag, its first octet the most significant.
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
    public static func aesCMAC(key: UInt128, message: some Collection<UInt8>) throws(BLECrypto.Error) -> UInt128 {
        try CMAC(key: key).tag(message)
    }
}

/// AES-CMAC with its subkeys derived once (RFC 4493, §2.3 and §2.4).
struct CMAC {
    private let cipher: AESBlockCipher
    private let subkey1: UInt128
    private let subkey2: UInt128

    init(key: UInt128) throws(BLECrypto.Error) {
        cipher = AESBlockCipher(key: key)
        let l = try cipher.encrypt(0)
        subkey1 = Self.double(l)
        subkey2 = Self.double(subkey1)
    }

    /// Multiplication by x in GF(2^128) with the polynomial x^128 + x^7 + x^2 + x + 1
    /// (RFC 4493, §2.3, R_128 = 0x87).
    private static func double(_ value: UInt128) -> UInt128 {
        (value << 1) ^ (value >> 127 == 0 ? 0 : 0x87)
    }

    /// The tag of `message` (RFC 4493, §2.4). The last block is only known at the end, so
    /// one complete block is held back until another octet or the end arrives.
    func tag(_ message: some Collection<UInt8>) throws(BLECrypto.Error) -> UInt128 {
        var chain: UInt128 = 0
        var heldBlock: UInt128? = nil
        var block: UInt128 = 0
        var filled = 0
        for octet in message {
            if filled == 16 {
                if let held = heldBlock { chain = try cipher.encrypt(chain ^ held) }
                heldBlock = block
                block = 0
                filled = 0
            }
            block |= UInt128(octet) << (8 * (15 - filled))
            filled += 1
        }
        let last: UInt128
        if filled == 16 {
            if let held = heldBlock { chain = try cipher.encrypt(chain ^ held) }
            last = block ^ subkey1
        } else if filled > 0 {
            if let held = heldBlock { chain = try cipher.encrypt(chain ^ held) }
            last = (block | UInt128(0x80) << (8 * (15 - filled))) ^ subkey2
        } else {
            // Empty message: one padded block, 0x80 followed by zeros.
            last = (UInt128(0x80) << 120) ^ subkey2
        }
        return try cipher.encrypt(chain ^ last)
    }
}
