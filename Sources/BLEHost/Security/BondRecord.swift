import BLEWire

/// What the host remembers about one bonded peer (Core 5.4, Vol 3, Part C, §9.4.4 Bonding;
/// Vol 3, Part H, §2.4): its identity, the keys both sides distributed, the security the
/// keys give, and the GATT state a bond carries across connections (CCCD values, Vol 3,
/// Part G, §3.3.3.3; the Database Hash, Part G, §2.5.2 and §7.3).
///
/// A record is a pure value: the host updates it and a store (BLEStorage's
/// `BondStoreFile`) persists it. Its JSON form is documented in docs/bonds.md.
public struct BondRecord: Hashable, Sendable {
    /// The peer's identity address: its public or random static address, given by its
    /// Identity Address Information or, when it sent none, the address it connected from.
    public var identityAddress: BluetoothAddress
    /// A UUID string made once when the bond is created and never changed: what an app sees
    /// as the peer's identifier (as `CBPeripheral.identifier`), whatever address it uses.
    public var peerIdentifier: String
    /// The key both sides derived in LE Secure Connections pairing (Vol 3, Part H,
    /// §2.3.5.6.5), used with EDIV and Rand zero in either role; `nil` for a legacy bond.
    public var secureConnectionsLongTermKey: UInt128?
    /// The encryption key size negotiated in pairing, 7–16 octets (Vol 3, Part H, §2.3.4).
    public var keySize: Int
    /// The security level a link encrypted with this bond's key has (Vol 3, Part C, §10.2.1).
    public var securityLevel: LinkSecurityLevel
    /// The keys the peer distributed: its legacy LTK (which we use as central), its IRK and
    /// its CSRK with the last sign counter accepted.
    public var peerKeys: BondKeys
    /// The keys we distributed to the peer: our legacy LTK (which we look up when the peer,
    /// as central, asks for it by EDIV and Rand), our IRK and our CSRK with its next counter.
    public var localKeys: BondKeys
    /// The peer's Client Characteristic Configuration values on our GATT server, by the
    /// characteristic's value handle; they survive reconnection for a bonded client (Vol 3,
    /// Part G, §3.3.3.3).
    public var clientConfigurations: [UInt16: UInt16]
    /// The peer's Database Hash (16 octets) when we cached its GATT database, so a
    /// reconnection can tell whether the cache is still valid (Vol 3, Part G, §2.5.2).
    public var databaseHash: [UInt8]?
    /// The peer's GATT tree as our client discovered it under ``databaseHash`` (services,
    /// and what was discovered inside them), reused on reconnection while the peer's
    /// Database Hash still matches (Vol 3, Part G, §2.5.2, §7.3); `nil` when none is cached.
    public var gattServices: [GATTCachedService]?
    /// When the bond was created, in seconds since 1970-01-01T00:00:00Z.
    public var created: Int64
    /// When the record last changed, in seconds since 1970-01-01T00:00:00Z.
    public var updated: Int64

    /// A record with every field.
    public init(
        identityAddress: BluetoothAddress, peerIdentifier: String,
        secureConnectionsLongTermKey: UInt128? = nil, keySize: Int = 16,
        securityLevel: LinkSecurityLevel, peerKeys: BondKeys = BondKeys(), localKeys: BondKeys = BondKeys(),
        clientConfigurations: [UInt16: UInt16] = [:], databaseHash: [UInt8]? = nil,
        gattServices: [GATTCachedService]? = nil, created: Int64, updated: Int64? = nil
    ) {
        self.identityAddress = identityAddress
        self.peerIdentifier = peerIdentifier
        self.secureConnectionsLongTermKey = secureConnectionsLongTermKey
        self.keySize = keySize
        self.securityLevel = securityLevel
        self.peerKeys = peerKeys
        self.localKeys = localKeys
        self.clientConfigurations = clientConfigurations
        self.databaseHash = databaseHash
        self.gattServices = gattServices
        self.created = created
        self.updated = updated ?? created
    }

    /// The GATT cache this bond holds: the tree with the Database Hash it was discovered
    /// under, or `nil` when there is no tree or no hash to check it with (§2.5.2). Setting
    /// `nil` forgets both.
    public var gattCache: GATTCache? {
        get {
            guard let gattServices, let databaseHash else { return nil }
            return GATTCache(services: gattServices, databaseHash: databaseHash)
        }
        set {
            gattServices = newValue?.services
            databaseHash = newValue?.databaseHash
        }
    }

    /// Whether the bond came from LE Secure Connections pairing.
    public var isSecureConnections: Bool { secureConnectionsLongTermKey != nil }

    /// The key and identifiers we, as central, start encryption with (Vol 4, Part E,
    /// §7.8.24): the Secure Connections key with EDIV and Rand zero, else the LTK the peer
    /// distributed; `nil` when the bond holds neither.
    public var keyForStartingEncryption: BondLongTermKey? {
        if let key = secureConnectionsLongTermKey { return BondLongTermKey(key: key) }
        return peerKeys.longTermKey
    }

    /// The key we, as peripheral, answer an LE Long Term Key Request with (Vol 4, Part E,
    /// §7.7.65.5, §7.8.25): the Secure Connections key when EDIV and Rand are zero, else our
    /// distributed legacy LTK when its EDIV and Rand match; `nil` means a negative reply.
    public func keyForRequest(ediv: UInt16, rand: UInt64) -> UInt128? {
        if let key = secureConnectionsLongTermKey {
            return ediv == 0 && rand == 0 ? key : nil
        }
        guard let local = localKeys.longTermKey, local.ediv == ediv, local.rand == rand else { return nil }
        return local.key
    }

    /// A new peer identifier: a random (version 4) UUID in its uppercase text form, e.g.
    /// `1B4E28BA-2FA1-41D2-883F-0016D3CCA427` (RFC 9562, §5.4). Randomness is injected so a
    /// simulation stays deterministic.
    public static func makePeerIdentifier(using generator: inout some RandomNumberGenerator) -> String {
        var octets = (0 ..< 2).flatMap { _ -> [UInt8] in
            let word = generator.next()
            return (0 ..< 8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
        }
        octets[6] = octets[6] & 0x0F | 0x40 // version 4
        octets[8] = octets[8] & 0x3F | 0x80 // RFC variant
        let hex = Hex.encode(octets, uppercase: true)
        let cuts = [8, 12, 16, 20]
        var text = ""
        for (index, character) in hex.enumerated() {
            if cuts.contains(index) { text.append("-") }
            text.append(character)
        }
        return text
    }
}
