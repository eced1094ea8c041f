import BLEFleet
import BLEFleetStore

/// The back end's answers, computed from a fleet store: each operation of `openapi.yaml` as a
/// function of its parameters, throwing ``BackendError`` (404 for what was never stored, 503 when
/// the store fails). No HTTP here, so the routes stay thin.
public struct BackendQueries: Sendable {
    /// The store read and written.
    public let store: any FleetStore
    /// The most sightings one answer reads (``BackendLimits/maximumSightingsRead`` unless a test lowers it).
    public let maximumSightingsRead: Int
    /// The Eddystone-EID beacons `POST /eid/resolve` knows (configuration, not the store).
    public let eidBeacons: EIDBeaconRegistry

    /// Queries over `store`, resolving the identifiers of `eidBeacons`.
    public init(store: any FleetStore, maximumSightingsRead: Int = BackendLimits.maximumSightingsRead,
                eidBeacons: EIDBeaconRegistry = EIDBeaconRegistry.none) {
        self.store = store
        self.maximumSightingsRead = maximumSightingsRead
        self.eidBeacons = eidBeacons
    }

    /// Runs a store call, turning its failure into a 503.
    func storeCall<T>(_ body: () async throws(FleetStoreError) -> T) async throws(BackendError) -> T {
        do throws(FleetStoreError) {
            return try await body()
        } catch {
            throw .store(error)
        }
    }

    /// The sightings `from <= time < to` of an identity and/or a gateway, at most
    /// ``maximumSightingsRead`` of them; a 400 when the range holds more.
    func boundedSightings(from: Int64, to: Int64, identity: String?, gateway: String?) async throws(BackendError) -> [Sighting] {
        let limit = maximumSightingsRead
        let found = try await storeCall { () async throws(FleetStoreError) in
            try await store.sightings(from: from, to: to, identity: identity, gateway: gateway, limit: limit + 1)
        }
        guard found.count <= limit else { throw Self.rangeTooLarge(limit) }
        return found
    }

    /// The refusal of a range holding more than `limit` sightings.
    static func rangeTooLarge(_ limit: Int) -> BackendError {
        BackendError(status: .badRequest, error: "range_too_large", reason: "the range holds more than \(limit) sightings; narrow it with from and to")
    }

