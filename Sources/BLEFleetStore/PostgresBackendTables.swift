import BLEFleet
import PostgresNIO

/// The back end's tables on PostgreSQL (schema version 2): gateway zones, ride logs and phone
/// sightings; the same statements and answers as ``SQLiteFleetStore``'s, with `$n` parameters.
extension PostgresFleetStore {
    @discardableResult
    public func assignZone(_ zone: String?, toGateway gateway: String) async throws(FleetStoreError) -> Bool {
        try await serialized { () async throws(FleetStoreError) -> Bool in
            var binds = PostgresBindings()
            binds.append(zone)
            binds.append(gateway)
            return !(try await run(try await open(), "UPDATE gateways SET zone = $1 WHERE name = $2 RETURNING 1", binds)).isEmpty
        }
    }

    public func storeRide(_ ride: RideLog, contentKey: String, makeReference: @Sendable (Int64) -> String) async throws(FleetStoreError) -> StoredRide {
        try await serialized { () async throws(FleetStoreError) -> StoredRide in
            let db = try await open()
            return try await transaction(db) { () async throws(FleetStoreError) -> StoredRide in
                // One poster at a time, so that two back ends count the same rows and a
                // content key is looked up before anyone else inserts it.
                try await run(db, "SELECT pg_advisory_xact_lock(\(Self.rideLock))")
                var lookup = PostgresBindings()
                lookup.append(contentKey)
                if let row = try await run(db, "SELECT reference FROM ride_logs WHERE content_key = $1", lookup).first {
                    return StoredRide(reference: try decode(row, String.self), created: false)
                }
                let base = try await run(db, "SELECT COUNT(*)::int8 FROM ride_logs").first.map { row throws(FleetStoreError) in try decode(row, Int64.self) } ?? 0
                for attempt in Int64(0) ..< RideLogLimits.referenceAttempts {
                    let reference = makeReference(base + attempt)
                    var binds = PostgresBindings()
                    binds.append(reference)
                    binds.append(contentKey)
                    binds.append(ride.rider)
                    binds.append(ride.vehicle)
                    binds.append(ride.route)
                    binds.append(ride.boarded.zone)
                    binds.append(ride.boarded.time)
                    binds.append(ride.alighted?.zone)
                    binds.append(ride.alighted?.time)
                    binds.append(ride.postedAt)
                    let inserted = try await run(db, """
                        INSERT INTO ride_logs (reference, content_key, rider, vehicle, route, boarded_zone, boarded_us,
                                               alighted_zone, alighted_us, posted_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (reference) DO NOTHING RETURNING 1
                        """, binds)
                    guard !inserted.isEmpty else { continue }
                    for (position, stop) in ride.stops.enumerated() {
                        var stopBinds = PostgresBindings()
                        stopBinds.append(reference)
                        stopBinds.append(Int32(clamping: position))
                        stopBinds.append(stop.zone)
                        stopBinds.append(stop.time)
                        try await run(db, "INSERT INTO ride_stops (reference, position, zone, time_us) VALUES ($1, $2, $3, $4)", stopBinds)
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
            var binds = PostgresBindings()
            binds.append(reference)
            let rows = try await run(db, """
                SELECT rider, vehicle, route, boarded_zone, boarded_us, alighted_zone, alighted_us, posted_at
                FROM ride_logs WHERE reference = $1
                """, binds)
            guard let row = rows.first else { return nil }
            let (rider, vehicle, route, boardedZone, boardedTime, alightedZone, alightedTime, postedAt) =
                try decodeColumns(row, (String, String, String?, String, Int64, String?, Int64?, Int64).self)
            let stops = try await run(db, "SELECT zone, time_us FROM ride_stops WHERE reference = $1 ORDER BY position", binds)
                .map { row throws(FleetStoreError) -> RideLog.Stop in
                    let (zone, time) = try decodeColumns(row, (String, Int64).self)
                    return RideLog.Stop(zone: zone, time: time)
                }
            var alighted: RideLog.Stop?
            if let alightedZone, let alightedTime { alighted = RideLog.Stop(zone: alightedZone, time: alightedTime) }
            return RideLog(reference: reference, rider: rider, vehicle: vehicle, route: route,
                           boarded: RideLog.Stop(zone: boardedZone, time: boardedTime), alighted: alighted, stops: stops, postedAt: postedAt)
        }
    }

    @discardableResult
    public func write(phoneSightings: [PhoneSighting]) async throws(FleetStoreError) -> Int {
        guard !phoneSightings.isEmpty else { return 0 }
        return try await serialized { () async throws(FleetStoreError) -> Int in
            let db = try await open()
            return try await transaction(db) { () async throws(FleetStoreError) -> Int in
                var inserted = 0
                for sighting in phoneSightings {
                    var binds = PostgresBindings()
                    binds.append(sighting.phone)
                    binds.append(sighting.identity)
                    binds.append(Int32(clamping: sighting.rssi))
                    binds.append(sighting.time)
                    binds.append(sighting.position.latitude)
                    binds.append(sighting.position.longitude)
                    binds.append(sighting.position.x)
                    binds.append(sighting.position.y)
                    binds.append(sighting.position.accuracy)
                    inserted += try await run(db, """
                        INSERT INTO phone_sightings (phone, identity, rssi, time_us, latitude, longitude, x, y, accuracy)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING 1
                        """, binds).count
                }
                return inserted
            }
        }
    }

    public func phoneSightings(identity: String, from: Int64, to: Int64, limit: Int?) async throws(FleetStoreError) -> [PhoneSighting] {
        try await serialized { () async throws(FleetStoreError) -> [PhoneSighting] in
            var binds = PostgresBindings()
            binds.append(identity)
            binds.append(from)
            binds.append(to)
            var sql = """
                SELECT phone, identity, rssi, time_us, latitude, longitude, x, y, accuracy FROM phone_sightings
                WHERE identity = $1 AND time_us >= $2 AND time_us < $3 ORDER BY time_us, phone
                """
            if let limit { binds.append(Int64(max(0, limit))); sql += " LIMIT $\(binds.count)" }
            return try await run(try await open(), sql, binds).map { row throws(FleetStoreError) -> PhoneSighting in
                let (phone, identity, rssi, time, latitude, longitude, x, y, accuracy) =
                    try decodeColumns(row, (String, String, Int32, Int64, Double?, Double?, Double?, Double?, Double?).self)
                return PhoneSighting(phone: phone, identity: identity, rssi: Int(rssi), time: time,
                                     position: PhoneSighting.Position(latitude: latitude, longitude: longitude, x: x, y: y, accuracy: accuracy))
            }
        }
    }
}
