import BLEFleet
import SQLiteNIO

/// The back end's tables on SQLite (schema version 2): gateway zones, ride logs and phone sightings.
extension SQLiteFleetStore {
    @discardableResult
    public func assignZone(_ zone: String?, toGateway gateway: String) async throws(FleetStoreError) -> Bool {
        try await serialized { () async throws(FleetStoreError) -> Bool in
            let rows = try await run(try await open(), "UPDATE gateways SET zone = ? WHERE name = ? RETURNING 1",
                                     [zone.map { .text($0) } ?? .null, .text(gateway)])
            return !rows.isEmpty
        }
    }

    public func storeRide(_ ride: RideLog, contentKey: String, makeReference: @Sendable (Int64) -> String) async throws(FleetStoreError) -> StoredRide {
        try await serialized { () async throws(FleetStoreError) -> StoredRide in
            let db = try await open()
            return try await transaction(db, begin: "BEGIN IMMEDIATE") { () async throws(FleetStoreError) -> StoredRide in
                let found = try await run(db, "SELECT reference FROM ride_logs WHERE content_key = ?", [.text(contentKey)])
                if let reference = found.first?.column("reference")?.string { return StoredRide(reference: reference, created: false) }
                let counted = try await run(db, "SELECT COUNT(*) AS n FROM ride_logs")
                let base = Int64(counted.first?.column("n")?.integer ?? 0)
                for attempt in Int64(0) ..< RideLogLimits.referenceAttempts {
                    let reference = makeReference(base + attempt)
                    let inserted = try await run(db, """
                        INSERT INTO ride_logs (reference, content_key, rider, vehicle, route, boarded_zone, boarded_us,
                                               alighted_zone, alighted_us, posted_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (reference) DO NOTHING RETURNING 1
                        """, [.text(reference), .text(contentKey), .text(ride.rider), .text(ride.vehicle), ride.route.map { .text($0) } ?? .null,
                              .text(ride.boarded.zone), .integer(SQLiteInt64(ride.boarded.time)),
                              ride.alighted.map { .text($0.zone) } ?? .null, ride.alighted.map { .integer(SQLiteInt64($0.time)) } ?? .null,
                              .integer(SQLiteInt64(ride.postedAt))])
                    guard !inserted.isEmpty else { continue }
                    for (position, stop) in ride.stops.enumerated() {
                        try await run(db, "INSERT INTO ride_stops (reference, position, zone, time_us) VALUES (?, ?, ?, ?)",
                                      [.text(reference), .integer(position), .text(stop.zone), .integer(SQLiteInt64(stop.time))])
                    }
                    return StoredRide(reference: reference, created: true)
                }
                throw .queryFailed(sqlState: nil, message: "no free ride reference after \(RideLogLimits.referenceAttempts) tries")
            }
        }
    }

    public func ride(reference: String) async throws(FleetStoreError) -> RideLog? {
        try await serialized { () async throws(FleetStoreError) -> RideLog? in
            let db = try await open()
            let rows = try await run(db, """
                SELECT reference, rider, vehicle, route, boarded_zone, boarded_us, alighted_zone, alighted_us, posted_at
                FROM ride_logs WHERE reference = ?
                """, [.text(reference)])
            guard let row = rows.first else { return nil }
            guard let rider = row.column("rider")?.string, let vehicle = row.column("vehicle")?.string,
                  let boardedZone = row.column("boarded_zone")?.string, let boardedTime = row.column("boarded_us")?.integer,
                  let postedAt = row.column("posted_at")?.integer
            else { throw .unreadableRow(reason: "the ride_logs row \(reference) lacks a column or has one of the wrong type") }
            var alighted: RideLog.Stop?
            if let zone = row.column("alighted_zone")?.string, let time = row.column("alighted_us")?.integer {
                alighted = RideLog.Stop(zone: zone, time: Int64(time))
            }
            let stopRows = try await run(db, "SELECT zone, time_us FROM ride_stops WHERE reference = ? ORDER BY position", [.text(reference)])
            let stops = try stopRows.map { row throws(FleetStoreError) -> RideLog.Stop in
                guard let zone = row.column("zone")?.string, let time = row.column("time_us")?.integer
                else { throw .unreadableRow(reason: "a ride_stops row of \(reference) lacks its zone or time") }
                return RideLog.Stop(zone: zone, time: Int64(time))
            }
            return RideLog(reference: reference, rider: rider, vehicle: vehicle, route: row.column("route")?.string,
                           boarded: RideLog.Stop(zone: boardedZone, time: Int64(boardedTime)), alighted: alighted, stops: stops,
                           postedAt: Int64(postedAt))
        }
    }

    @discardableResult
    public func write(phoneSightings: [PhoneSighting]) async throws(FleetStoreError) -> Int {
        guard !phoneSightings.isEmpty else { return 0 }
        return try await serialized { () async throws(FleetStoreError) -> Int in
            let db = try await open()
            return try await transaction(db, begin: "BEGIN IMMEDIATE") { () async throws(FleetStoreError) -> Int in
                var inserted = 0
                for sighting in phoneSightings {
                    let position = sighting.position
                    func real(_ value: Double?) -> SQLiteData { value.map { .float($0) } ?? .null }
                    let rows = try await run(db, """
                        INSERT INTO phone_sightings (phone, identity, rssi, time_us, latitude, longitude, x, y, accuracy)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1
                        """, [.text(sighting.phone), .text(sighting.identity), .integer(sighting.rssi), .integer(SQLiteInt64(sighting.time)),
                              real(position.latitude), real(position.longitude), real(position.x), real(position.y), real(position.accuracy)])
                    inserted += rows.count
                }
                return inserted
            }
        }
    }

    public func phoneSightings(identity: String, from: Int64, to: Int64, limit: Int?) async throws(FleetStoreError) -> [PhoneSighting] {
        try await serialized { () async throws(FleetStoreError) -> [PhoneSighting] in
            var sql = """
                SELECT phone, identity, rssi, time_us, latitude, longitude, x, y, accuracy FROM phone_sightings
                WHERE identity = ? AND time_us >= ? AND time_us < ? ORDER BY time_us, phone
                """
            var binds: [SQLiteData] = [.text(identity), .integer(SQLiteInt64(from)), .integer(SQLiteInt64(to))]
            if let limit { sql += " LIMIT ?"; binds.append(.integer(max(0, limit))) }
            return try await run(try await open(), sql, binds).map { row throws(FleetStoreError) -> PhoneSighting in
                guard let phone = row.column("phone")?.string, let identity = row.column("identity")?.string,
                      let rssi = row.column("rssi")?.integer, let time = row.column("time_us")?.integer
                else { throw .unreadableRow(reason: "a phone_sightings row lacks a column or has one of the wrong type") }
                let position = PhoneSighting.Position(latitude: row.column("latitude")?.double, longitude: row.column("longitude")?.double,
                                                      x: row.column("x")?.double, y: row.column("y")?.double,
                                                      accuracy: row.column("accuracy")?.double)
                return PhoneSighting(phone: phone, identity: identity, rssi: Int(rssi), time: Int64(time), position: position)
            }
        }
    }
}

/// Bounds of the ride log tables both engines keep to.
enum RideLogLimits {
    /// How many counter values `storeRide` tries before giving up (a reference already taken
    /// by another ride moves on to the next value).
    static let referenceAttempts: Int64 = 64
}
