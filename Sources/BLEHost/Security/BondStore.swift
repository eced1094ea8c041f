import BLECrypto
import BLEWire

/// Every bond one adapter holds, with the adapter's own identity (Core 5.4, Vol 3, Part C,
/// §10.7: the IRK and identity address we distribute): the value a store file holds
/// (BLEStorage's `BondStoreFile`). Records are keyed by the peer's identity address.
public struct BondStore: Hashable, Sendable {
    /// The version of the JSON form this code writes; a file of a newer version is refused
    /// rather than misread.
    public static let formatVersion = 1

    /// Our identity address, which we distribute in Identity Address Information.
    public var localIdentityAddress: BluetoothAddress?
    /// Our Identity Resolving Key, from which our resolvable private addresses are made
    /// (Vol 3, Part C, §10.8.2.2) and which we distribute in Identity Information.
    public var localIdentityResolvingKey: UInt128?
    /// The bonds by the peer's identity address.
    public private(set) var records: [BluetoothAddress: BondRecord]

    /// A store with our identity and no bonds, or the given records.
    public init(localIdentityAddress: BluetoothAddress? = nil, localIdentityResolvingKey: UInt128? = nil,
                records: [BondRecord] = []) {
        self.localIdentityAddress = localIdentityAddress
        self.localIdentityResolvingKey = localIdentityResolvingKey
        self.records = [:]
        for record in records { self.records[record.identityAddress] = record }
    }

    /// The bond with the peer whose identity address is `identity`.
    public subscript(identity: BluetoothAddress) -> BondRecord? { records[identity] }

    /// The bonds sorted by identity address, the order lists and files show them in.
    public var sortedRecords: [BondRecord] { records.values.sorted { $0.identityAddress < $1.identityAddress } }

    /// Adds `record` or replaces the one with the same identity address.
    public mutating func insert(_ record: BondRecord) { records[record.identityAddress] = record }

    /// Removes the bond with `identity`, returning it, or `nil` when there was none.
    @discardableResult
    public mutating func removeRecord(for identity: BluetoothAddress) -> BondRecord? {
        records.removeValue(forKey: identity)
    }

    /// The bond whose stable peer identifier is `peerIdentifier` (compared ignoring case).
    public func record(peerIdentifier: String) -> BondRecord? {
        let wanted = peerIdentifier.uppercased()
        return records.values.first { $0.peerIdentifier.uppercased() == wanted }
    }

    /// The identity resolving keys of the bonded peers that distributed one, for resolving
    /// their private addresses (Vol 3, Part C, §10.8.2.3).
    public var resolvingList: [ResolvingListEntry] {
        sortedRecords.compactMap { record in
            record.peerKeys.identityResolvingKey.map { ResolvingListEntry(identityAddress: record.identityAddress, identityResolvingKey: $0) }
        }
    }

    /// The bond a connection from `address` belongs to: the record with that identity
    /// address, else the record whose peer IRK resolves `address` when it is a resolvable
    /// private address (Vol 6, Part B, §1.3.2.3).
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public func record(for address: BluetoothAddress) throws(BLECrypto.Error) -> BondRecord? {
        if let direct = records[address] { return direct }
        guard let identity = try ResolvablePrivateAddress.resolve(address, in: resolvingList) else { return nil }
        return records[identity]
    }
}

extension BondStore: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, localIdentityAddress, localIdentityAddressType, localIdentityResolvingKey, bonds
    }

    /// Reads `{"version": 1, "localIdentityAddress"…, "bonds": [...]}` (docs/bonds.md). A
    /// version other than ``formatVersion`` or two bonds with one identity is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container,
                                                   debugDescription: "unsupported bond store version \(version)")
        }
        if container.contains(.localIdentityAddress) {
            localIdentityAddress = try BondCoding.decodeAddress(container, address: .localIdentityAddress,
                                                                type: .localIdentityAddressType)
        } else {
            localIdentityAddress = nil
        }
        localIdentityResolvingKey = try BondCoding.decodeHexIfPresent(container, .localIdentityResolvingKey, digits: 32)
        records = [:]
        for record in try container.decode([BondRecord].self, forKey: .bonds) {
            guard records[record.identityAddress] == nil else {
                throw DecodingError.dataCorruptedError(forKey: .bonds, in: container,
                                                       debugDescription: "two bonds with identity \(record.identityAddress)")
            }
            records[record.identityAddress] = record
        }
    }

    /// Writes the form ``init(from:)`` reads, bonds sorted by identity address.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        if let address = localIdentityAddress {
            try container.encode(address.description, forKey: .localIdentityAddress)
            try container.encode(BondCoding.name(of: address.kind), forKey: .localIdentityAddressType)
        }
        try container.encodeIfPresent(localIdentityResolvingKey.map { BondCoding.hex($0, digits: 32) },
                                      forKey: .localIdentityResolvingKey)
        try container.encode(sortedRecords, forKey: .bonds)
    }
}
