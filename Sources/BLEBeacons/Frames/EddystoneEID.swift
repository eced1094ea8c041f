import BLECrypto

/// Why an Eddystone-EID value could not be computed.
public enum EddystoneEIDError: Error, Hashable, Sendable {
    /// The rotation period exponent K is above 15, the specification's range.
    case rotationExponentOutOfRange(UInt8)
    /// AES-128 failed (``BLECrypto/Error/backendFailure(_:)``, not expected in practice).
    case cryptography(BLECrypto.Error)
}

/// The secret of an Eddystone-EID beacon and how it rotates (google/eddystone,
/// eddystone-eid/eid-computation.md): a 128-bit AES identity key shared with the resolver
/// and the rotation period exponent K, so the identifier changes every 2^K seconds of the
/// beacon's 32-bit time counter.
///
/// Computation, in two AES-128 steps:
/// 1. temporary key = AES(identity key, 11 × 0x00 ‖ 0xFF ‖ 0x00 0x00 ‖ counter bits 31–16);
/// 2. EID = the first 8 octets of AES(temporary key, 11 × 0x00 ‖ K ‖ counter with its K
///    low bits cleared), multi-octet values big-endian.
public struct EddystoneEIDKey: Hashable, Sendable {
    /// The identity key as a number, its 16 octets most significant first (the order in
    /// which they are written in hexadecimal and handed to AES).
    public var identityKey: UInt128
    /// The rotation period exponent K, 0–15.
    public private(set) var rotationExponent: UInt8

    /// A key; throws when `rotationExponent` exceeds 15.
    public init(identityKey: UInt128, rotationExponent: UInt8) throws(EddystoneEIDError) {
        guard rotationExponent <= 15 else { throw .rotationExponentOutOfRange(rotationExponent) }
        self.identityKey = identityKey
        self.rotationExponent = rotationExponent
    }

    /// Seconds between identifier changes: 2^K.
    public var rotationPeriod: UInt32 { UInt32(1) << UInt32(rotationExponent) }

    /// The first counter value of the rotation period that holds `timeCounter`.
    public func periodStart(of timeCounter: UInt32) -> UInt32 { timeCounter & ~(rotationPeriod &- 1) }

    /// The temporary key for `timeCounter`; it changes every 65,536 seconds.
    public func temporaryKey(timeCounter: UInt32) throws(EddystoneEIDError) -> UInt128 {
        let block = UInt128(0xFF) << 32 | UInt128(timeCounter >> 16)
        do {
            return try BLECrypto.e(key: identityKey, plaintext: block)
        } catch {
            throw .cryptography(error)
        }
    }

    /// The 8-octet ephemeral identifier (read big-endian) the beacon sends at `timeCounter`.
    public func ephemeralIdentifier(timeCounter: UInt32) throws(EddystoneEIDError) -> UInt64 {
        let temporary = try temporaryKey(timeCounter: timeCounter)
        let block = UInt128(rotationExponent) << 32 | UInt128(periodStart(of: timeCounter))
        do {
            return UInt64(truncatingIfNeeded: try BLECrypto.e(key: temporary, plaintext: block) >> 64)
        } catch {
            throw .cryptography(error)
        }
    }

    /// The EID frame the beacon sends at `timeCounter` with `txPower` at 0 m.
    public func frame(timeCounter: UInt32, txPower: Int8) throws(EddystoneEIDError) -> EddystoneEIDFrame {
        EddystoneEIDFrame(txPower: txPower, ephemeralIdentifier: try ephemeralIdentifier(timeCounter: timeCounter))
    }
}

/// A trusted resolver's side of Eddystone-EID (google/eddystone, eid-computation.md):
/// beacons registered with their key and their time counter at a moment of the observer's
/// clock; an observed identifier is resolved by computing each beacon's identifiers for
/// the rotation period its counter should be in now, and for `tolerancePeriods` periods
/// either side, to absorb clock drift and a randomised rotation point.
public struct EddystoneEIDResolver: Sendable {
    /// One registered beacon.
    public struct Registration: Hashable, Sendable {
        /// The name the resolver gives the beacon (its stable identity).
        public var identifier: String
        /// The beacon's key and rotation exponent.
        public var key: EddystoneEIDKey
        /// The beacon's time counter at `registeredAt`.
        public var timeCounter: UInt32
        /// The observer's time when the beacon's counter read `timeCounter`.
        public var registeredAt: BeaconTime

        /// A registration from its values.
        public init(identifier: String, key: EddystoneEIDKey, timeCounter: UInt32, registeredAt: BeaconTime) {
            self.identifier = identifier
            self.key = key
            self.timeCounter = timeCounter
            self.registeredAt = registeredAt
        }

        /// The beacon's counter at the observer's time `now` (wrapping like the counter).
        public func estimatedTimeCounter(at now: BeaconTime) -> UInt32 {
            let elapsed = (now &- registeredAt) / 1_000_000
            return timeCounter &+ UInt32(truncatingIfNeeded: elapsed)
        }
    }

    /// A resolved identifier: which beacon, and the start of the period it belongs to.
    public struct Resolution: Hashable, Sendable {
        /// The registration's identifier.
        public var identifier: String
        /// The beacon counter value at the start of the matching rotation period.
        public var periodStart: UInt32

        /// A resolution from its values.
        public init(identifier: String, periodStart: UInt32) {
            self.identifier = identifier
            self.periodStart = periodStart
        }
    }

    /// The registered beacons.
    public var registrations: [Registration]
    /// Rotation periods searched either side of the expected one.
    public var tolerancePeriods: UInt32

    /// A resolver for `registrations`, searching one period either side by default.
    public init(registrations: [Registration] = [], tolerancePeriods: UInt32 = 1) {
        self.registrations = registrations
        self.tolerancePeriods = tolerancePeriods
    }

    /// The beacon that sent `ephemeralIdentifier` at the observer's time `now`, or `nil`
    /// when none of the registered beacons would have sent it then.
    public func resolve(_ ephemeralIdentifier: UInt64, at now: BeaconTime) throws(EddystoneEIDError) -> Resolution? {
        for registration in registrations {
            let key = registration.key
            let expected = key.periodStart(of: registration.estimatedTimeCounter(at: now))
            var candidates = [expected]
            var step: UInt32 = 1
            while step <= tolerancePeriods {
                let offset = key.rotationPeriod &* step
                candidates += [expected &- offset, expected &+ offset]
                step += 1
            }
            for counter in candidates {
                if try key.ephemeralIdentifier(timeCounter: counter) == ephemeralIdentifier {
                    return Resolution(identifier: registration.identifier, periodStart: counter)
                }
            }
        }
        return nil
    }
}
