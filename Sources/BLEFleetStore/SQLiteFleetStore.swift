import BLEFleet
import Logging
import NIOCore
import NIOPosix
import SQLiteNIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fleet store in an embedded SQLite file, for a single gateway box.
///
/// One connection, opened on first use, in WAL mode with `synchronous=FULL`: a batch whose
/// `write` returned is on disk and survives a power loss (SQLite docs, "Write-Ahead Logging"
/// and "PRAGMA synchronous": in WAL mode FULL syncs the WAL at every commit). A busy timeout
/// lets a second process (a presence command reading) wait for the writer instead of failing.
public actor SQLiteFleetStore: FleetStore {
    /// The database file, or `:memory:`.
    public let path: String
    private let logger: Logger
    private var connection: SQLiteConnection?
    private var isClosed = false
    private let gate = SerialGate()

    /// A store on the SQLite file at `path` (created on first use; its directory must exist),
    /// or in memory when `path` is `:memory:`.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - logger: Where the store logs what it does (debug) and what failed.
    public init(path: String, logger: Logger = Logger(label: "ble.fleet.store")) {
        self.path = path
        self.logger = logger
    }

    // MARK: FleetStore

    public func migrate() async throws(FleetStoreError) {
        try await serialized { () async throws(FleetStoreError) in
            let db = try await open()
            // BEGIN IMMEDIATE takes the write lock at once, so a second migrator waits (busy
            // timeout) and then finds the work done (SQLite docs, "BEGIN TRANSACTION").
            try await transaction(db, begin: "BEGIN IMMEDIATE") { () async throws(FleetStoreError) in
                try await run(db, FleetSchema.migrationsTable)
                let rows = try await run(db, "SELECT COALESCE(MAX(version), 0) AS version FROM fleet_schema_migrations")
                let found = rows.first?.column("version")?.integer.map { Int($0) } ?? 0
                guard found <= FleetSchema.currentVersion else {
                    throw .schemaFromTheFuture(found: found, supported: FleetSchema.currentVersion)
                }
                for migration in FleetSchema.migrations where migration.version > found {
                    for statement in migration.statements(.sqlite) { try await run(db, statement) }
                    try await run(db, "INSERT INTO fleet_schema_migrations (version, applied_at, description) VALUES (?, ?, ?)",
                                  [.integer(migration.version), .integer(SQLiteInt64(Self.now())), .text(migration.description)])
                    logger.info("Migrated the fleet store", metadata: ["path": "\(path)", "version": "\(migration.version)"])
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
            let db = try await open()
            return try await transaction(db, begin: "BEGIN IMMEDIATE") { () async throws(FleetStoreError) -> Int in
                var inserted = 0
                // 10 parameters a row; SQLite allows 32 766 bound parameters per statement.
                for start in stride(from: 0, to: batch.sightings.count, by: 500) {
                    let chunk = batch.sightings[start..<min(start + 500, batch.sightings.count)]
                    var binds: [SQLiteData] = []
                    binds.reserveCapacity(chunk.count * 10)
                    for sighting in chunk {
                        binds += [.text(sighting.gateway), .integer(SQLiteInt64(sighting.run)), .integer(SQLiteInt64(sighting.sequence)),
                                  .text(sighting.identity), .text(sighting.address), .integer(sighting.addressIsRandom ? 1 : 0),
                                  .integer(SQLiteInt64(sighting.time)), .integer(sighting.rssi),
                                  sighting.txPower.map { .integer($0) } ?? .null, .blob(ByteBuffer(bytes: sighting.frame))]
                    }
                    let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                    // RETURNING yields only the rows inserted, not those ON CONFLICT skipped.
                    let rows = try await run(db, "INSERT INTO sightings \(SightingColumns.list) VALUES \(values) ON CONFLICT DO NOTHING RETURNING 1", binds)
                    inserted += rows.count
                }
                for span in GatewaySpan.of(batch) {
                    try await run(db, """
                        INSERT INTO gateways (name, zone, first_seen, last_seen) VALUES (?, NULL, ?, ?)
                        ON CONFLICT (name) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen),
                                                         last_seen = max(last_seen, excluded.last_seen)
                        """, [.text(span.name), .integer(SQLiteInt64(span.first)), .integer(SQLiteInt64(span.last))])
                }
                return inserted
            }
        }
    }

    public func sightings(from: Int64, to: Int64, identity: String?, gateway: String?, limit: Int?) async throws(FleetStoreError) -> [Sighting] {
        try await serialized { () async throws(FleetStoreError) -> [Sighting] in
            var sql = "SELECT \(SightingColumns.select) FROM sightings WHERE time_us >= ? AND time_us < ?"
            var binds: [SQLiteData] = [.integer(SQLiteInt64(from)), .integer(SQLiteInt64(to))]
            if let identity { sql += " AND identity = ?"; binds.append(.text(identity)) }
            if let gateway { sql += " AND gateway = ?"; binds.append(.text(gateway)) }
            sql += " ORDER BY time_us, gateway, run, sequence"
            if let limit { sql += " LIMIT ?"; binds.append(.integer(max(0, limit))) }
            return try await run(try await open(), sql, binds).map { row throws(FleetStoreError) in try Self.sighting(row) }
        }
    }

    public func count() async throws(FleetStoreError) -> Int {
        try await serialized { () async throws(FleetStoreError) -> Int in
            let rows = try await run(try await open(), "SELECT COUNT(*) AS n FROM sightings")
            return rows.first?.column("n")?.integer.map { Int($0) } ?? 0
        }
    }

    public func latest(identity: String) async throws(FleetStoreError) -> Sighting? {
        try await serialized { () async throws(FleetStoreError) -> Sighting? in
            let rows = try await run(try await open(), """
                SELECT \(SightingColumns.select) FROM sightings WHERE identity = ?
                ORDER BY time_us DESC, gateway DESC, run DESC, sequence DESC LIMIT 1
                """, [.text(identity)])
            return try rows.first.map { row throws(FleetStoreError) in try Self.sighting(row) }
        }
    }

    public func gateways() async throws(FleetStoreError) -> [FleetGateway] {
        try await serialized { () async throws(FleetStoreError) -> [FleetGateway] in
            let rows = try await run(try await open(), "SELECT name, zone, first_seen, last_seen FROM gateways ORDER BY name")
            return try rows.map { row throws(FleetStoreError) in
                guard let name = row.column("name")?.string, let first = row.column("first_seen")?.integer,
                      let last = row.column("last_seen")?.integer
                else { throw .unreadableRow(reason: "a gateways row lacks its name or times") }
                return FleetGateway(name: name, zone: row.column("zone")?.string, firstSeen: Int64(first), lastSeen: Int64(last))
            }
        }
    }

    public func identities() async throws(FleetStoreError) -> [String] {
        try await serialized { () async throws(FleetStoreError) -> [String] in
            try await run(try await open(), "SELECT DISTINCT identity FROM sightings ORDER BY identity").compactMap { $0.column("identity")?.string }
        }
    }

    @discardableResult
    public func dropSightings(before dayStart: Int64) async throws(FleetStoreError) -> [String] {
        let cutoff = SightingDay(containing: dayStart).start
        return try await serialized { () async throws(FleetStoreError) -> [String] in
            let db = try await open()
            return try await transaction(db, begin: "BEGIN IMMEDIATE") { () async throws(FleetStoreError) -> [String] in
                let rows = try await run(db, "SELECT DISTINCT time_us FROM sightings WHERE time_us < ?", [.integer(SQLiteInt64(cutoff))])
                let days = Set(rows.compactMap { $0.column("time_us")?.integer }.map { SightingDay(containing: Int64($0)) })
                try await run(db, "DELETE FROM sightings WHERE time_us < ?", [.integer(SQLiteInt64(cutoff))])
                return days.sorted().map(\.partitionName)
            }
        }
    }

    deinit {
        // A store released without close(): its connection is closed in the background rather
        // than released open (which sqlite-nio traps on in debug builds).
        if let connection { Task { try? await connection.close() } }
    }

    public func close() async {
        await gate.enter()
        isClosed = true
        if let connection { await Self.shut(connection, logger: logger) }
        connection = nil
        await gate.leave()
    }

    /// Runs one statement without binds (tests plant schema rows with it).
    package func runStatement(_ sql: String) async throws(FleetStoreError) {
        try await serialized { () async throws(FleetStoreError) in
            _ = try await run(try await open(), sql)
        }
    }

    // MARK: Connection and statements

    /// The threads SQLite's blocking calls run on, shared by every store of the process. Wider
    /// than NIO's singleton (one thread per core): a connection waiting on another's lock (the
    /// busy timeout) holds its thread, and two such waits must not stop every other store.
    private static let threadPool = NIOThreadPool._makePerpetualStartedPool(numberOfThreads: 8, threadNamePrefix: "ble-sqlite-")

    /// Closes `connection` from a task of its own: sqlite-nio refuses work asked from a cancelled
    /// task, and a connection left open must not be released (it traps in debug builds).
    private static func shut(_ connection: SQLiteConnection, logger: Logger) async {
        do {
            try await Task { try await connection.close() }.value
        } catch {
            logger.warning("Closing the SQLite database failed", metadata: ["error": "\(error)"])
        }
    }

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

    /// The connection, opened and configured on first use.
    func open() async throws(FleetStoreError) -> SQLiteConnection {
        if isClosed { throw .closed }
        if let connection { return connection }
        if path != ":memory:" {
            let directory = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
            var status = stat()
            if !directory.isEmpty, stat(directory, &status) != 0 || (status.st_mode & S_IFMT) != S_IFDIR {
                throw .cannotOpenFile(path: path, reason: "the directory '\(directory)' does not exist")
            }
        }
        let opened: SQLiteConnection
        do {
            opened = try await SQLiteConnection.open(storage: path == ":memory:" ? .memory : .file(path: path), threadPool: Self.threadPool,
                                                     logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()).get()
        } catch {
            throw .cannotOpenFile(path: path, reason: "\(error)")
        }
        do {
            // The busy timeout first: switching to WAL takes a lock, and a second gateway opening
            // the file while the first migrates must wait for it rather than fail at once.
            // WAL: readers do not block the writer; FULL: each commit is synced to disk.
            _ = try await opened.query("PRAGMA busy_timeout = 60000")
            try await Self.switchToWAL(opened)
            _ = try await opened.query("PRAGMA synchronous = FULL")
        } catch {
            await Self.shut(opened, logger: logger)
            throw Self.mapped(error, path: path)
        }
        connection = opened
        return opened
    }

    /// Puts the file in WAL mode unless another gateway already did. Switching takes a lock
    /// the busy handler does not wait for (SQLite, "PRAGMA journal_mode"): when another
    /// connection holds one at that moment (two gateways opening a new file together) the
    /// switch fails with SQLITE_BUSY at once, so it is tried again every 20 ms, reading the
    /// mode afresh each time, for as long as the busy timeout (60 s).
    static func switchToWAL(_ db: SQLiteConnection) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let mode = try await db.query("PRAGMA journal_mode").first?.column("journal_mode")?.string
            if mode?.lowercased() == "wal" { return }
            do {
                _ = try await db.query("PRAGMA journal_mode = WAL")
                return
            } catch let error as SQLiteError where [.busy, .locked].contains(error.reason) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @discardableResult
    func run(_ db: SQLiteConnection, _ sql: String, _ binds: [SQLiteData] = []) async throws(FleetStoreError) -> [SQLiteRow] {
        do {
            return try await db.query(sql, binds)
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    func transaction<T: Sendable>(_ db: SQLiteConnection, begin: String,
                                          _ body: () async throws(FleetStoreError) -> T) async throws(FleetStoreError) -> T {
        try await run(db, begin)
        do throws(FleetStoreError) {
            let value = try await body()
            try await run(db, "COMMIT")
            return value
        } catch {
            _ = try? await db.query("ROLLBACK")
            throw error
        }
    }

    /// An SQLite error as the store reports it: a full disk and I/O errors by name.
    static func mapped(_ error: any Error, path: String) -> FleetStoreError {
        guard let error = error as? SQLiteError else { return .queryFailed(sqlState: nil, message: "\(error)") }
        switch error.reason {
        case .full:
            return .diskFull(path: path)
        case .ioError, .ioErrorFailedRead, .ioErrorIncompleteRead, .ioErrorFailedWrite, .ioErrorFailedSync, .ioErrorFailedDirSync,
             .ioErrorFailedTruncate, .ioErrorFailedStat, .ioErrorCorruptedFilesystem, .corrupt, .notADatabase, .readOnly, .permission:
            return .ioError(path: path, reason: error.message)
        case .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath:
            return .cannotOpenFile(path: path, reason: error.message)
        default:
            return .queryFailed(sqlState: nil, message: error.message)
        }
    }

    /// A `sightings` row as a value; a column of the wrong type is an error, not a trap.
    static func sighting(_ row: SQLiteRow) throws(FleetStoreError) -> Sighting {
        guard let gateway = row.column("gateway")?.string, let run = row.column("run")?.integer,
              let sequence = row.column("sequence")?.integer, let identity = row.column("identity")?.string,
              let address = row.column("address")?.string, let random = row.column("address_random")?.integer,
              let time = row.column("time_us")?.integer, let rssi = row.column("rssi")?.integer
        else { throw .unreadableRow(reason: "a sightings row lacks a column or has one of the wrong type") }
        let frame: [UInt8]
        switch row.column("frame") {
        case .blob(let buffer): frame = Array(buffer.readableBytesView)
        case .null: frame = []  // SQLite may hand back an empty BLOB as NULL.
        default: throw .unreadableRow(reason: "the frame of \(gateway)/\(run)/\(sequence) is not a BLOB")
        }
        return Sighting(gateway: gateway, run: Int64(run), sequence: Int64(sequence), identity: identity, address: address,
                        addressIsRandom: random != 0, time: Int64(time), rssi: Int(rssi), txPower: row.column("tx_power")?.integer.map { Int($0) },
                        frame: frame)
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}

/// The `sightings` columns, in the order both engines insert and select them.
enum SightingColumns {
    static let list = "(gateway, run, sequence, identity, address, address_random, time_us, rssi, tx_power, frame)"
    static let select = "gateway, run, sequence, identity, address, address_random, time_us, rssi, tx_power, frame"
}

/// The first and last times of each gateway's sightings in a batch, for the `gateways` upsert.
struct GatewaySpan: Sendable {
    let name: String
    let first: Int64
    let last: Int64

    static func of(_ batch: SightingBatch) -> [GatewaySpan] {
        var spans: [String: (Int64, Int64)] = [:]
        for sighting in batch.sightings {
            let span = spans[sighting.gateway] ?? (sighting.time, sighting.time)
            spans[sighting.gateway] = (min(span.0, sighting.time), max(span.1, sighting.time))
        }
        return spans.keys.sorted().compactMap { name in spans[name].map { GatewaySpan(name: name, first: $0.0, last: $0.1) } }
    }
}
