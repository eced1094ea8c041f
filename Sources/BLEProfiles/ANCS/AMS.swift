import BLEWire

/// Apple Media Service: how an accessory (the Media Remote, a GATT client) follows and
/// controls what an iPhone (the Media Source, a GATT server) plays — Apple's AMS
/// Specification. Values are UTF-8 strings; the codecs here are sans-IO.
public enum AMS {
    /// The AMS primary service.
    public static let service = BluetoothUUID("89D3502B-0F36-433A-8EF4-C502AD55F8DC")!
    /// Remote Command: written (one ``RemoteCommandID``), notifies the supported commands.
    public static let remoteCommand = BluetoothUUID("9B3C81D8-57B1-4A8A-B8DF-0E56F7CA51C2")!
    /// Entity Update: written with response (an ``EntityUpdateRegistration``), notifies
    /// ``EntityUpdate``s.
    public static let entityUpdate = BluetoothUUID("2F7CABCE-808D-411F-9A0C-BB92BA96C102")!
    /// Entity Attribute: written (an ``EntityAttributeRequest``), then read for a full value.
    public static let entityAttribute = BluetoothUUID("C6B2F38C-23AB-46D8-A6AB-A3A870BBD5D7")!

    /// What an attribute belongs to (EntityID).
    public enum EntityID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: the app playing.
        case player = 0
        /// 1: the play queue.
        case queue = 1
        /// 2: the track playing.
        case track = 2
    }

    /// Player attributes.
    public enum PlayerAttributeID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: the app's localized name.
        case name = 0
        /// 1: "PlaybackState,PlaybackRate,ElapsedTime" (``PlaybackInfo``).
        case playbackInfo = 1
        /// 2: the volume, 0 to 1.
        case volume = 2
    }

    /// Queue attributes.
    public enum QueueAttributeID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: the track's zero-based index in the queue.
        case index = 0
        /// 1: the number of tracks.
        case count = 1
        /// 2: 0 off, 1 one, 2 all.
        case shuffleMode = 2
        /// 3: 0 off, 1 one, 2 all.
        case repeatMode = 3
    }

    /// Track attributes.
    public enum TrackAttributeID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0.
        case artist = 0
        /// 1.
        case album = 1
        /// 2.
        case title = 2
        /// 3: seconds, a decimal.
        case duration = 3
    }

    /// The commands a remote sends (RemoteCommandID).
    public enum RemoteCommandID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0.
        case play = 0
        /// 1.
        case pause = 1
        /// 2.
        case togglePlayPause = 2
        /// 3.
        case nextTrack = 3
        /// 4.
        case previousTrack = 4
        /// 5.
        case volumeUp = 5
        /// 6.
        case volumeDown = 6
        /// 7.
        case advanceRepeatMode = 7
        /// 8.
        case advanceShuffleMode = 8
        /// 9.
        case skipForward = 9
        /// 10.
        case skipBackward = 10
        /// 11.
        case likeTrack = 11
        /// 12.
        case dislikeTrack = 12
        /// 13.
        case bookmarkTrack = 13
    }

    /// The errors a Media Source answers writes (and Entity Attribute reads) with, carried
    /// as ATT errors (``BLEWire/ATT/ErrorCode/unlisted(_:)``).
    public enum ErrorCode: UInt8, Error, Sendable, Hashable, CaseIterable {
        /// 0xA0: Entity Update or Entity Attribute written without an Entity Update subscription.
        case invalidState = 0xA0
        /// 0xA1: the write is not well formed.
        case invalidCommand = 0xA1
        /// 0xA2: the attribute asked for is empty.
        case absentAttribute = 0xA2

        /// The ATT error code carrying it.
        public var attError: ATT.ErrorCode { ATT.ErrorCode(rawValue: rawValue) }
    }

    /// A write to Entity Update: the attributes of one entity to be notified of.
    public struct EntityUpdateRegistration: Sendable, Hashable {
        /// The entity.
        public var entity: EntityID
        /// Its attribute IDs (``PlayerAttributeID`` and so on, as octets).
        public var attributes: [UInt8]

        /// A registration for `attributes` of `entity`.
        public init(entity: EntityID, attributes: [UInt8]) {
            self.entity = entity
            self.attributes = attributes
        }

        /// Decodes a write; throws ``ErrorCode/invalidCommand`` for an empty write, a reserved
        /// entity or an attribute ID the entity does not define. (An entity alone, with no
        /// attributes, is accepted: some remotes write it to stop that entity's updates.)
        public init(decoding bytes: some Collection<UInt8>) throws(ErrorCode) {
            let bytes = Array(bytes)
            guard let first = bytes.first, let entity = EntityID(rawValue: first) else { throw .invalidCommand }
            let attributes = Array(bytes.dropFirst())
            guard attributes.allSatisfy({ AMS.isAttribute($0, of: entity) }) else { throw .invalidCommand }
            self.init(entity: entity, attributes: attributes)
        }

        /// The octets written.
        public func encoded() -> [UInt8] { [entity.rawValue] + attributes }
    }

    /// A write to Entity Attribute: which attribute's full value the next read returns.
    public struct EntityAttributeRequest: Sendable, Hashable {
        /// The entity.
        public var entity: EntityID
        /// The attribute ID.
        public var attribute: UInt8

        /// A request for `attribute` of `entity`.
        public init(entity: EntityID, attribute: UInt8) {
            self.entity = entity
            self.attribute = attribute
        }

        /// Decodes the 2-octet write, or throws ``ErrorCode/invalidCommand``.
        public init(decoding bytes: some Collection<UInt8>) throws(ErrorCode) {
            let bytes = Array(bytes)
            guard bytes.count == 2, let entity = EntityID(rawValue: bytes[0]), AMS.isAttribute(bytes[1], of: entity) else {
                throw .invalidCommand
            }
            self.init(entity: entity, attribute: bytes[1])
        }

        /// The 2 octets.
        public func encoded() -> [UInt8] { [entity.rawValue, attribute] }
    }

    /// One Entity Update notification: `EntityID | AttributeID | EntityUpdateFlags | value`.
    public struct EntityUpdate: Sendable, Hashable {
        /// The entity.
        public var entity: EntityID
        /// The attribute ID.
        public var attribute: UInt8
        /// Whether the value was cut to fit the notification (flag bit 0); the full value is
        /// then read through Entity Attribute.
        public var truncated: Bool
        /// The value (as much as fitted).
        public var value: String

        /// An update with every field.
        public init(entity: EntityID, attribute: UInt8, truncated: Bool = false, value: String) {
            self.entity = entity
            self.attribute = attribute
            self.truncated = truncated
            self.value = value
        }

        /// The update of `value`, cut (on a character boundary) to fit a notification at
        /// `attMTU` and flagged truncated if it was.
        public init(entity: EntityID, attribute: UInt8, value: String, attMTU: Int) {
            let room = max(0, attMTU - 3 - 3)
            let octets = ANCS.truncated(value, toOctets: room)
            self.init(entity: entity, attribute: attribute, truncated: octets.count < value.utf8.count,
                      value: String(decoding: octets, as: UTF8.self))
        }

        /// Decodes a notification; throws for fewer than 3 octets, a reserved entity or a
        /// value that is not UTF-8.
        public init(decoding bytes: some Collection<UInt8>) throws(WireError) {
            let bytes = Array(bytes)
            guard bytes.count >= 3 else {
                throw WireError(field: "AMS.EntityUpdate", reason: .truncated(needed: 3, available: bytes.count))
            }
            guard let entity = EntityID(rawValue: bytes[0]) else {
                throw WireError(field: "AMS.EntityUpdate.entityID", reason: .invalidValue(UInt64(bytes[0])))
            }
            guard let value = ANCS.decodeText(Array(bytes[3...])) else {
                throw WireError(field: "AMS.EntityUpdate.value", reason: .constraint("not UTF-8"))
            }
            self.init(entity: entity, attribute: bytes[1], truncated: bytes[2] & 0x01 != 0, value: value)
        }

        /// The octets notified.
        public func encoded() -> [UInt8] {
            [entity.rawValue, attribute, truncated ? 0x01 : 0x00] + Array(value.utf8)
        }
    }

    /// The Player's PlaybackInfo value: "state,rate,elapsed".
    public struct PlaybackInfo: Sendable, Hashable {
        /// 0 paused, 1 playing, 2 rewinding, 3 fast-forwarding.
        public var state: UInt8
        /// 1 for normal speed, 0 when paused.
        public var rate: Double
        /// Seconds into the track when the value was sent.
        public var elapsed: Double

        /// Playback info with every field.
        public init(state: UInt8, rate: Double, elapsed: Double) {
            self.state = state
            self.rate = rate
            self.elapsed = elapsed
        }

        /// Parses "1,1.0,0.014"; `nil` for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 3, let state = UInt8(parts[0]), let rate = Double(parts[1]), let elapsed = Double(parts[2]) else {
                return nil
            }
            self.init(state: state, rate: rate, elapsed: elapsed)
        }

        /// "1,1.0,0.014".
        public var text: String {
            "\(state),\(Self.decimal(rate, digits: 1)),\(Self.decimal(elapsed, digits: 3))"
        }

        /// The elapsed time `seconds` after the value was received (AMS Specification:
        /// elapsed + time since × rate).
        public func elapsed(after seconds: Double) -> Double { elapsed + seconds * rate }

        private static func decimal(_ value: Double, digits: Int) -> String {
            var scale = 1.0
            for _ in 0 ..< digits { scale *= 10 }
            let scaled = Int64((abs(value) * scale).rounded())
            let whole = scaled / Int64(scale), fraction = scaled % Int64(scale)
            let fractionText = String(fraction)
            return (value < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
    }

    /// Whether `attribute` is defined for `entity`.
    static func isAttribute(_ attribute: UInt8, of entity: EntityID) -> Bool {
        switch entity {
        case .player: PlayerAttributeID(rawValue: attribute) != nil
        case .queue: QueueAttributeID(rawValue: attribute) != nil
        case .track: TrackAttributeID(rawValue: attribute) != nil
        }
    }
}
