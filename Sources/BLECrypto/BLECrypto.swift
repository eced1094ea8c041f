/// Cryptographic functions of Bluetooth LE: the AES-128 block function, AES-CMAC, the
/// Security Manager toolbox (Core 5.4, Vol 3, Part H, §2.2), P-256 ECDH and the link
/// layer's AES-CCM (Core 5.4, Vol 6, Part E).
///
/// Conventions: a 128-bit value (key, random, confirm value) is a `UInt128` holding the
/// number as the specification writes it, most significant octet first in the text; it is
/// handed to AES as its big-endian octets. A 256-bit value (P-256 coordinate, DHKey) is a
/// ``Value256``. Octet strings of any length (CMAC messages, CCM payloads) are collections
/// of `UInt8` in the order they are processed or sent.
public enum BLECrypto {}

extension BLECrypto {
    /// Why a cryptographic function refused its input or could not finish.
    ///
    /// Functions that take values from a peer (a public key, an encrypted packet) throw the
    /// cases that name that input. ``backendFailure(_:)`` is the one residual case of the
    /// functions built on swift-crypto's AES: those APIs throw for key or block sizes other
    /// than 16 octets, which our `UInt128` parameters make impossible, so it is not expected
    /// in practice; it is passed to the caller rather than hidden or turned into a trap.
    public enum Error: Swift.Error, Hashable, Sendable {
        /// A peer's P-256 public key is not a point on the curve (or a coordinate is not
        /// below the field prime), so no DHKey may be computed with it (Vol 3, Part H,
        /// §2.3.5.6.1).
        case invalidPublicKey
        /// A P-256 private key is zero or not below the order of the curve.
        case invalidPrivateKey
        /// A received packet's Message Integrity Check does not match (Vol 6, Part E, §1):
        /// the packet was altered, or key, counter, direction or header differ.
        case micFailure
        /// A link-layer payload longer than the 247 octets that leave room for the MIC in
        /// a 251-octet PDU; carries the length given.
        case payloadTooLong(Int)
        /// An encrypted link-layer payload shorter than the 4-octet MIC; carries the length.
        case encryptedPayloadTooShort(Int)
        /// A packet counter that does not fit the nonce's 39 bits; carries the counter.
        case packetCounterOutOfRange(UInt64)
        /// An octet string of the wrong length where a fixed size is required.
        case invalidLength(expected: Int, actual: Int)
        /// The cryptographic library failed where it is documented to fail only for
        /// argument sizes that cannot occur here; carries its description.
        case backendFailure(String)
    }
}
