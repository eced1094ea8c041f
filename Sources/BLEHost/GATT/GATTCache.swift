import BLEWire

/// A characteristic with its descriptors, as a cache keeps it.
public struct GATTCachedCharacteristic: Hashable, Sendable {
    /// The discovered characteristic.
    public var characteristic: GATTDiscoveredCharacteristic
    /// Its descriptors.
    public var descriptors: [GATTDiscoveredDescriptor]

    /// A cached characteristic from its parts.
    public init(characteristic: GATTDiscoveredCharacteristic, descriptors: [GATTDiscoveredDescriptor] = []) {
        self.characteristic = characteristic
        self.descriptors = descriptors
    }
}

/// A service with everything found inside it, as a cache keeps it.
public struct GATTCachedService: Hashable, Sendable {
    /// The discovered service.
    public var service: GATTDiscoveredService
    /// The services it includes.
    public var includedServices: [GATTDiscoveredIncludedService]
    /// Its characteristics, in handle order.
    public var characteristics: [GATTCachedCharacteristic]
    /// Whether ``characteristics`` (with their descriptors) were discovered: a client that
    /// discovers lazily may hold a service before what is inside it.
    public var characteristicsDiscovered: Bool
    /// Whether ``includedServices`` were discovered (§4.5.1).
    public var includedServicesDiscovered: Bool

    /// A cached service from its parts; by default everything inside it counts as discovered.
    public init(service: GATTDiscoveredService, includedServices: [GATTDiscoveredIncludedService] = [],
                characteristics: [GATTCachedCharacteristic] = [],
                characteristicsDiscovered: Bool = true, includedServicesDiscovered: Bool = true) {
        self.service = service
        self.includedServices = includedServices
        self.characteristics = characteristics
        self.characteristicsDiscovered = characteristicsDiscovered
        self.includedServicesDiscovered = includedServicesDiscovered
    }
}

/// Who a cache belongs to: a bonded peer's identity address (Core 5.4, Vol 3, Part G,
/// §2.5.2: a client may only keep attribute handles across connections for a trusted,
/// bonded server, or one with a Database Hash to check).
public struct GATTCacheKey: Hashable, Sendable {
    /// The peer's identity address (public or static random).
    public var identityAddress: BluetoothAddress

    /// A key for a peer.
    public init(identityAddress: BluetoothAddress) { self.identityAddress = identityAddress }
}

/// What a client learnt of one server's database (Core 5.4, Vol 3, Part G, §2.5.2, §7.3):
/// the discovered tree and the Database Hash it was discovered under. A Service Changed
/// indication invalidates a range; a different Database Hash invalidates everything.
public struct GATTCache: Hashable, Sendable {
    /// The services found, in handle order; services touched by an invalidated range are gone.
    public var services: [GATTCachedService]
    /// The 16-octet Database Hash the tree matches, when the server has one.
    public var databaseHash: [UInt8]?
    /// Ranges a Service Changed indication named that have not been discovered again.
    public var rangesToRediscover: [ClosedRange<ATT.Handle>]

    /// A cache from a discovered tree.
    public init(services: [GATTCachedService] = [], databaseHash: [UInt8]? = nil) {
        self.services = services
        self.databaseHash = databaseHash
        rangesToRediscover = []
    }

    /// Whether the tree may be used: complete, and discovered under this Database Hash.
    /// Without a hash on either side the cache cannot be checked and is not valid.
    public func isValid(forDatabaseHash hash: [UInt8]?) -> Bool {
        guard let hash, let databaseHash else { return false }
        return rangesToRediscover.isEmpty && hash == databaseHash
    }

    /// Forgets every service that overlaps `range`, as after Service Changed (§7.1), and
    /// the Database Hash, which no longer describes the tree.
    public mutating func invalidate(_ range: ClosedRange<ATT.Handle>) {
        services.removeAll { $0.service.handles.overlaps(range) }
        rangesToRediscover.append(range)
        databaseHash = nil
    }

    /// Puts services discovered again into the tree, replacing any with the same
    /// declaration handle, and marks `range` as rediscovered.
    public mutating func merge(_ rediscovered: [GATTCachedService], rediscovering range: ClosedRange<ATT.Handle>) {
        let handles = Set(rediscovered.map(\.service.handles.lowerBound))
        services.removeAll { handles.contains($0.service.handles.lowerBound) }
        services += rediscovered
        services.sort { $0.service.handles.lowerBound < $1.service.handles.lowerBound }
        rangesToRediscover.removeAll { range.lowerBound <= $0.lowerBound && $0.upperBound <= range.upperBound }
    }

    /// The value handles of Service Changed characteristics in the tree, for
    /// ``GATTClient/serviceChangedValueHandles``.
    public var serviceChangedValueHandles: Set<ATT.Handle> {
        var handles: Set<ATT.Handle> = []
        for service in services {
            for cached in service.characteristics where cached.characteristic.uuid == GATTClient.serviceChangedUUID {
                handles.insert(cached.characteristic.valueHandle)
            }
        }
        return handles
    }

    /// The Database Hash in a result of ``GATTProcedure/readDatabaseHash``: the first
    /// 16-octet value, or `nil` when the server has none.
    public static func databaseHash(in values: [GATTHandleValue]) -> [UInt8]? {
        values.first { $0.value.count == 16 }?.value
    }
}

/// The caches a host keeps, one per bonded peer.
public struct GATTCacheStore: Hashable, Sendable {
    /// Caches by peer.
    public var caches: [GATTCacheKey: GATTCache]

    /// An empty store.
    public init(caches: [GATTCacheKey: GATTCache] = [:]) { self.caches = caches }

    /// The cache for a peer if it is valid under the hash the server reports now; an
    /// invalid one is dropped.
    public mutating func validCache(for key: GATTCacheKey, databaseHash: [UInt8]?) -> GATTCache? {
        guard let cache = caches[key] else { return nil }
        guard cache.isValid(forDatabaseHash: databaseHash) else {
            caches[key] = nil
            return nil
        }
        return cache
    }
}
