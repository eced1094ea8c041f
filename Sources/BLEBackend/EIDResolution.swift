import BLEBeacons

extension EIDBeaconRegistry {
    /// A registry with no beacons: every identifier is unknown.
    public static let none = EIDBeaconRegistry(beacons: [], resolver: EddystoneEIDResolver(), staleSearchPeriods: 0)
}

extension BackendPayloads {
    /// `POST /eid/resolve`: an Eddystone-EID frame a phone heard, and when.
    public struct EIDObservation: Codable, Hashable, Sendable {
        /// The Eddystone service data after the 0xFEAA UUID, in hex: 10 octets, type 0x30.
        public var frame: String
        /// When the phone heard it, in microseconds since 1970.
        public var time: Int64

        /// An observation with every field.
        public init(frame: String, time: Int64) {
            self.frame = frame
            self.time = time
        }
    }

    /// `POST /eid/resolve`: the beacon that sends the observed identifier at that time.
    public struct EIDResolution: Codable, Hashable, Sendable {
        /// The beacon's configured name.
        public var beacon: String
        /// The ephemeral identifier resolved, 16 hex digits.
        public var ephemeralIdentifier: String
        /// The beacon's counter at the start of the identifier's rotation period.
        public var periodStart: UInt32
        /// Seconds between the beacon's identifier changes.
        public var rotationSeconds: UInt32
    }
}

extension BackendQueries {
    /// `POST /eid/resolve`: which configured beacon sends the observed frame at the observed
    /// time; 400 for a frame that is not an Eddystone-EID frame, 410 for a beacon's identifier
    /// of two or more periods before (a replayed copy), 404 for an identifier of no beacon.
    public func resolveEID(_ observation: BackendPayloads.EIDObservation) throws(BackendError) -> BackendPayloads.EIDResolution {
        guard let octets = EIDHex.octets(observation.frame) else {
            throw .invalid("frame: \"\(observation.frame)\" is not hex octets; send the 0xFEAA service data, e.g. 30F6A9B76A71C5F89290")
        }
        let frame: EddystoneEIDFrame
        do {
            frame = try EddystoneEIDFrame(serviceData: octets[...])
        } catch {
            throw .invalid("frame: not an Eddystone-EID frame (10 octets, type 0x30): \(error)")
        }
        let identifier = EIDHex.digits(frame.ephemeralIdentifier)
        switch eidBeacons.resolve(frame.ephemeralIdentifier, at: observation.time) {
        case let .current(beacon, periodStart, rotationSeconds):
            return BackendPayloads.EIDResolution(beacon: beacon, ephemeralIdentifier: identifier, periodStart: periodStart, rotationSeconds: rotationSeconds)
        case let .stale(beacon, ageSeconds):
            throw BackendError(status: .gone, error: "stale_eid",
                               reason: "\(identifier) is \(beacon)'s identifier of \(ageSeconds) s before the observation, not the current one: "
                                   + "a copy played back")
        case .unknown:
            throw BackendError(status: .notFound, error: "unknown_eid",
                               reason: "\(identifier) is not the identifier of any configured beacon at that time")
        }
    }
}

/// Hex text of the EID route, both ways.
enum EIDHex {
    /// The octets of hex text (upper or lower case, even length), or `nil`.
    static func octets(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    /// A 64-bit value as 16 uppercase hex digits.
    static func digits(_ value: UInt64) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
