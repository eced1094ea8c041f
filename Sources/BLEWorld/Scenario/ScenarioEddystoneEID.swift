import BLECrypto

extension ScenarioAdvertisingContent {
    /// An Eddystone-EID beacon's secret and clock (google/eddystone, eddystone-eid): the
    /// frame it advertises changes every 2^K seconds of its own time counter, so a world
    /// device with one rotates its advertising data on virtual time as a real one does.
    ///
    /// The world knows no beacon formats beyond the bytes it sends (as with ``IBeacon``),
    /// so the two AES-128 steps of eid-computation.md are written here on ``BLECrypto``; the
    /// scenario tests check them against `BLEBeacons.EddystoneEIDKey` and the spec's sample.
    public struct EddystoneEID: Hashable, Sendable {
        /// The Eddystone service UUID (0xFEAA) the frame is service data of.
        public static let serviceUUID: UInt16 = 0xFEAA
        /// The EID frame type.
        public static let frameType: UInt8 = 0x30

        /// The 128-bit AES identity key shared with the resolver, most significant octet first.
        public var identityKey: UInt128
        /// The rotation period exponent K, 0–15: the identifier changes every 2^K seconds.
        public var rotationExponent: UInt8
        /// The beacon's time counter when the world starts (seconds since it was provisioned).
        public var timeCounter: UInt32
        /// The calibrated TX power at 0 m in the frame, in dBm.
        public var txPower: Int8

        /// A beacon with every field.
        public init(identityKey: UInt128, rotationExponent: UInt8, timeCounter: UInt32 = 0, txPower: Int8 = -4) {
            self.identityKey = identityKey
            self.rotationExponent = rotationExponent
            self.timeCounter = timeCounter
            self.txPower = txPower
        }

        /// Seconds between identifier changes: 2^K.
        public var rotationPeriod: UInt32 { UInt32(1) << UInt32(min(rotationExponent, 31)) }

        /// The beacon's counter `seconds` whole seconds after the world started.
        public func timeCounter(afterSeconds seconds: Int64) -> UInt32 {
            timeCounter &+ UInt32(truncatingIfNeeded: seconds)
        }

        /// The 8-octet ephemeral identifier for `counter` (eid-computation.md): the temporary
        /// key AES(identity key, 11 × 00 ‖ FF ‖ 00 00 ‖ counter bits 31–16), then the first
        /// 8 octets of AES(temporary key, 11 × 00 ‖ K ‖ counter with its K low bits cleared).
        public func ephemeralIdentifier(timeCounter counter: UInt32) throws(BLECrypto.Error) -> UInt64 {
            let temporary = try BLECrypto.e(key: identityKey, plaintext: UInt128(0xFF) << 32 | UInt128(counter >> 16))
            let periodStart = counter & ~(rotationPeriod &- 1)
            let block = UInt128(rotationExponent) << 32 | UInt128(periodStart)
            return UInt64(truncatingIfNeeded: try BLECrypto.e(key: temporary, plaintext: block) >> 64)
        }

        /// The frame's service data after the UUID: type 0x30, TX power, identifier big-endian.
        public func serviceData(timeCounter counter: UInt32) throws(BLECrypto.Error) -> [UInt8] {
            let identifier = try ephemeralIdentifier(timeCounter: counter)
            return [Self.frameType, UInt8(bitPattern: txPower)] + (0 ..< 8).map { UInt8(truncatingIfNeeded: identifier >> (56 - 8 * $0)) }
        }

        /// Seconds after the world started at which the identifier next changes, after `seconds`.
        public func nextRotation(afterSeconds seconds: Int64) -> Int64 {
            let counter = UInt64(timeCounter) + UInt64(max(0, seconds))
            let period = UInt64(rotationPeriod)
            return Int64((counter / period + 1) * period) - Int64(timeCounter)
        }
    }
}