    /// Each gateway's zone: the one assigned, else its name.
    func zoneOfGateway() async throws(BackendError) -> [String: String] {
        let gateways = try await storeCall { () async throws(FleetStoreError) in try await store.gateways() }
        return Dictionary(gateways.map { ($0.name, $0.zone ?? $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// `sightings` placed in their gateways' zones.
    func zoned(_ sightings: [Sighting], zones: [String: String]) -> [ZoneSighting] {
        sightings.map { ZoneSighting(identity: $0.identity, zone: zones[$0.gateway] ?? $0.gateway, gateway: $0.gateway, time: $0.time, rssi: $0.rssi) }
    }

    /// The latest sighting of `identity`, or a 404 when it was never seen.
    func latest(_ identity: String) async throws(BackendError) -> Sighting {
        guard let latest = try await storeCall({ () async throws(FleetStoreError) in try await store.latest(identity: identity) }) else {
            throw .notFound("the identity '\(identity)' was never seen by any gateway")
        }
        return latest
    }

    /// `GET /health`.
    public func health() async throws(BackendError) -> BackendPayloads.Health {
        try await storeCall { () async throws(FleetStoreError) in try await store.ping() }
        return BackendPayloads.Health(status: "ok", schemaVersion: FleetSchema.currentVersion)
    }

    /// `GET /identities/{identity}/location`: the strongest sighting within `window` µs of the latest.
    public func location(identity: String, window: (seconds: Double, microseconds: Int64)) async throws(BackendError) -> BackendPayloads.Location {
        try await location(identity: identity, window: window, zones: try await zoneOfGateway())
    }

    /// `GET /locations`: every identity's location, as ``location(identity:window:)`` answers
    /// each, in one answer (an office view of a thousand identities asks once, not a thousand
    /// times); sorted by identity.
    public func locations(window: (seconds: Double, microseconds: Int64)) async throws(BackendError) -> BackendPayloads.Locations {
        let identities = try await storeCall { () async throws(FleetStoreError) in try await store.identities() }
        let zones = try await zoneOfGateway()
        var locations: [BackendPayloads.Location] = []
        locations.reserveCapacity(identities.count)
        for identity in identities.sorted() {
            locations.append(try await location(identity: identity, window: window, zones: zones))
        }
        return BackendPayloads.Locations(locations: locations)
    }

    /// The location of `identity` with the gateways' zones already read.
    private func location(identity: String, window: (seconds: Double, microseconds: Int64), zones: [String: String]) async throws(BackendError)
        -> BackendPayloads.Location {
        let latest = try await latest(identity)
        let (start, overflow) = latest.time.subtractingReportingOverflow(window.microseconds)
        let recent = try await boundedSightings(from: overflow ? Int64.min : start, to: latest.time &+ 1, identity: identity, gateway: nil)
        let fallback = zoned([latest], zones: zones)
        guard let best = ZoneVisits.location(recent.isEmpty ? fallback : zoned(recent, zones: zones), window: window.microseconds) else {
            throw .notFound("the identity '\(identity)' was never seen by any gateway")
        }
        return BackendPayloads.Location(identity: identity, zone: best.zone, gateway: best.gateway, time: best.time, rssi: best.rssi,
                                        lastSeen: latest.time, windowSeconds: window.seconds)
    }

    /// `GET /identities/{identity}/history`.
    public func history(identity: String, from: Int64, to: Int64, limit: Int) async throws(BackendError) -> BackendPayloads.History {
        _ = try await latest(identity)
        let zones = try await zoneOfGateway()
        let sightings = try await storeCall { () async throws(FleetStoreError) in
            try await store.sightings(from: from, to: to, identity: identity, gateway: nil, limit: limit)
        }
        return BackendPayloads.History(identity: identity, sightings: sightings.map {
            BackendPayloads.HistoryEntry(time: $0.time, gateway: $0.gateway, zone: zones[$0.gateway] ?? $0.gateway, rssi: $0.rssi,
                                         address: $0.address, txPower: $0.txPower)
        })
    }

    /// `GET /identities/{identity}/passages`.
    public func passages(identity: String, from: Int64, to: Int64, gap: (seconds: Double, microseconds: Int64)) async throws(BackendError) -> BackendPayloads.Passages {
        _ = try await latest(identity)
        let zones = try await zoneOfGateway()
        let sightings = try await boundedSightings(from: from, to: to, identity: identity, gateway: nil)
        return BackendPayloads.Passages(identity: identity, gapSeconds: gap.seconds,
                                        passages: ZoneVisits.visits(zoned(sightings, zones: zones), gap: gap.microseconds))
    }

    /// The sightings of the gateways of `zone` in the range, zoned; a 404 when no gateway covers it.
    func sightings(inZone zone: String, from: Int64, to: Int64, identity: String?) async throws(BackendError) -> [ZoneSighting] {
        let zones = try await zoneOfGateway()
        let gateways = zones.filter { $0.value == zone }.keys.sorted()
        guard !gateways.isEmpty else { throw .notFound("no gateway covers the zone '\(zone)'; GET /zones lists the zones") }
        var found: [Sighting] = []
        for gateway in gateways {
            found += try await boundedSightings(from: from, to: to, identity: identity, gateway: gateway)
            guard found.count <= maximumSightingsRead else { throw Self.rangeTooLarge(maximumSightingsRead) }
        }
        return zoned(found, zones: zones)
    }

    /// `GET /zones/{zone}/visits`.
    ///
    /// With `presence`, the visits are those the hysteresis presence algorithm makes of every
    /// zone's sightings (``ZoneVisits/presenceVisits(_:)``), one zone at a time per identity.
    public func visits(zone: String, from: Int64, to: Int64, gap: (seconds: Double, microseconds: Int64),
                       presence: Bool = false) async throws(BackendError) -> BackendPayloads.Visits {
        if presence {
            let zones = try await zoneOfGateway()
            guard zones.values.contains(zone) else { throw .notFound("no gateway covers the zone '\(zone)'; GET /zones lists the zones") }
            let sightings = zoned(try await boundedSightings(from: from, to: to, identity: nil, gateway: nil), zones: zones)
            guard let visits = ZoneVisits.presenceVisits(sightings) else {
                throw .badParameter("to", "assign=presence replays at most 7 days of sightings; narrow from and to")
            }
            return BackendPayloads.Visits(zone: zone, gapSeconds: gap.seconds, visits: visits.filter { $0.zone == zone })
        }
        let sightings = try await sightings(inZone: zone, from: from, to: to, identity: nil)
        return BackendPayloads.Visits(zone: zone, gapSeconds: gap.seconds, visits: ZoneVisits.visits(sightings, gap: gap.microseconds))
    }

    /// `GET /zones`.
    public func zones() async throws(BackendError) -> BackendPayloads.Zones {
        let zones = try await zoneOfGateway()
        let grouped = Dictionary(grouping: zones.keys, by: { zones[$0] ?? $0 })
        return BackendPayloads.Zones(zones: grouped.keys.sorted().map { BackendPayloads.Zone(zone: $0, gateways: (grouped[$0] ?? []).sorted()) })
    }

    /// `GET /identities`.
    public func identities() async throws(BackendError) -> BackendPayloads.Identities {
        BackendPayloads.Identities(identities: try await storeCall { () async throws(FleetStoreError) in try await store.identities() })
    }

    /// `GET /gateways`.
    public func gateways() async throws(BackendError) -> BackendPayloads.Gateways {
        BackendPayloads.Gateways(gateways: try await storeCall { () async throws(FleetStoreError) in try await store.gateways() })
    }

    /// `PUT /gateways/{gateway}/zone`: assigns (or, with `nil`, clears) a gateway's zone; a 404
    /// when the gateway has not written yet (its row appears with its first batch).
    public func assignZone(_ zone: String?, gateway: String) async throws(BackendError) -> FleetGateway {
        if let zone {
            do throws(BackendError) {
                try BackendParameters.checkText(zone, name: "zone")
            } catch {
                throw .invalid(error.reason)
            }
        }
        let assigned = try await storeCall { () async throws(FleetStoreError) in try await store.assignZone(zone, toGateway: gateway) }
        let found = try await storeCall { () async throws(FleetStoreError) in try await store.gateways() }.first { $0.name == gateway }
        guard assigned, let found else { throw .notFound("no gateway '\(gateway)' has written to the store yet; GET /gateways lists them") }
        return found
    }

    /// `GET /dwell`: per zone and identity, optionally of one zone and/or one identity.
    ///
    /// With `nearestSlot`, each slot of that length goes to the zone an identity was heard
    /// strongest in (``ZoneVisits/nearestDwell(_:slot:gap:)``), so every zone's sightings of the
    /// identities are read even when one zone is asked for.
    ///
    /// With `presence`, the time is what the hysteresis presence algorithm placed in each zone
    /// (``ZoneVisits/presenceDwell(_:)``), again over every zone's sightings.
    public func dwell(zone: String?, identity: String?, from: Int64, to: Int64,
                      gap: (seconds: Double, microseconds: Int64),
                      nearestSlot: (seconds: Double, microseconds: Int64)? = nil, presence: Bool = false) async throws(BackendError) -> BackendPayloads.Dwell {
        if nearestSlot != nil || presence {
            let zones = try await zoneOfGateway()
            let sightings = zoned(try await boundedSightings(from: from, to: to, identity: identity, gateway: nil), zones: zones)
            let dwell: [ZoneDwell]
            if let nearestSlot {
                dwell = ZoneVisits.nearestDwell(sightings, slot: nearestSlot.microseconds, gap: gap.microseconds)
            } else if let replayed = ZoneVisits.presenceDwell(sightings) {
                dwell = replayed
            } else {
                throw .badParameter("to", "assign=presence replays at most 7 days of sightings; narrow from and to")
            }
            return BackendPayloads.Dwell(gapSeconds: gap.seconds, dwell: zone.map { zone in dwell.filter { $0.zone == zone } } ?? dwell)
        }
        let sightings: [ZoneSighting]
        if let zone {
            sightings = try await self.sightings(inZone: zone, from: from, to: to, identity: identity)
        } else {
            let zones = try await zoneOfGateway()
            sightings = zoned(try await boundedSightings(from: from, to: to, identity: identity, gateway: nil), zones: zones)
        }
        return BackendPayloads.Dwell(gapSeconds: gap.seconds, dwell: ZoneVisits.dwell(ZoneVisits.visits(sightings, gap: gap.microseconds)))
    }

    /// `POST /rides`: stores a checked ride; `created` is false when the same ride was stored before.
    public func postRide(_ ride: RideLog) async throws(BackendError) -> StoredRide {
        try RideValidation.check(ride)
        let key = RideReference.contentKey(of: ride)
        return try await storeCall { () async throws(FleetStoreError) in
            try await store.storeRide(ride, contentKey: key, makeReference: { RideReference.make(contentKey: key, counter: $0) })
        }
    }

    /// `GET /rides/{reference}`.
    public func ride(reference: String) async throws(BackendError) -> RideLog {
        guard RideReference.isWellFormed(reference) else {
            throw .badParameter("reference", "'\(reference)' is not a ride reference; references look like R-7K2M-Q9TD")
        }
        guard let ride = try await storeCall({ () async throws(FleetStoreError) in try await store.ride(reference: reference) }) else {
            throw .notFound("no ride has the reference '\(reference)'")
        }
        return ride
    }

    /// `POST /phone-sightings`.
    public func postPhoneSightings(_ batch: BackendPayloads.PhoneSightingBatch) async throws(BackendError) -> BackendPayloads.PhoneSightingsAccepted {
        try RideValidation.check(batch)
        let stored = try await storeCall { () async throws(FleetStoreError) in try await store.write(phoneSightings: batch.sightings) }
        return BackendPayloads.PhoneSightingsAccepted(received: batch.sightings.count, stored: stored)
    }

    /// `GET /identities/{identity}/track`: a 404 when no phone ever reported the identity.
    public func track(identity: String, from: Int64, to: Int64, limit: Int) async throws(BackendError) -> BackendPayloads.Track {
        let points = try await storeCall { () async throws(FleetStoreError) in
            try await store.phoneSightings(identity: identity, from: from, to: to, limit: limit)
        }
        if points.isEmpty {
            let ever = try await storeCall { () async throws(FleetStoreError) in
                try await store.phoneSightings(identity: identity, from: Int64.min, to: Int64.max, limit: 1)
            }
            if ever.isEmpty { throw .notFound("no phone has reported the identity '\(identity)'") }
        }
        return BackendPayloads.Track(identity: identity, points: points.map {
            BackendPayloads.TrackPoint(time: $0.time, phone: $0.phone, rssi: $0.rssi, latitude: $0.position.latitude,
                                       longitude: $0.position.longitude, x: $0.position.x, y: $0.position.y, accuracy: $0.position.accuracy)
        })
    }
}
