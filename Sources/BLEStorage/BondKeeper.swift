import BLEHost
import BLEWire
import Foundation

/// Keeps an adapter's bonds for a ``BLEHost/Host`` (Core 5.4, Vol 3, Part C, §9.4.4;
/// Vol 3, Part H, §2.4.4): saves the keys of every bonding pairing to the bond store file,
/// and hands stored keys back when a bonded peer reconnects — as central the key we start
/// encryption with (LE Enable Encryption, Vol 4, Part E, §7.8.24, also when the peripheral
/// sends a Security Request), as peripheral the key the controller's LE Long Term Key
/// Request asks for (Vol 4, Part E, §7.7.65.5). Peers using resolvable private addresses
/// are found through their IRK (Vol 6, Part B, §1.3.2.3).
///
/// Used by the `ble` commands and by the BLE front door; one keeper per host and store file.
public actor BondKeeper {
    /// What the keeper saw and did, for whoever shows pairing to a user.
    public enum Event: Hashable, Sendable {
        /// A pairing completed on `connection`; `record` is the bond saved, `nil` when the
        /// pairing did not bond (either side asked for no bonding).
        case paired(connection: UInt16, peer: BluetoothAddress, result: SMPPairingResult, record: BondRecord?)
        /// A pairing failed on `connection`.
        case pairingFailed(connection: UInt16, peer: BluetoothAddress, failure: SMPPairingFailure)
        /// A bond could not be written to the store file (it stays in memory).
        case saveFailed(BondStoreFileError)
    }

    /// The bonds held, with our identity.
    public internal(set) var store: BondStore
    /// Where bonds are saved; `nil` keeps them in memory only.
    public nonisolated let file: BondStoreFile?
    /// The most bonds kept: a new bond past it displaces the least recently updated one
    /// (``BLEHost/BondStore/insert(_:keepingAtMost:)``, docs/limits.md).
    public var maximumBonds = BondStore.defaultMaximumBonds
    /// Bonds displaced to stay within ``maximumBonds`` since the keeper was made.
    public private(set) var evictedBonds = 0
    private let clock: @Sendable () -> Int64
    private var generator = StackRandom()
    private var subscribers: [UUID: AsyncStream<Event>.Continuation] = [:]
    private var watchers: [Task<Void, Never>] = []

    /// A keeper of `store`, saving to `file` when given.
    /// - Parameter clock: seconds since 1970-01-01T00:00:00Z, for the records' times.
    /// - Parameter maximumBonds: the most bonds kept (``maximumBonds``).
    public init(store: BondStore = BondStore(), file: BondStoreFile? = nil,
                maximumBonds: Int = BondStore.defaultMaximumBonds,
                clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.store = store
        self.file = file
        self.maximumBonds = max(maximumBonds, 1)
        self.clock = clock
    }

    /// A keeper of the store in `file`, loaded now (a missing file is an empty store).
    /// - Throws: what ``BondStoreFile/load(now:)`` throws.
    public static func load(_ file: BondStoreFile) throws(BondStoreFileError) -> BondKeeper {
        BondKeeper(store: try file.load(), file: file)
    }

    /// Installs the keeper on `host`: the peripheral's LTK provider, the central's
    /// bonded-key lookup, and a task consuming `host.securityEvents` (which has one reader:
    /// use ``events()`` to follow pairings as well) that saves every bonding pairing.
    public func attach(to host: BLEHost.Host) async {
        await host.setLongTermKeyProvider { [weak self] request in await self?.longTermKey(for: request) }
        await host.setBondedKeyLookup { [weak self] peer in
            guard let key = await self?.encryptionKey(for: peer) else { return nil }
            return (key.key.key, key.key.ediv, key.key.rand, key.level)
        }
        let stream = host.securityEvents
        watchers.append(Task { [weak self] in
            for await event in stream { await self?.handle(event) }
        })
    }

    /// Stops following the hosts attached to (their providers stay installed).
    public func detach() {
        for watcher in watchers { watcher.cancel() }
        watchers = []
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers = [:]
    }

    /// A stream of the events from now on (each call makes a new stream).
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    /// The bond of the peer at `address` (its identity address, or a resolvable private
    /// address its IRK resolves), or `nil`.
    public func record(for address: BluetoothAddress) -> BondRecord? {
        (try? store.record(for: address)) ?? nil
    }

    /// The key we, as central, encrypt a link to `peer` with, and the level it gives; `nil`
    /// when there is no bond or it holds no key for that role.
    public func encryptionKey(for peer: BluetoothAddress) -> (key: BondLongTermKey, level: LinkSecurityLevel)? {
        guard let record = record(for: peer), let key = record.keyForStartingEncryption else { return nil }
        return (key, record.securityLevel)
    }

    /// The answer to the controller's LE Long Term Key Request when we are peripheral.
    public func longTermKey(for request: LongTermKeyRequest) -> (longTermKey: UInt128, level: LinkSecurityLevel)? {
        guard let record = record(for: request.peer),
              let key = record.keyForRequest(ediv: request.ediv, rand: request.rand) else { return nil }
        return (key, record.securityLevel)
    }

    /// Encrypts link `handle` of `host`, where we are central, with the stored key of its
    /// peer (Vol 3, Part H, §2.4.4: no pairing again). Returns `nil` when the peer has no
    /// bond, so the caller can pair instead.
    /// - Throws: what ``BLEHost/Host/startEncryption(_:ltk:ediv:rand:level:)`` throws, e.g.
    ///   PIN or Key Missing (0x06) when the peer lost the bond.
    public func encrypt(_ handle: UInt16, on host: BLEHost.Host) async throws -> LinkEncryption? {
        guard let link = await host.connections.first(where: { $0.handle == handle }),
              let key = encryptionKey(for: link.peer) else { return nil }
        return try await host.startEncryption(handle, ltk: key.key.key, ediv: key.key.ediv, rand: key.key.rand, level: key.level)
    }

    /// Tells `host` whether the peer of `connection` is bonded, so our GATT server answers
    /// Insufficient Encryption rather than Insufficient Authentication (Vol 3, Part C, §10.3.1),
    /// and gives its server the peer's CSRK when the bond holds one (signed writes).
    public func noteConnection(_ connection: GAPConnection, on host: BLEHost.Host) async {
        let bond = record(for: connection.peer)
        await host.setLinkHasKey(connection.handle, bond != nil)
        // The peer's CSRK lets our server verify its signed writes (Vol 3, Part H, §2.4.5).
        if let signing = bond?.peerKeys.signingKey {
            await host.setSigningKey(signing.key, counter: signing.signCounter, for: connection.handle)
        }
    }

    /// Stores the bond of a completed pairing (replacing the peer's earlier bond) and saves
    /// the file; does nothing and returns `nil` when the pairing did not bond.
    /// - Throws: ``BondStoreFileError`` when the file cannot be written; the bond is kept
    ///   in memory all the same.
    @discardableResult
    public func keep(_ result: SMPPairingResult, peer: BluetoothAddress) throws(BondStoreFileError) -> BondRecord? {
        guard result.bonded else { return nil }
        let previous = record(for: BondRecord.identity(of: result, peer: peer)) ?? record(for: peer)
        let record = BondRecord(pairing: result, peer: peer, previous: previous,
                                peerIdentifier: BondRecord.makePeerIdentifier(using: &generator), now: clock())
        if let previous, previous.identityAddress != record.identityAddress {
            store.removeRecord(for: previous.identityAddress)
        }
        evictedBonds += store.insert(record, keepingAtMost: maximumBonds).count
        if let identity = result.localKeys.identity {
            store.localIdentityAddress = identity.identityAddress
            store.localIdentityResolvingKey = identity.identityResolvingKey
        }
        try save()
        return record
    }

    /// Stores the Client Characteristic Configuration values our GATT server holds for the
    /// bonded peer at `peer` (its identity, or an address its IRK resolves), by
    /// characteristic value handle, and saves the file: they persist across connections for
    /// bonded clients (Core 5.4, Vol 3, Part G, §3.3.3.3), and so across restarts. Does
    /// nothing for a peer without a bond, or when the values did not change.
    /// - Throws: ``BondStoreFileError`` when the file cannot be written; the values are kept
    ///   in memory all the same.
    public func setClientConfigurations(_ values: [UInt16: UInt16], for peer: BluetoothAddress) throws(BondStoreFileError) {
        guard var record = record(for: peer), record.clientConfigurations != values else { return }
        record.clientConfigurations = values
        record.updated = clock()
        store.insert(record)
        try save()
    }

    /// Stores one Client Characteristic Configuration value our server holds for the
    /// bonded peer at `peer` (0 removes it) and saves the file at once, so a value the
    /// client wrote survives a crash before it disconnects (Vol 3, Part G, §3.3.3.3). Does
    /// nothing for a peer without a bond, or when the stored value is the same.
    /// - Throws: ``BondStoreFileError`` when the file cannot be written; the value is kept
    ///   in memory all the same.
    public func setClientConfiguration(_ bits: UInt16, valueHandle: UInt16, for peer: BluetoothAddress) throws(BondStoreFileError) {
        guard var record = record(for: peer), record.clientConfigurations[valueHandle] ?? 0 != bits else { return }
        record.clientConfigurations[valueHandle] = bits == 0 ? nil : bits
        record.updated = clock()
        store.insert(record)
        try save()
    }

    /// Stores the GATT cache our client keeps of the bonded peer at `peer` — its tree and
    /// the Database Hash it was discovered under (Vol 3, Part G, §2.5.2, §7.3) — or forgets
    /// it with `nil`, and saves the file. Does nothing for a peer without a bond, or when
    /// the stored cache is the same.
    /// - Throws: ``BondStoreFileError`` when the file cannot be written; the cache is kept
    ///   in memory all the same.
    public func setGATTCache(_ cache: GATTCache?, for peer: BluetoothAddress) throws(BondStoreFileError) {
        guard var record = record(for: peer),
              record.gattServices != cache?.services || record.databaseHash != cache?.databaseHash else { return }
        record.gattCache = cache
        record.updated = clock()
        store.insert(record)
        try save()
    }

    /// Takes the SignCounter for our next signed write to the bonded peer at `peer` with the
    /// CSRK we distributed to it, and saves the counter after it before returning, so a
    /// crash never makes a counter be used twice (Vol 3, Part H, §2.4.5; Part C, §10.4.1).
    /// `nil` without a bond holding a CSRK of ours, or when the counter is exhausted.
    public func takeLocalSignCounter(for peer: BluetoothAddress) -> (csrk: UInt128, counter: UInt32)? {
        guard var record = record(for: peer), let signing = record.localKeys.signingKey,
              signing.signCounter < UInt32.max else { return nil }
        record.localKeys.signingKey?.signCounter = signing.signCounter + 1
        record.updated = clock()
        store.insert(record)
        do {
            try save()
        } catch {
            return nil  // not saved: using the counter could repeat it after a restart
        }
        return (signing.key, signing.signCounter)
    }

    /// Stores the SignCounter our next signed write to the bonded peer at `peer` uses
    /// (Vol 3, Part H, §2.4.5; Part C, §10.4.1: it never repeats for one CSRK) and saves the
    /// file. Does nothing without a bond or a CSRK of ours in it.
    /// - Throws: ``BondStoreFileError`` when the file cannot be written.
    public func setLocalSignCounter(_ counter: UInt32, for peer: BluetoothAddress) throws(BondStoreFileError) {
        guard var record = record(for: peer), record.localKeys.signingKey != nil,
              record.localKeys.signingKey?.signCounter != counter else { return }
        record.localKeys.signingKey?.signCounter = counter
        record.updated = clock()
        store.insert(record)
        try save()
    }

    /// Stores the SignCounter the bonded peer at `peer` must use next in its signed writes
    /// to our server (a replayed counter is refused) and saves the file. Does nothing
    /// without a bond or a CSRK of the peer's in it.
    /// - Throws: ``BondStoreFileError`` when the file cannot be written.
    public func setPeerSignCounter(_ counter: UInt32, for peer: BluetoothAddress) throws(BondStoreFileError) {
        guard var record = record(for: peer), record.peerKeys.signingKey != nil,
              record.peerKeys.signingKey?.signCounter != counter else { return }
        record.peerKeys.signingKey?.signCounter = counter
        record.updated = clock()
        store.insert(record)
        try save()
    }

    /// Removes the bond of the peer at `address`, saving the file; returns it.
    @discardableResult
    public func remove(_ address: BluetoothAddress) throws(BondStoreFileError) -> BondRecord? {
        guard let record = record(for: address) else { return nil }
        store.removeRecord(for: record.identityAddress)
        try save()
        return record
    }

    func save() throws(BondStoreFileError) {
        try file?.save(store)
    }

    private func handle(_ event: HostSecurityEvent) {
        switch event {
        case let .paired(connection, peer, result):
            var record: BondRecord?
            do {
                record = try keep(result, peer: peer)
            } catch {
                record = self.record(for: BondRecord.identity(of: result, peer: peer))
                publish(.saveFailed(error))
            }
            publish(.paired(connection: connection, peer: peer, result: result, record: record))
        case let .pairingFailed(connection, peer, failure):
            publish(.pairingFailed(connection: connection, peer: peer, failure: failure))
        }
    }

    private func publish(_ event: Event) {
        for subscriber in subscribers.values { subscriber.yield(event) }
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }
}
