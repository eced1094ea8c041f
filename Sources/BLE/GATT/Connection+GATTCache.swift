import BLEHost

// The front door's GATT cache (Core 5.4, Vol 3, Part G, §2.5.2, §7.3). Within a connection
// every peer's discovered tree is reused. Across connections only a bonded peer's is: it is
// saved in the bond record with the Database Hash it was found under, and taken again on a
// later connection when the hash the peer reports then is the same. A peer without a hash,
// a different hash or a Service Changed indication means discovering again. An unbonded
// peer's tree is never kept past its connection: without a trusted relationship §2.5.2 asks
// the client to discover on each connection.

extension Connection {
    /// The discovered trees of this device's connections.
    var trees: DiscoveredTrees { core.gatt.trees }

    /// Once per connection to a bonded peer: reads its Database Hash (§7.3, read by UUID,
    /// before anything is discovered, so a tree saved later matches the hash it is saved
    /// with) and takes the tree stored in the bond when it was found under the same hash;
    /// a different or missing hash forgets the stored tree.
    func checkStoredTree() async throws(BLEError) {
        let first = trees.with(self) { tree in
            defer { tree.checked = true }
            return !tree.checked
        }
        guard first, let record = core.security.bonds.record(for: peer) else { return }
        let hash = try await readDatabaseHash()
        let stored = record.gattCache
        let adopted = trees.with(self) { tree in
            tree.hashRead = true
            guard let stored, stored.isValid(forDatabaseHash: hash), !tree.primaryServicesDiscovered else {
                tree.cache.databaseHash = hash
                return false
            }
            tree.adopt(stored)
            return true
        }
        if adopted, let stored {
            // Indications of Service Changed must still reach the client (§7.1).
            await core.host.setServiceChangedHandles(stored.serviceChangedValueHandles, on: handle)
        } else if stored != nil {
            await core.security.bonds.saveGATTCache(nil, for: peer)
        }
    }

    /// Saves the tree in the bond when the peer is bonded, the tree holds every primary
    /// service and changed since the last save, and the peer has a Database Hash to check
    /// it with later (read now if this tree has none yet). A bonded peer's tree is saved
    /// the first time with its Service Changed indications enabled (§7.1), so a change
    /// made while we are connected reaches us; the server keeps that for a bonded client.
    /// Saving is an optimisation: when it fails (the link went down, the peer refused the
    /// configuration write) the app's call still returns what it discovered.
    func saveTreeIfBonded() async {
        do {
            try await saveTree()
        } catch {
            // Not saved now; the next discovery call on a live link tries again.
        }
    }

    private func saveTree() async throws(BLEError) {
        guard core.security.bonds.record(for: peer) != nil else { return }
        let pending = trees.with(self) { tree -> (needsHash: Bool, enableServiceChanged: Bool)? in
            guard tree.primaryServicesDiscovered, tree.version != tree.savedVersion else { return nil }
            return (!tree.hashRead, !tree.serviceChangedEnabled)
        }
        guard let pending else { return }
        if pending.needsHash {
            let hash = try await readDatabaseHash()
            trees.with(self) { tree in
                tree.hashRead = true
                tree.cache.databaseHash = hash
            }
        }
        if pending.enableServiceChanged {
            try await enableServiceChanged()
            trees.with(self) { tree in tree.serviceChangedEnabled = true }
        }
        let snapshot = trees.with(self) { tree -> (cache: GATTCache, version: Int) in (tree.cache, tree.version) }
        // A peer without a Database Hash cannot be checked later: its tree is not kept.
        await core.security.bonds.saveGATTCache(snapshot.cache.databaseHash == nil ? nil : snapshot.cache, for: peer)
        trees.with(self) { tree in tree.savedVersion = max(tree.savedVersion, snapshot.version) }
    }

    /// The peer's Database Hash, or `nil` when its server has none (§7.3).
    private func readDatabaseHash() async throws(BLEError) -> [UInt8]? {
        do {
            guard case let .handleValues(values) = try await gatt(.readDatabaseHash) else { return nil }
            return GATTCache.databaseHash(in: values)
        } catch let error {
            if case .att = error { return nil }  // Attribute Not Found, or a server that refuses
            throw error
        }
    }

    /// Discovers the characteristics of the peer's GATT service when not known yet and
    /// enables indications of its Service Changed characteristic (§7.1).
    func enableServiceChanged() async throws(BLEError) {
        let gattService = trees.with(self) { tree in tree.primaryServices?.first { $0.service.uuid == BluetoothUUID(0x1801) } }
        guard let gattService else { return }
        var characteristics = gattService.characteristics
        if !gattService.characteristicsDiscovered {
            characteristics = try await discoverCharacteristics(of: gattService.service)
        }
        guard let serviceChanged = characteristics.first(where: { $0.characteristic.uuid == GATTClient.serviceChangedUUID }),
              serviceChanged.characteristic.properties.contains(.indicate),
              let configuration = serviceChanged.descriptors.first(where: \.isClientCharacteristicConfiguration) else { return }
        do {
            _ = try await gatt(.configure(.indication, descriptor: configuration.handle))
        } catch let error {
            // A refusal leaves changes made while connected unseen; the hash read of the
            // next connection still finds them, so the tree is saved all the same.
            guard case .att = error else { throw error }
        }
    }

    /// Discovers the characteristics of `service` with their descriptors (§4.6.1, §4.7.1)
    /// and puts them in the tree.
    func discoverCharacteristics(of service: GATTDiscoveredService) async throws(BLEError) -> [GATTCachedCharacteristic] {
        guard case let .characteristics(found) = try await gatt(.discoverAllCharacteristics(in: service.handles)) else { return [] }
        var result: [GATTCachedCharacteristic] = []
        for characteristic in found {
            var descriptors: [GATTDiscoveredDescriptor] = []
            if characteristic.endHandle > characteristic.valueHandle,
               case let .descriptors(list) = try await gatt(.discoverAllDescriptors(of: characteristic)) {
                descriptors = list
            }
            result.append(GATTCachedCharacteristic(characteristic: characteristic, descriptors: descriptors))
        }
        trees.with(self) { tree in
            tree.update(service) { cached in
                cached.characteristics = result
                cached.characteristicsDiscovered = true
            }
        }
        return result
    }
}

extension RemoteService {
    /// The front door's view of a cached service.
    init(_ cached: GATTDiscoveredService) {
        self.init(uuid: cached.uuid, isPrimary: cached.isPrimary, handles: cached.handles)
    }

    /// The host's view, to key the tree with.
    var discovered: GATTDiscoveredService { GATTDiscoveredService(uuid: uuid, handles: handles, isPrimary: isPrimary) }
}

extension RemoteCharacteristic {
    /// The front door's view of a cached characteristic.
    init(_ cached: GATTCachedCharacteristic) {
        self.init(uuid: cached.characteristic.uuid, properties: cached.characteristic.properties,
                  valueHandle: cached.characteristic.valueHandle, declarationHandle: cached.characteristic.declarationHandle,
                  descriptors: cached.descriptors.map { RemoteDescriptor(uuid: $0.uuid, handle: $0.handle) })
    }
}
