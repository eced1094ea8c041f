/// The store's schema, one for both engines, as a list of versioned migrations
/// (docs/store.md, "Schema"). Each migration runs once, in the same transaction that records
/// it in `fleet_schema_migrations(version, applied_at, description)`.
public enum FleetSchema {
    /// The schema version this code writes and reads. A database recording a higher one is
    /// refused with ``FleetStoreError/schemaFromTheFuture(found:supported:)``.
    public static let currentVersion = 2

    /// The engine a statement is written for: the types and the partitioning differ.
    enum Engine: Sendable {
        case sqlite
        case postgres
    }

    /// One step of the schema: its version, a line saying what it does, and its statements.
    struct Migration: Sendable {
        let version: Int
        let description: String
        let statements: @Sendable (Engine) -> [String]
    }

    /// The bookkeeping table, created before any migration runs.
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS fleet_schema_migrations (
            version INTEGER PRIMARY KEY,
            applied_at BIGINT NOT NULL,
            description TEXT NOT NULL
        )
        """

    /// Every migration, oldest first; versions count up from 1 without gaps.
    static let migrations: [Migration] = [
        Migration(version: 1, description: "gateways, sightings (day partitions on PostgreSQL), presence_events") { engine in
            let blob = engine == .sqlite ? "BLOB" : "BYTEA"
            let boolean = engine == .sqlite ? "INTEGER" : "BOOLEAN"
            // PostgreSQL: a partitioned table's primary key must include the partition key
            // (PostgreSQL 15 docs, §5.11.2.3 "Limitations"), so time_us is in it; a sighting's
            // key always comes with the same time, so the key alone still decides duplicates.
            let sightingsKey = engine == .sqlite ? "gateway, run, sequence" : "gateway, run, sequence, time_us"
            let partitioning = engine == .sqlite ? "" : " PARTITION BY RANGE (time_us)"
            return [
                """
                CREATE TABLE gateways (
                    name TEXT PRIMARY KEY,
                    zone TEXT NULL,
                    first_seen BIGINT NOT NULL,
                    last_seen BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE sightings (
                    gateway TEXT NOT NULL,
                    run BIGINT NOT NULL,
                    sequence BIGINT NOT NULL,
                    identity TEXT NOT NULL,
                    address TEXT NOT NULL,
                    address_random \(boolean) NOT NULL,
                    time_us BIGINT NOT NULL,
                    rssi INTEGER NOT NULL,
                    tx_power INTEGER NULL,
                    frame \(blob) NOT NULL,
                    PRIMARY KEY (\(sightingsKey))
                )\(partitioning)
                """,
                // On PostgreSQL an index on the partitioned table is created on every partition,
                // present and future (PostgreSQL 15 docs, §5.11.2.2 "Partition Maintenance").
                "CREATE INDEX sightings_identity_time ON sightings (identity, time_us)",
                "CREATE INDEX sightings_gateway_time ON sightings (gateway, time_us)",
                "CREATE INDEX sightings_time ON sightings (time_us)",
                """
                CREATE TABLE presence_events (
                    algorithm TEXT NOT NULL,
                    identity TEXT NOT NULL,
                    zone TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('enter', 'exit')),
                    time_us BIGINT NOT NULL
                )
                """,
                "CREATE INDEX presence_events_identity_time ON presence_events (identity, time_us)",
            ]
        },
        Migration(version: 2, description: "ride_logs, ride_stops, phone_sightings (the back end's tables)") { engine in
            let double = engine == .sqlite ? "REAL" : "DOUBLE PRECISION"
            return [
                // content_key names a ride by its content, so that a phone posting the same
                // ride again (a retry after a lost answer) gets the same reference back.
                """
                CREATE TABLE ride_logs (
                    reference TEXT PRIMARY KEY,
                    content_key TEXT NOT NULL UNIQUE,
                    rider TEXT NOT NULL,
                    vehicle TEXT NOT NULL,
                    route TEXT NULL,
                    boarded_zone TEXT NOT NULL,
                    boarded_us BIGINT NOT NULL,
                    alighted_zone TEXT NULL,
                    alighted_us BIGINT NULL,
                    posted_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE ride_stops (
                    reference TEXT NOT NULL REFERENCES ride_logs (reference),
                    position INTEGER NOT NULL,
                    zone TEXT NOT NULL,
                    time_us BIGINT NOT NULL,
                    PRIMARY KEY (reference, position)
                )
                """,
                """
                CREATE TABLE phone_sightings (
                    phone TEXT NOT NULL,
                    identity TEXT NOT NULL,
                    rssi INTEGER NOT NULL,
                    time_us BIGINT NOT NULL,
                    latitude \(double) NULL,
                    longitude \(double) NULL,
                    x \(double) NULL,
                    y \(double) NULL,
                    accuracy \(double) NULL,
                    PRIMARY KEY (phone, identity, time_us)
                )
                """,
                "CREATE INDEX phone_sightings_identity_time ON phone_sightings (identity, time_us)",
            ]
        },
    ]
}

/// A UTC day as the store partitions sightings: day number `n` covers the microseconds
/// `[n * 86 400 000 000, (n + 1) * 86 400 000 000)` and is named `sightings_YYYYMMDD`.
struct SightingDay: Hashable, Comparable, Sendable {
    /// Microseconds in a UTC day (a store day has no leap second, as Unix time has none).
    static let microseconds: Int64 = 86_400_000_000

    /// Days since 1970-01-01.
    let number: Int64

    /// The day holding the microsecond `time` (rounding down, also before 1970).
    init(containing time: Int64) {
        number = time >= 0 ? time / Self.microseconds : -((-time + Self.microseconds - 1) / Self.microseconds)
    }

    init(number: Int64) { self.number = number }

    /// The day's first microsecond.
    var start: Int64 { number * Self.microseconds }
    /// The next day's first microsecond.
    var end: Int64 { start + Self.microseconds }

    /// `sightings_YYYYMMDD`, computed from the day number only (no user text reaches the SQL).
    var partitionName: String {
        let (year, month, day) = Self.civil(fromDays: number)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "sightings_\(pad(year, 4))\(pad(month, 2))\(pad(day, 2))"
    }

    /// The day a partition name denotes, or `nil` when the name is not `sightings_YYYYMMDD`.
    init?(partitionName name: String) {
        let prefix = "sightings_"
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count)
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let year = Int64(digits.prefix(4)), let month = Int64(digits.dropFirst(4).prefix(2)),
              let day = Int64(digits.suffix(2)), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        number = Self.days(fromCivil: year, month, day)
    }

    static func < (lhs: SightingDay, rhs: SightingDay) -> Bool { lhs.number < rhs.number }

    /// Proleptic Gregorian date of a day count (Howard Hinnant, "chrono-Compatible Low-Level
    /// Date Algorithms", civil_from_days).
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Day count of a proleptic Gregorian date (the same paper, days_from_civil).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
