import Crypto
import _CryptoExtras

extension BLECrypto {
    /// Security function e (Core 5.4, Vol 3, Part H, §2.2.1): AES-128 encryption of one
    /// block as FIPS-197 defines it. The key and plaintext go to AES as their big-endian
    /// octets, so `e(key: 0x000102…0f, plaintext: …)` is the FIPS-197 example as printed.
    ///
    /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen: swift-crypto's
    ///   block function fails only for keys or blocks other than 16 octets, and both
    ///   arguments are fixed at 128 bits.
    public static func e(key: UInt128, plaintext: UInt128) throws(BLECrypto.Error) -> UInt128 {
        try AESBlockCipher(key: key).encrypt(plaintext)
    }
}

/// One AES-128 key prepared for repeated single-block encryptions: the key material is
/// copied once, so CMAC and CCM pay no allocation per block. Not `Sendable` (swift-crypto's
/// `SymmetricKey` is not on Linux), so it lives only for the length of one operation.
struct AESBlockCipher {
    private let key: SymmetricKey

    init(key: UInt128) {
        var octets = key.bigEndian
        self.key = withUnsafeBytes(of: &octets) { SymmetricKey(data: $0) }
    }

    /// AES-128 of one block, both as big-endian numbers.
    func encrypt(_ block: UInt128) throws(BLECrypto.Error) -> UInt128 {
        var state = block.bigEndian
        let failure: (any Swift.Error)? = withUnsafeMutableBytes(of: &state) { raw in
            raw.withMemoryRebound(to: UInt8.self) { octets in
                var octets = octets
                do {
                    try AES.permute(&octets, key: key)
                    return nil
                } catch {
                    return error
                }
            }
        }
        if let failure { throw .backendFailure(String(describing: failure)) }
        return UInt128(bigEndian: state)
    }
}
