import BLEFleet
import Logging
import NIOCore
import PostgresNIO

/// The fleet store in PostgreSQL, for a fleet of gateways writing to one server.
///
/// `sightings` is partitioned by range of `time_us`, one partition per UTC day named
/// `sightings_YYYYMMDD` (PostgreSQL 15 docs, §5.11 "Table Partitioning"), created before the
/// first batch that needs it; retention drops whole partitions (§5.11.2.2 "Partition
/// Maintenance": dropping a partition is far cheaper than a bulk `DELETE`).
///
/// Connection handling: one connection, opened on first use and again on demand. When the
/// server goes away, the call that finds the connection broken throws
/// ``FleetStoreError/cannotConnect(endpoint:reason:)`` and forgets the connection; the next
/// call connects anew, so a gateway that spools on the error and retries later resumes by
/// itself once the server is back. There is no background task to run or cancel.
public actor PostgresFleetStore: FleetStore {
    /// The server, login and database.
    public let configuration: PostgresTarget
    private let logger: Logger
    private var connection: PostgresConnection?
    private var nextConnectionID = 0
    private var isClosed = false
    /// Day numbers whose partition is known to exist (created by us or found present).
    private var knownPartitions: Set<Int64> = []
    private let gate = SerialGate()

    /// `pg_advisory_xact_lock` keys: migrations, partition creation and removal, and ride references.
    static let migrationLock: Int64 = 0x5357_424C_455F_4D47  // "SWBLE_MG"
    static let partitionLock: Int64 = 0x5357_424C_455F_5054  // "SWBLE_PT"
    static let rideLock: Int64 = 0x5357_424C_455F_5244  // "SWBLE_RD"

    /// A store on the PostgreSQL database `configuration` names; nothing connects until first use.
    ///
    /// - Parameters:
    ///   - configuration: The server, login and database (see ``DatabaseURL``).
    ///   - logger: Where the store and postgres-nio log.
    public init(configuration: PostgresTarget, logger: Logger = Logger(label: "ble.fleet.store")) {
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: FleetStore

    public func migrate() async throws(FleetStoreError) {
        try await serialized { () async throws(FleetStoreError) in
            let db = try await open()
            try await transaction(db) { () async throws(FleetStoreError) in
                // Two gateways migrating at once: the second waits here, then finds the work done.
                try await run(db, "SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
                try await run(db, FleetSchema.migrationsTable)
                let rows = try await run(db, "SELECT COALESCE(MAX(version), 0)::int8 FROM fleet_schema_migrations")
                let found = try rows.first.map { row throws(FleetStoreError) in Int(try decode(row, Int64.self)) } ?? 0
                guard found <= FleetSchema.currentVersion else {
                    throw .schemaFromTheFuture(found: found, supported: FleetSchema.currentVersion)
                }
                for migration in FleetSchema.migrations where migration.version > found {
                    for statement in migration.statements(.postgres) { try await run(db, statement) }
                    var binds = PostgresBindings()
                    binds.append(Int64(migration.version))
                    binds.append(SQLiteFleetStore.now())
                    binds.append(migration.description)
                    try await run(db, "INSERT INTO fleet_schema_migrations (version, applied_at, description) VALUES ($1, $2, $3)", binds)
                    logger.info("Migrated the fleet store", metadata: ["database": "\(configuration)", "version": "\(migration.version)"])
                }
            }
        }
    }

    public func ping() async throws(FleetStoreError) {
        try await serialized { () async throws(FleetStoreError) in
            _ = try await run(try await open(), "SELECT 1")
        }
    }

    @discardableResult
    public func write(_ batch: SightingBatch) async throws(FleetStoreError) -> Int {
        guard !batch.sightings.isEmpty else { return 0 }
        return try await serialized { () async throws(FleetStoreError) -> Int in
            do throws(FleetStoreError) {
                return try await insert(batch)
            } catch .queryFailed(sqlState: "23514"?, _) {
                // "no partition of relation found for row": another process dropped a day we
                // had cached. Forget the cache and create the partitions again, once.
                knownPartitions.removeAll()
                return try await insert(batch)
            }
        }
    }

    public func sightings(from: Int64, to: Int64, identity: String?, gateway: String?, limit: Int?) async throws(FleetStoreError) -> [Sighting] {
        try await serialized { () async throws(FleetStoreError) -> [Sighting] in
            var binds = PostgresBindings()
            binds.append(from)
            binds.append(to)
            var sql = "SELECT \(SightingColumns.select) FROM sightings WHERE time_us >= $1 AND time_us < $2"
            if let identity { binds.append(identity); sql += " AND identity = $\(binds.count)" }
            if let gateway { binds.append(gateway); sql += " AND gateway = $\(binds.count)" }
            sql += " ORDER BY time_us, gateway, run, sequence"
            if let limit { binds.append(Int64(max(0, limit))); sql += " LIMIT $\(binds.count)" }
            return try await run(try await open(), sql, binds).map { row throws(FleetStoreError) in try sighting(row) }
        }
    }

    public func count() async throws(FleetStoreError) -> Int {
        try await serialized { () async throws(FleetStoreError) -> Int in
            let rows = try await run(try await open(), "SELECT COUNT(*)::int8 FROM sightings")
            return try rows.first.map { row throws(FleetStoreError) in Int(try decode(row, Int64.self)) } ?? 0
        }
    }

    public func latest(identity: String) async throws(FleetStoreError) -> Sighting? {
        try await serialized { () async throws(FleetStoreError) -> Sighting? in
            var binds = PostgresBindings()
            binds.append(identity)
            let rows = try await run(try await open(), """
                SELECT \(SightingColumns.select) FROM sightings WHERE identity = $1
                ORDER BY time_us DESC, gateway DESC, run DESC, sequence DESC LIMIT 1
                """, binds)
            return try rows.first.map { row throws(FleetStoreError) in try sighting(row) }
        }
    }

    public func gateways() async throws(FleetStoreError) -> [FleetGateway] {
        try await serialized { () async throws(FleetStoreError) -> [FleetGateway] in
            let rows = try await run(try await open(), "SELECT name, zone, first_seen, last_seen FROM gateways ORDER BY name")
            return try rows.map { row throws(FleetStoreError) in
                let (name, zone, first, last) = try decodeColumns(row, (String, String?, Int64, Int64).self)
                return FleetGateway(name: name, zone: zone, firstSeen: first, lastSeen: last)
            }
        }
    }

    public func identities() async throws(FleetStoreError) -> [String] {
        try await serialized { () async throws(FleetStoreError) -> [String] in
            try await run(try await open(), "SELECT DISTINCT identity FROM sightings ORDER BY identity")
                .map { row throws(FleetStoreError) in try decode(row, String.self) }
        }
    }

    @discardableResult
    public func dropSightings(before dayStart: Int64) async throws(FleetStoreError) -> [String] {
        let cutoff = SightingDay(containing: dayStart)
        return try await serialized { () async throws(FleetStoreError) -> [String] in
            let db = try await open()
            let dropped = try await transaction(db) { () async throws(FleetStoreError) -> [SightingDay] in
                try await run(db, "SELECT pg_advisory_xact_lock(\(Self.partitionLock))")
                let rows = try await run(db, "SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'sightings'::regclass")
                let names = try rows.map { row throws(FleetStoreError) in try decode(row, String.self) }
                let days = names.compactMap(SightingDay.init(partitionName:)).filter { $0 < cutoff }.sorted()
                // Partition names are computed from day numbers, never taken from text.
                for day in days { try await run(db, "DROP TABLE IF EXISTS \(day.partitionName)") }
                return days
            }
            for day in dropped { knownPartitions.remove(day.number) }
            if !dropped.isEmpty { logger.info("Dropped sighting partitions", metadata: ["partitions": "\(dropped.map(\.partitionName))"]) }
            return dropped.map(\.partitionName)
        }
    }

    public func close() async {
        await gate.enter()
        isClosed = true
        if let connection {
            do { try await connection.close() } catch { logger.debug("Closing the PostgreSQL connection failed", metadata: ["error": "\(error)"]) }
        }
        connection = nil
        await gate.leave()
    }

    // MARK: For tests and maintenance

    /// Runs one statement without binds (tests create databases and plant schema rows with it).
    package func runStatement(_ sql: String) async throws(FleetStoreError) {
        try await serialized { () async throws(FleetStoreError) in
            _ = try await run(try await open(), sql)
        }
    }

    /// The names of the existing day partitions of `sightings`, sorted.
    func partitionNames() async throws(FleetStoreError) -> [String] {
        try await serialized { () async throws(FleetStoreError) -> [String] in
            try await run(try await open(), "SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'sightings'::regclass ORDER BY 1")
                .map { row throws(FleetStoreError) in try decode(row, String.self) }
        }
    }

    // MARK: Writing

    /// Creates the batch's day partitions if needed, then inserts it in one transaction.
    private func insert(_ batch: SightingBatch) async throws(FleetStoreError) -> Int {
        let db = try await open()
        let days = Set(batch.sightings.map { SightingDay(containing: $0.time) }).filter { !knownPartitions.contains($0.number) }
        if !days.isEmpty { try await createPartitions(days.sorted(), db) }
        return try await transaction(db) { () async throws(FleetStoreError) -> Int in
            var inserted = 0
            // 10 parameters a row; the protocol allows 65 535 per statement.
            for start in stride(from: 0, to: batch.sightings.count, by: 1000) {
                let chunk = batch.sightings[start..<min(start + 1000, batch.sightings.count)]
                var binds = PostgresBindings(capacity: chunk.count * 10)
                var values: [String] = []
                values.reserveCapacity(chunk.count)
                for sighting in chunk {
                    let first = binds.count + 1
                    values.append("(" + (first..<first + 10).map { "$\($0)" }.joined(separator: ", ") + ")")
                    binds.append(sighting.gateway)
                    binds.append(sighting.run)
                    binds.append(sighting.sequence)
                    binds.append(sighting.identity)
                    binds.append(sighting.address)
                    binds.append(sighting.addressIsRandom)
                    binds.append(sighting.time)
                    binds.append(Int32(clamping: sighting.rssi))
                    binds.append(sighting.txPower.map { Int32(clamping: $0) })
                    binds.append(ByteBuffer(bytes: sighting.frame))
                }
                let rows = try await run(db, "INSERT INTO sightings \(SightingColumns.list) VALUES \(values.joined(separator: ", ")) ON CONFLICT DO NOTHING RETURNING 1", binds)
                inserted += rows.count
            }
            for span in GatewaySpan.of(batch) {
                var binds = PostgresBindings()
                binds.append(span.name)
                binds.append(span.first)
                binds.append(span.last)
                try await run(db, """
                    INSERT INTO gateways (name, zone, first_seen, last_seen) VALUES ($1, NULL, $2, $3)
                    ON CONFLICT (name) DO UPDATE SET first_seen = LEAST(gateways.first_seen, excluded.first_seen),
                                                     last_seen = GREATEST(gateways.last_seen, excluded.last_seen)
                    """, binds)
            }
            return inserted
        }
    }

    /// Creates day partitions under an advisory lock, so that gateways creating the same day
    /// at once wait for each other instead of failing on the catalog's unique index.
    private func createPartitions(_ days: [SightingDay], _ db: PostgresConnection) async throws(FleetStoreError) {
        do throws(FleetStoreError) {
            try await transaction(db) { () async throws(FleetStoreError) in
                try await run(db, "SELECT pg_advisory_xact_lock(\(Self.partitionLock))")
                for day in days {
                    try await run(db, "CREATE TABLE IF NOT EXISTS \(day.partitionName) PARTITION OF sightings FOR VALUES FROM (\(day.start)) TO (\(day.end))")
                }
            }
        } catch .queryFailed(sqlState: "42P07"?, _) {
            // duplicate_table: another process won the race without the lock (an older client); the partition is there.
        }
        for day in days { knownPartitions.insert(day.number) }
    }

    // MARK: Connection and statements

    func serialized<T: Sendable>(_ body: () async throws(FleetStoreError) -> T) async throws(FleetStoreError) -> T {
        await gate.enter()
        do throws(FleetStoreError) {
            let value = try await body()
            await gate.leave()
            return value
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// The open connection, or a new one when there is none or it was lost.
    func open() async throws(FleetStoreError) -> PostgresConnection {
        if isClosed { throw .closed }
        if let connection, !connection.isClosed { return connection }
        connection = nil
        let settings = try PostgresConnecting.configuration(for: configuration)
        nextConnectionID += 1
        do {
            let opened = try await PostgresConnection.connect(configuration: settings, id: nextConnectionID, logger: logger)
            connection = opened
            return opened
        } catch {
            throw PostgresConnecting.mapped(error, target: configuration)
        }
    }

    @discardableResult
    func run(_ db: PostgresConnection, _ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(FleetStoreError) -> [PostgresRow] {
        do {
            return try await db.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).collect()
        } catch {
            let mapped = PostgresConnecting.mapped(error, target: configuration)
            if case .cannotConnect = mapped { dropConnection(db) }
            throw mapped
        }
    }

    func transaction<T: Sendable>(_ db: PostgresConnection, _ body: () async throws(FleetStoreError) -> T) async throws(FleetStoreError) -> T {
        try await run(db, "BEGIN")
        do throws(FleetStoreError) {
            let value = try await body()
            try await run(db, "COMMIT")
            return value
        } catch {
            do {
                _ = try await db.query("ROLLBACK", logger: logger)
            } catch {
                dropConnection(db)
            }
            throw error
        }
    }

    /// Forgets a broken connection so that the next call connects anew.
    private func dropConnection(_ db: PostgresConnection) {
        guard connection === db else { return }
        connection = nil
        knownPartitions.removeAll()
        Task { try? await db.close() }
    }

    func decode<T: PostgresDecodable>(_ row: PostgresRow, _ type: T.Type) throws(FleetStoreError) -> T {
        do { return try row.decode(T.self) } catch { throw .unreadableRow(reason: "\(error)") }
    }

    func decodeColumns<each T: PostgresDecodable>(_ row: PostgresRow, _ type: (repeat each T).Type) throws(FleetStoreError) -> (repeat each T) {
        do { return try row.decode((repeat each T).self) } catch { throw .unreadableRow(reason: "\(error)") }
    }

    private func sighting(_ row: PostgresRow) throws(FleetStoreError) -> Sighting {
        let (gateway, run, sequence, identity, address, random, time, rssi, txPower, frame) =
            try decodeColumns(row, (String, Int64, Int64, String, String, Bool, Int64, Int32, Int32?, ByteBuffer).self)
        return Sighting(gateway: gateway, run: run, sequence: sequence, identity: identity, address: address, addressIsRandom: random,
                        time: time, rssi: Int(rssi), txPower: txPower.map(Int.init), frame: Array(frame.readableBytesView))
    }
}
