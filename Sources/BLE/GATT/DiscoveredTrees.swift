import BLEHost
import Synchronization

/// What the front door's discovery found on each connection (Core 5.4, Vol 3, Part G,
/// §2.5.2): a tree filled in as the app asks — the primary services, then the insides of
/// the services it opens — so a second `services()` or `characteristics(of:)` on one
/// connection sends nothing. Whether a tree outlives its connection is decided elsewhere
/// (``Connection`` saves it in a bonded peer's record, checked by the Database Hash).
///
/// Trees are kept by connection handle with the identity of the ``Connection`` object
/// that made them, so a later link that reuses the handle starts empty.
final class DiscoveredTrees: Sendable {
    /// One connection's tree and what is known of it.
    struct Tree {
        /// The connection object the tree belongs to.
        var owner: ObjectIdentifier
        /// The services found (primary, and secondary ones reached through includes) with
        /// what was discovered inside them, in handle order; the hash is the one the tree
        /// was found under (`nil` when unknown or made stale by Service Changed).
        var cache = GATTCache()
        /// Whether ``cache`` holds every primary service.
        var primaryServicesDiscovered = false
        /// Whether the stored cache of a bonded peer was checked on this connection.
        var checked = false
        /// Whether the peer's Database Hash was read for this tree.
        var hashRead = false
        /// Whether Service Changed indications are on for this connection (written now, or
        /// kept by the server for us as a bonded client when the tree came from the bond).
        var serviceChangedEnabled = false
        /// Bumped at every change; the version saved to the bond follows it.
        var version = 0
        var savedVersion = 0
    }

    private let trees = Mutex<[UInt16: Tree]>([:])
    /// The streams of ``Connection/serviceChanges()`` by connection handle.
    private let watchers = Mutex<[UInt16: [AsyncStream<ClosedRange<UInt16>>.Continuation]]>([:])

    /// Runs `body` on the tree of `connection`, starting an empty one when the handle has
    /// none or one of an earlier connection.
    func with<T>(_ connection: Connection, _ body: (inout Tree) -> T) -> T {
        let owner = ObjectIdentifier(connection)
        return trees.withLock { trees in
            var tree = trees[connection.handle].flatMap { $0.owner == owner ? $0 : nil } ?? Tree(owner: owner)
            defer { trees[connection.handle] = tree }
            return body(&tree)
        }
    }

    /// The link `handle` went down: its tree is forgotten (a bonded peer's was saved) and
    /// its service-change streams end.
    func linkDown(_ handle: UInt16) {
        _ = trees.withLock { $0.removeValue(forKey: handle) }
        endWatchers(handle)
    }

    /// A stream of the handle ranges the peer of `connection` reports changed; it ends
    /// with the link (at once if the link is already down).
    func watchServiceChanges(of connection: Connection) -> AsyncStream<ClosedRange<UInt16>> {
        let (stream, continuation) = AsyncStream.makeStream(of: ClosedRange<UInt16>.self)
        watchers.withLock { $0[connection.handle, default: []].append(continuation) }
        // The link is marked down before its tree is dropped: a watcher registered after
        // that finds it down here.
        if !connection.isConnected { endWatchers(connection.handle) }
        return stream
    }

    private func endWatchers(_ handle: UInt16) {
        let ended = watchers.withLock { $0.removeValue(forKey: handle) } ?? []
        for continuation in ended { continuation.finish() }
    }

    /// A Service Changed indication on `handle` (§7.1): services overlapping `range` are
    /// forgotten, the service list is discovered again at the next call and the hash the
    /// tree was found under no longer describes it.
    func serviceChanged(_ handle: UInt16, range: ClosedRange<ATT.Handle>) {
        trees.withLock { trees in
            guard var tree = trees[handle] else { return }
            tree.cache.invalidate(range)
            tree.primaryServicesDiscovered = false
            tree.hashRead = false
            tree.version += 1
            trees[handle] = tree
        }
        for continuation in watchers.withLock({ $0[handle] ?? [] }) { continuation.yield(range) }
    }
}

extension DiscoveredTrees.Tree {
    /// The primary services, when all were discovered.
    var primaryServices: [GATTCachedService]? {
        primaryServicesDiscovered ? cache.services.filter(\.service.isPrimary) : nil
    }

    /// The service that starts at `handle`.
    func service(at handle: ATT.Handle) -> GATTCachedService? {
        cache.services.first { $0.service.handles.lowerBound == handle }
    }

    /// Takes a freshly discovered list of primary services: services found again with the
    /// same type and handles keep what was discovered inside them.
    mutating func setPrimaryServices(_ found: [GATTDiscoveredService]) {
        let kept = found.map { service in
            cache.services.first { $0.service == service }
                ?? GATTCachedService(service: service, characteristicsDiscovered: false, includedServicesDiscovered: false)
        }
        let secondary = cache.services.filter { !$0.service.isPrimary }
        cache.services = []
        cache.merge(kept + secondary, rediscovering: 0x0001 ... 0xFFFF)
        primaryServicesDiscovered = true
        version += 1
    }

    /// Changes the service `service` (adding it when the tree does not hold it yet).
    mutating func update(_ service: GATTDiscoveredService, _ change: (inout GATTCachedService) -> Void) {
        var cached = cache.services.first { $0.service.handles == service.handles }
            ?? GATTCachedService(service: service, characteristicsDiscovered: false, includedServicesDiscovered: false)
        change(&cached)
        cache.services.removeAll { $0.service.handles == service.handles }
        cache.services.append(cached)
        cache.services.sort { $0.service.handles.lowerBound < $1.service.handles.lowerBound }
        version += 1
    }

    /// Takes a bonded peer's stored tree, found valid under the hash read now.
    mutating func adopt(_ stored: GATTCache) {
        cache = stored
        primaryServicesDiscovered = true
        hashRead = true
        serviceChangedEnabled = true
        savedVersion = version
    }
}
