import BLEFleet
import BLEFleetStore

/// The bodies the back end sends and takes, one type per schema of `openapi.yaml`
/// (`components/schemas`), encoded with snake_case keys. Times are microseconds since the epoch.
public enum BackendPayloads {
    /// `GET /health`: the store answers.
    public struct Health: Codable, Hashable, Sendable {
        /// Always `ok` (a failing store is a 503 error instead).
        public var status: String
        /// The schema version this back end reads and writes.
        public var schemaVersion: Int
    }

    /// `GET /identities/{identity}/location`: where an identity is now.
    public struct Location: Codable, Hashable, Sendable {
        /// The identity asked about.
        public var identity: String
        /// The zone of the strongest sighting near the latest.
        public var zone: String
        /// The gateway of that sighting.
        public var gateway: String
        /// The time of that sighting.
        public var time: Int64
        /// Its RSSI, in dBm.
        public var rssi: Int
        /// The time of the identity's latest sighting, at any gateway.
        public var lastSeen: Int64
        /// The window before the latest sighting that was searched for the strongest, in seconds.
        public var windowSeconds: Double
    }

    /// One sighting in an identity's history, with its zone.
    public struct HistoryEntry: Codable, Hashable, Sendable {
        /// When.
        public var time: Int64
        /// The gateway that heard it.
        public var gateway: String
        /// The gateway's zone.
        public var zone: String
        /// How strongly, in dBm.
        public var rssi: Int
        /// The advertiser's address as received.
        public var address: String
        /// The announced TX power, in dBm, when there was one.
        public var txPower: Int?
    }

    /// `GET /identities/{identity}/history`.
    public struct History: Codable, Hashable, Sendable {
        /// The identity asked about.
        public var identity: String
        /// Its sightings in the time range, oldest first, at most the limit asked.
        public var sightings: [HistoryEntry]
    }

    /// `GET /identities/{identity}/passages`: each contiguous visit of the identity to a zone.
    public struct Passages: Codable, Hashable, Sendable {
        /// The identity asked about.
        public var identity: String
        /// The gap that ends a visit, in seconds.
        public var gapSeconds: Double
        /// The visits, by first time heard.
        public var passages: [ZoneVisit]
    }

    /// `GET /zones/{zone}/visits`.
    public struct Visits: Codable, Hashable, Sendable {
        /// The zone asked about.
        public var zone: String
        /// The gap that ends a visit, in seconds.
        public var gapSeconds: Double
        /// The visits, by arrival.
        public var visits: [ZoneVisit]
    }

    /// `GET /dwell`.
    public struct Dwell: Codable, Hashable, Sendable {
        /// The gap that ends a visit, in seconds.
        public var gapSeconds: Double
        /// The time per zone and identity, by zone then identity.
        public var dwell: [ZoneDwell]
    }

    /// `GET /zones`: the zones the gateways cover.
    public struct Zones: Codable, Hashable, Sendable {
        /// Each zone with its gateways, by zone.
        public var zones: [Zone]
    }

    /// A zone and the gateways assigned to it.
    public struct Zone: Codable, Hashable, Sendable {
        /// The zone's name.
        public var zone: String
        /// Its gateways, by name.
        public var gateways: [String]
    }

    /// `GET /identities`: every identity the gateways have seen.
    /// `GET /locations`: where every identity is now.
    public struct Locations: Codable, Hashable, Sendable {
        /// One location per identity, sorted by identity.
        public var locations: [Location]
    }

    /// `GET /identities`.
    public struct Identities: Codable, Hashable, Sendable {
        /// The identities, sorted.
        public var identities: [String]
    }

    /// `GET /gateways`: the gateways that have written, with their zones.
    public struct Gateways: Codable, Hashable, Sendable {
        /// The gateways, by name.
        public var gateways: [FleetGateway]
    }

    /// `PUT /gateways/{gateway}/zone`: the zone to assign; `null` (or no `zone`) clears it, so
    /// that the gateway's zone is its name again.
    public struct ZoneAssignment: Codable, Hashable, Sendable {
        /// The zone.
        public var zone: String?
    }

    /// `POST /rides`: the reference of the stored ride.
    public struct RideCreated: Codable, Hashable, Sendable {
        /// `R-XXXX-XXXX`.
        public var reference: String
    }

    /// `POST /phone-sightings`: the batch a phone sends.
    public struct PhoneSightingBatch: Codable, Hashable, Sendable {
        /// The sightings, at most ``BackendLimits/phoneSightingsPerBatch``.
        public var sightings: [PhoneSighting]
    }

    /// `POST /phone-sightings`: what was kept.
    public struct PhoneSightingsAccepted: Codable, Hashable, Sendable {
        /// How many the batch held.
        public var received: Int
        /// How many were new (a batch sent again stores nothing twice).
        public var stored: Int
    }

    /// One point of an identity's track: where a phone was when it heard the identity.
    public struct TrackPoint: Codable, Hashable, Sendable {
        /// When.
        public var time: Int64
        /// The phone that heard it.
        public var phone: String
        /// How strongly, in dBm.
        public var rssi: Int
        /// The phone's latitude, degrees.
        public var latitude: Double?
        /// The phone's longitude, degrees.
        public var longitude: Double?
        /// The phone's world x, metres.
        public var x: Double?
        /// The phone's world y, metres.
        public var y: Double?
        /// The position's accuracy, metres.
        public var accuracy: Double?
    }

    /// `GET /identities/{identity}/track`.
    public struct Track: Codable, Hashable, Sendable {
        /// The identity asked about.
        public var identity: String
        /// The phones' positions, oldest first.
        public var points: [TrackPoint]
    }
}

/// The bounds the back end keeps requests to, each named in the error that refuses it.
public enum BackendLimits {
    /// The most rows a history or track answer holds (`limit`).
    public static let maximumLimit = 10_000
    /// The rows a history or track answer holds when no `limit` is given.
    public static let defaultLimit = 1000
    /// The most phone sightings one `POST /phone-sightings` takes.
    public static let phoneSightingsPerBatch = 10_000
    /// The most stops one ride log holds.
    public static let stopsPerRide = 1000
    /// The longest text field (an identity, a zone, a name), in UTF-8 bytes.
    public static let maximumTextBytes = 512
    /// The most sightings one visits, passages or dwell answer reads; a range holding more is
    /// refused with a 400 asking for a narrower one, rather than read whole into memory.
    public static let maximumSightingsRead = 1_000_000
    /// The gap that ends a visit when none is given, in seconds.
    public static let defaultGapSeconds = 30.0
    /// The slot `GET /dwell?assign=nearest` places in one zone when none is given, in seconds.
    public static let defaultSlotSeconds = 5.0
    /// The window searched for the strongest sighting when none is given, in seconds.
    public static let defaultWindowSeconds = 10.0
}
