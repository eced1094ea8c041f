import Crypto

extension BLECrypto {
    /// A P-256 key pair for LE Secure Connections pairing (Core 5.4, Vol 3, Part H,
    /// §2.3.5.6): the public key is sent in the Pairing Public Key command and the DHKey
    /// computed with the peer's is the input of f5.
    ///
    /// Coordinates and keys are ``Value256`` numbers, most significant octet first; use
    /// ``Value256/littleEndianBytes`` and ``Value256/init(littleEndian:)`` for the SMP wire.
    public struct P256KeyPair: Sendable {
        // Kept as a number: swift-crypto's key type is not `Sendable` on Linux, so a key
        // object is made for each use.
        private let privateKey: Value256
        /// The X coordinate of the public key.
        public let publicX: Value256
        /// The Y coordinate of the public key.
        public let publicY: Value256

        /// A newly generated key pair from the system's secure random source.
        public init() {
            let key = P256.KeyAgreement.PrivateKey()
            // The raw representation of a P-256 private key is the 32-octet scalar.
            self.init(key: key, value: Value256(foldingBigEndian: key.rawRepresentation))
        }

        /// The key pair of a known private key, e.g. a stored one or the debug key.
        ///
        /// - Throws: ``Error/invalidPrivateKey`` if the key is zero or not below the order
        ///   of the curve.
        public init(privateKey: Value256) throws(BLECrypto.Error) {
            guard privateKey != Value256(high: 0, low: 0) else { throw .invalidPrivateKey }
            do {
                let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey.bigEndianBytes)
                self.init(key: key, value: privateKey)
            } catch {
                throw .invalidPrivateKey
            }
        }

        private init(key: P256.KeyAgreement.PrivateKey, value: Value256) {
            privateKey = value
            // The raw representation of a P-256 public key is X || Y, 32 octets each.
            let raw = key.publicKey.rawRepresentation
            publicX = Value256(foldingBigEndian: raw.prefix(32))
            publicY = Value256(foldingBigEndian: raw.dropFirst(32))
        }

        /// The private key, for storage. Treat it as secret.
        public var privateKeyValue: Value256 { privateKey }

        /// The Diffie-Hellman key with a peer's public key (Core 5.4, Vol 3, Part H,
        /// §2.3.5.6.1): the X coordinate of the shared point.
        ///
        /// The peer's key is validated first, as the specification requires since the
        /// invalid-curve attacks (erratum 10734): a point not on the curve, a coordinate
        /// not below the field prime, or the point at infinity (which has no affine
        /// coordinates, so (0, 0) here) is rejected.
        ///
        /// - Throws: ``Error/invalidPublicKey`` for such a point; ``Error/backendFailure(_:)``
        ///   if swift-crypto refuses our own private key again, which cannot happen as it
        ///   accepted it when this pair was made.
        public func dhKey(peerX: Value256, peerY: Value256) throws(BLECrypto.Error) -> Value256 {
            let ownKey: P256.KeyAgreement.PrivateKey
            do {
                ownKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey.bigEndianBytes)
            } catch {
                throw .backendFailure(String(describing: error))
            }
            let peer: P256.KeyAgreement.PublicKey
            do {
                peer = try P256.KeyAgreement.PublicKey(rawRepresentation: peerX.bigEndianBytes + peerY.bigEndianBytes)
            } catch {
                throw .invalidPublicKey
            }
            let secret: SharedSecret
            do {
                secret = try ownKey.sharedSecretFromKeyAgreement(with: peer)
            } catch {
                throw .invalidPublicKey
            }
            // The shared secret of P-256 ECDH is the 32-octet X coordinate of the shared point.
            return secret.withUnsafeBytes { Value256(foldingBigEndian: $0) }
        }

        /// Whether this pair's public key is the debug public key.
        public var isDebug: Bool {
            Self.isDebugPublicKey(x: publicX, y: publicY)
        }

        /// The debug private key of §2.3.5.6.1, for use only in debug mode.
        public static let debugPrivateKey = Value256(
            high: 0x3F49_F6D4_A3C5_5F38_74C9_B3E3_D210_3F50,
            low: 0x4AFF_607B_EB40_B799_5899_B8A6_CD3C_1ABD)
        /// The X coordinate of the debug public key (§2.3.5.6.1).
        public static let debugPublicX = Value256(
            high: 0x20B0_03D2_F297_BE2C_5E2C_83A7_E9F9_A5B9,
            low: 0xEFF4_9111_ACF4_FDDB_CC03_0148_0E35_9DE6)
        /// The Y coordinate of the debug public key (§2.3.5.6.1).
        public static let debugPublicY = Value256(
            high: 0xDC80_9C49_652A_EB6D_6332_9ABF_5A52_155C,
            low: 0x7663_45C2_8FED_3024_741C_8ED0_1589_D28B)

        /// The specification's debug key pair (Core 5.4, Vol 3, Part H, §2.3.5.6.1). Its
        /// private key is public knowledge: a pairing that uses it has no protection, so a
        /// device uses it only in debug mode, and a peer sending ``debugPublicX`` /
        /// ``debugPublicY`` can be recognised with ``isDebugPublicKey(x:y:)``.
        ///
        /// - Throws: only ``Error/invalidPrivateKey``, which cannot happen: the debug key is
        ///   a valid scalar (tests check it and that its public key is the specified one).
        public static var debug: P256KeyPair {
            get throws(BLECrypto.Error) { try P256KeyPair(privateKey: debugPrivateKey) }
        }

        /// Whether a public key is the specification's debug public key (§2.3.5.6.1), which
        /// a Security Manager not in debug mode may refuse.
        public static func isDebugPublicKey(x: Value256, y: Value256) -> Bool {
            x == debugPublicX && y == debugPublicY
        }
    }
}
