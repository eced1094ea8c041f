import BLEBeacons
import Foundation

/// The Eddystone-EID beacons a back end resolves (google/eddystone, eddystone-eid): each with
/// the identity key and rotation exponent it was provisioned with, and its time counter at a
/// moment of the back end's clock. The keys are secrets the beacons share only with their
/// resolver, so an operator hands them to the back end as configuration (a file readable by
/// the back end alone, like a TLS key; ``init(contentsOf:)``), never over the API.
///
/// A phone that hears an EID frame asks `POST /eid/resolve` which beacon sent it: the answer
/// is the beacon's name only when the identifier is the one that beacon sends at the time of
/// the observation, one rotation period either side. An identifier the beacon sent longer ago
/// is refused as stale: someone copied the frame and is playing it back.
public struct EIDBeaconRegistry: Sendable {
    /// One provisioned beacon, as the configuration file writes it (snake_case keys).
    public struct Beacon: Codable, Hashable, Sendable {
        /// The name resolution answers with (e.g. `shop`).
        public var identifier: String
        /// The AES-128 identity key: 32 hex digits.
        public var identityKey: String
        /// The rotation period exponent K, 0–15 (the identifier changes every 2^K s).
        public var rotationExponent: UInt8
        /// The beacon's time counter at ``registeredAt``.
        public var timeCounter: UInt32
        /// When the counter read ``timeCounter``, in microseconds since 1970.
        public var registeredAt: Int64

        /// A beacon with every field.
        public init(identifier: String, identityKey: String, rotationExponent: UInt8, timeCounter: UInt32, registeredAt: Int64) {
            self.identifier = identifier
            self.identityKey = identityKey
            self.rotationExponent = rotationExponent
            self.timeCounter = timeCounter
            self.registeredAt = registeredAt
        }
    }

    /// What an observed identifier is.
    public enum Resolution: Hashable, Sendable {
        /// The identifier `beacon` sends now: its period starts at counter `periodStart`.
        case current(beacon: String, periodStart: UInt32, rotationSeconds: UInt32)
        /// The identifier `beacon` began sending `ageSeconds` before the observation, two
        /// or more periods ago: a replayed copy.
        case stale(beacon: String, ageSeconds: Int64)
        /// No provisioned beacon sent it, now or in the periods searched.
        case unknown
    }

    /// The configuration file's shape: `{"beacons": [...]}`.
    struct File: Codable {
        var beacons: [Beacon]
    }

    /// The beacons as configured.
    public let beacons: [Beacon]
    /// How many rotation periods before the current one are searched to call an identifier stale.
    public let staleSearchPeriods: UInt32
    private let resolver: EddystoneEIDResolver

    /// A registry of `beacons`; throws ``EIDBeaconRegistryError`` naming the beacon whose key
    /// or exponent is not valid.
    public init(beacons: [Beacon] = [], staleSearchPeriods: UInt32 = 256) throws(EIDBeaconRegistryError) {
        var registrations: [EddystoneEIDResolver.Registration] = []
        var seen = Set<String>()
        for beacon in beacons {
            guard seen.insert(beacon.identifier).inserted else {
                throw EIDBeaconRegistryError("beacon \"\(beacon.identifier)\" is configured twice; identifiers must be unique")
            }
            guard let octets = EIDHex.octets(beacon.identityKey), octets.count == 16 else {
                throw EIDBeaconRegistryError("beacon \"\(beacon.identifier)\": identity_key is not 32 hex digits (an AES-128 key)")
            }
            let key: EddystoneEIDKey
            do {
                key = try EddystoneEIDKey(identityKey: octets.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }, rotationExponent: beacon.rotationExponent)
            } catch {
                throw EIDBeaconRegistryError("beacon \"\(beacon.identifier)\": rotation_exponent \(beacon.rotationExponent) is outside 0…15")
            }
            registrations.append(.init(identifier: beacon.identifier, key: key, timeCounter: beacon.timeCounter, registeredAt: beacon.registeredAt))
        }
        self.init(beacons: beacons, resolver: EddystoneEIDResolver(registrations: registrations, tolerancePeriods: 1),
                  staleSearchPeriods: staleSearchPeriods)
    }

    /// A registry of beacons already checked.
    init(beacons: [Beacon], resolver: EddystoneEIDResolver, staleSearchPeriods: UInt32) {
        self.beacons = beacons
        self.resolver = resolver
        self.staleSearchPeriods = staleSearchPeriods
    }

    /// The registry in a JSON file `{"beacons": [{identifier, identity_key, rotation_exponent,
    /// time_counter, registered_at}]}` (`ble backend --eid-beacons FILE`).
    public init(contentsOf path: String) throws(EIDBeaconRegistryError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw EIDBeaconRegistryError("\(path) cannot be read: \(error.localizedDescription)")
        }
        let file: File
        do {
            file = try BackendJSON.decoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw EIDBeaconRegistryError("\(path): \(BackendJSON.describe(error))")
        } catch {
            throw EIDBeaconRegistryError("\(path) is not JSON: \(error)")
        }
        try self.init(beacons: file.beacons)
    }

    /// What `ephemeralIdentifier`, heard at `time` (microseconds since 1970), is.
    public func resolve(_ ephemeralIdentifier: UInt64, at time: Int64) -> Resolution {
        if let found = try? resolver.resolve(ephemeralIdentifier, at: time),
           let registration = resolver.registrations.first(where: { $0.identifier == found.identifier }) {
            return .current(beacon: found.identifier, periodStart: found.periodStart, rotationSeconds: registration.key.rotationPeriod)
        }
        // Not current: was it one of these beacons' identifiers a while ago?
        for registration in resolver.registrations {
            let key = registration.key
            let counter = registration.estimatedTimeCounter(at: time)
            let expected = key.periodStart(of: counter)
            var back: UInt32 = 2
            while back <= staleSearchPeriods + 1 {
                let offset = key.rotationPeriod &* back
                guard offset <= expected else { break }
                let start = expected - offset
                if (try? key.ephemeralIdentifier(timeCounter: start)) == ephemeralIdentifier {
                    return .stale(beacon: registration.identifier, ageSeconds: Int64(counter &- start))
                }
                back += 1
            }
        }
        return .unknown
    }
}

/// Why an EID beacon configuration was refused: one sentence naming the beacon or file.
public struct EIDBeaconRegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and where.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
