import BLEFleet

/// The fleet's store: where gateways write their sightings and where the presence scorer and
/// the HTTP back end read them. One schema (docs/store.md), two engines: an embedded SQLite
/// file for one box (``SQLiteFleetStore``) and PostgreSQL for a fleet (``PostgresFleetStore``);
/// ``FleetStores/open(_:logger:environment:)`` opens either from a URL.
///
/// Writes are idempotent by ``BLEFleet/Sighting/key``: a batch written twice (drained again from
/// the spool after a crash) never duplicates a row. Times are microseconds since the Unix epoch.
public protocol FleetStore: Sendable {
    /// Creates the schema or brings it up to ``FleetSchema/currentVersion`` with the versioned
    /// migrations, in one transaction that concurrent migrators wait on. Running it again is a no-op.
    ///
    /// - Throws: ``FleetStoreError/schemaFromTheFuture(found:supported:)`` when the database
    ///   was written by a newer SwiftBLE; connection and query errors otherwise.
    func migrate() async throws(FleetStoreError)

    /// Opens the database if it is not open yet and runs a trivial statement: a `--check` that
    /// the URL, the server and the login are good.
    func ping() async throws(FleetStoreError)

    /// Inserts a batch in one transaction, ignoring sightings whose key is already stored, and
    /// upserts each gateway's row (first and last time seen).
    ///
    /// - Parameter batch: The sightings to insert.
    /// - Returns: How many rows were newly inserted (0 when the whole batch was there already).
    @discardableResult
    func write(_ batch: SightingBatch) async throws(FleetStoreError) -> Int

    /// The sightings with `from <= time < to`, optionally of one identity and/or one gateway,
    /// ordered by time, then by key (gateway, run, sequence).
    ///
    /// - Parameters:
    ///   - from: The first microsecond included.
    ///   - to: The first microsecond excluded.
    ///   - identity: Only this identity's sightings, when given.
    ///   - gateway: Only this gateway's sightings, when given.
    ///   - limit: At most this many rows, when given.
    func sightings(from: Int64, to: Int64, identity: String?, gateway: String?, limit: Int?) async throws(FleetStoreError) -> [Sighting]

    /// How many sightings the store holds.
    func count() async throws(FleetStoreError) -> Int

    /// The most recent sighting of `identity` (latest time, then greatest key), if any.
    func latest(identity: String) async throws(FleetStoreError) -> Sighting?

    /// The gateways that have written, by name.
    func gateways() async throws(FleetStoreError) -> [FleetGateway]

    /// The distinct identities seen, sorted.
    func identities() async throws(FleetStoreError) -> [String]

    /// Retention: removes every sighting of the UTC days that end at or before `dayStart`
    /// (rounded down to the start of its UTC day). PostgreSQL drops whole day partitions
    /// (cheap, no vacuum); SQLite deletes the rows.
    ///
    /// - Parameter dayStart: Microseconds since the epoch; days before this one go.
    /// - Returns: The names of the day partitions removed, `sightings_YYYYMMDD`, oldest first
    ///   (for SQLite, the days that had rows).
    @discardableResult
    func dropSightings(before dayStart: Int64) async throws(FleetStoreError) -> [String]

    /// Closes the connection. Later calls throw ``FleetStoreError/closed``.
    func close() async

    // MARK: The back end's tables (schema version 2)

    /// Sets the zone an operator assigned to a gateway (`nil` clears it), as `ble gateway --zone`
    /// names it; the back end reads a sighting's zone from its gateway's.
    ///
    /// - Returns: `false` when no gateway of that name has written yet (nothing is changed).
    @discardableResult
    func assignZone(_ zone: String?, toGateway gateway: String) async throws(FleetStoreError) -> Bool

    /// Stores a ride log under a new reference, or finds the one stored with the same content.
    ///
    /// The reference is `makeReference(n)` for the first `n`, counting up from the number of
    /// rides stored, that no other ride holds: deterministic for a deterministic sequence of posts.
    ///
    /// - Parameters:
    ///   - ride: The ride (its ``BLEFleet/RideLog/reference`` is ignored).
    ///   - contentKey: A name of the ride's content; a ride with the same key is the same ride posted again.
    ///   - makeReference: The reference for a counter value.
    /// - Returns: The reference, and whether the ride was newly stored.
    func storeRide(_ ride: RideLog, contentKey: String, makeReference: @Sendable (Int64) -> String) async throws(FleetStoreError) -> StoredRide

    /// The ride stored under `reference`, with its stops in order, if any.
    func ride(reference: String) async throws(FleetStoreError) -> RideLog?

    /// Inserts phone sightings in one transaction, ignoring those already stored (same phone,
    /// identity and time).
    ///
    /// - Returns: How many were newly inserted.
    @discardableResult
    func write(phoneSightings: [PhoneSighting]) async throws(FleetStoreError) -> Int

    /// The phone sightings of `identity` with `from <= time < to`, ordered by time, then phone.
    func phoneSightings(identity: String, from: Int64, to: Int64, limit: Int?) async throws(FleetStoreError) -> [PhoneSighting]
}

/// What ``FleetStore/storeRide(_:contentKey:makeReference:)`` did: the ride's reference, and
/// whether it was stored now (`false`: the same ride was stored before, under this reference).
public struct StoredRide: Hashable, Sendable {
    /// The ride's reference.
    public var reference: String
    /// Whether this call stored it.
    public var created: Bool

    /// A result with every field given.
    public init(reference: String, created: Bool) {
        self.reference = reference
        self.created = created
    }
}

extension FleetStore {
    /// The sightings with `from <= time < to`, of all identities and gateways, without a limit.
    public func sightings(from: Int64, to: Int64, identity: String? = nil, gateway: String? = nil) async throws(FleetStoreError) -> [Sighting] {
        try await sightings(from: from, to: to, identity: identity, gateway: gateway, limit: nil)
    }
}

/// A gateway's row in the store: its name, the zone an operator assigned (if any) and the
/// times of the first and latest sightings it wrote.
public struct FleetGateway: Hashable, Sendable, Codable {
    /// The gateway's name (`ble gateway --name`).
    public var name: String
    /// The zone the gateway covers, set by an operator; `nil` until then.
    public var zone: String?
    /// The time of its earliest sighting written, in microseconds since the epoch.
    public var firstSeen: Int64
    /// The time of its latest sighting written, in microseconds since the epoch.
    public var lastSeen: Int64

    /// A gateway row with every field given.
    public init(name: String, zone: String?, firstSeen: Int64, lastSeen: Int64) {
        self.name = name
        self.zone = zone
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}
