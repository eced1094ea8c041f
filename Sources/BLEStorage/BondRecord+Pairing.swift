import BLEHost
import BLEWire

extension BondKeys {
    /// The keys one side distributed in a pairing's phase 3 (Core 5.4, Vol 3, Part H,
    /// §3.6): its legacy LTK with EDIV and Rand, its IRK, its CSRK with a zero counter.
    public init(distributed keys: SMPKeys) {
        self.init(
            longTermKey: keys.longTermKey.map { BondLongTermKey(key: $0.key, ediv: $0.encryptedDiversifier, rand: $0.random) },
            identityResolvingKey: keys.identity?.identityResolvingKey,
            signingKey: keys.signatureKey.map { BondSigningKey(key: $0) }
        )
    }
}

extension BondRecord {
    /// The identity a pairing's peer is bonded under (Core 5.4, Vol 3, Part H, §3.6.5): the
    /// address of its Identity Address Information, else the address it connected from.
    public static func identity(of result: SMPPairingResult, peer: BluetoothAddress) -> BluetoothAddress {
        result.peerKeys.identity?.identityAddress ?? peer
    }

    /// The bond a completed pairing makes (Core 5.4, Vol 3, Part C, §9.4.4): the peer's
    /// identity, the Secure Connections key or both sides' legacy keys, the key size and
    /// the level. A re-pairing keeps what outlives keys from `previous` (the peer
    /// identifier, the creation time, CCCD values and the GATT cache: tree and Database Hash).
    /// - Parameters:
    ///   - result: the pairing's outcome.
    ///   - peer: the address the peer connected from.
    ///   - previous: the bond the peer had before, if any.
    ///   - peerIdentifier: the identifier a new bond gets (ignored when `previous` exists).
    ///   - now: seconds since 1970-01-01T00:00:00Z.
    public init(pairing result: SMPPairingResult, peer: BluetoothAddress, previous: BondRecord?,
                peerIdentifier: String, now: Int64) {
        self.init(
            identityAddress: Self.identity(of: result, peer: peer),
            peerIdentifier: previous?.peerIdentifier ?? peerIdentifier,
            secureConnectionsLongTermKey: result.secureConnectionsLongTermKey,
            keySize: Int(result.keySize),
            securityLevel: result.level,
            peerKeys: BondKeys(distributed: result.peerKeys),
            localKeys: BondKeys(distributed: result.localKeys),
            clientConfigurations: previous?.clientConfigurations ?? [:],
            databaseHash: previous?.databaseHash,
            gattServices: previous?.gattServices,
            created: previous?.created ?? now,
            updated: now
        )
    }
}
