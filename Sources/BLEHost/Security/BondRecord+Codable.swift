import BLEWire

extension BondRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case identityAddress, identityAddressType, peerIdentifier, secureConnectionsLongTermKey, keySize,
             securityLevel, peerKeys, localKeys, clientConfigurations, databaseHash, gattServices, created, updated
    }

    /// Reads the JSON object docs/bonds.md describes; a missing required field, a wrong
    /// type, bad hex, a key size outside 7–16 or an unknown security level is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identityAddress = try BondCoding.decodeAddress(container, address: .identityAddress, type: .identityAddressType)
        peerIdentifier = try container.decode(String.self, forKey: .peerIdentifier)
        secureConnectionsLongTermKey = try BondCoding.decodeHexIfPresent(container, .secureConnectionsLongTermKey, digits: 32)
        keySize = try container.decode(Int.self, forKey: .keySize)
        guard (7 ... 16).contains(keySize) else {
            throw DecodingError.dataCorruptedError(forKey: .keySize, in: container,
                                                   debugDescription: "key size \(keySize) is outside 7–16")
        }
        let levelName = try container.decode(String.self, forKey: .securityLevel)
        guard let level = BondCoding.level(named: levelName) else {
            throw DecodingError.dataCorruptedError(forKey: .securityLevel, in: container,
                                                   debugDescription: "unknown security level \"\(levelName)\"")
        }
        securityLevel = level
        peerKeys = try container.decodeIfPresent(BondKeys.self, forKey: .peerKeys) ?? BondKeys()
        localKeys = try container.decodeIfPresent(BondKeys.self, forKey: .localKeys) ?? BondKeys()
        let configurations = try container.decodeIfPresent([String: UInt16].self, forKey: .clientConfigurations) ?? [:]
        var byHandle: [UInt16: UInt16] = [:]
        for (handleText, value) in configurations {
            guard handleText.hasPrefix("0x"), let number = BondCoding.number(hex: String(handleText.dropFirst(2)), digits: 4) else {
                throw DecodingError.dataCorruptedError(forKey: .clientConfigurations, in: container,
                                                       debugDescription: "expected a handle like 0x002A, found \"\(handleText)\"")
            }
            byHandle[UInt16(number)] = value
        }
        clientConfigurations = byHandle
        if let hashText = try container.decodeIfPresent(String.self, forKey: .databaseHash) {
            guard let octets = Hex.decode(hashText), octets.count == 16, hashText.utf8.count == 32 else {
                throw DecodingError.dataCorruptedError(forKey: .databaseHash, in: container,
                                                       debugDescription: "expected 32 hex digits, found \"\(hashText)\"")
            }
            databaseHash = octets
        } else {
            databaseHash = nil
        }
        gattServices = try container.decodeIfPresent([GATTCachedService].self, forKey: .gattServices)
        created = try container.decode(Int64.self, forKey: .created)
        updated = try container.decode(Int64.self, forKey: .updated)
    }

    /// Writes the JSON object docs/bonds.md describes; absent optional fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identityAddress.description, forKey: .identityAddress)
        try container.encode(BondCoding.name(of: identityAddress.kind), forKey: .identityAddressType)
        try container.encode(peerIdentifier, forKey: .peerIdentifier)
        try container.encodeIfPresent(secureConnectionsLongTermKey.map { BondCoding.hex($0, digits: 32) },
                                      forKey: .secureConnectionsLongTermKey)
        try container.encode(keySize, forKey: .keySize)
        try container.encode(BondCoding.name(of: securityLevel), forKey: .securityLevel)
        if !peerKeys.isEmpty { try container.encode(peerKeys, forKey: .peerKeys) }
        if !localKeys.isEmpty { try container.encode(localKeys, forKey: .localKeys) }
        if !clientConfigurations.isEmpty {
            let byText = Dictionary(uniqueKeysWithValues: clientConfigurations.map { handle, value in
                ("0x" + BondCoding.hex(UInt128(handle), digits: 4).uppercased(), value)
            })
            try container.encode(byText, forKey: .clientConfigurations)
        }
        try container.encodeIfPresent(databaseHash.map { Hex.encode($0) }, forKey: .databaseHash)
        try container.encodeIfPresent(gattServices, forKey: .gattServices)
        try container.encode(created, forKey: .created)
        try container.encode(updated, forKey: .updated)
    }
}
