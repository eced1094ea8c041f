import Crypto

extension BLECrypto {
    /// The SHA-256 digest (FIPS 180-4) of `message`: 32 octets. Not a Bluetooth security
    /// function; used to derive stable, non-reversible identifiers from addresses (e.g.
    /// OpenCoreBluetooth's `CBPeripheral.identifier`, RFC 9562 §5.5-style name-based UUIDs).
    public static func sha256<Message: Sequence<UInt8>>(_ message: Message) -> [UInt8] {
        Array(SHA256.hash(data: Array(message)))
    }
}
