import BLEWire

/// Local Time Information (GSS §3.137, characteristic 0x2A0F; CTS 1.1 §3.2): the time zone
/// as a sint8 count of 15 minutes from UTC (−48…+56, −128 not known) and the DST offset.
public struct LocalTimeInformation: CharacteristicValue {
    /// The Local Time Information characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A0F

    /// Daylight saving time in effect (GSS §3.72, DST Offset).
    public enum DSTOffset: UInt8, Hashable, Sendable, CaseIterable {
        /// 0: standard time.
        case standardTime = 0
        /// 2: half an hour daylight time (+0.5 h).
        case halfAnHourDaylightTime = 2
        /// 4: daylight time (+1 h).
        case daylightTime = 4
        /// 8: double daylight time (+2 h).
        case doubleDaylightTime = 8
        /// 255: not known.
        case unknown = 255
    }

    /// The time zones the field may hold, in 15-minute steps.
    public static let timeZoneRange: ClosedRange<Int8> = -48 ... 56

    /// The offset of standard time from UTC in 15-minute steps; `nil` when not known.
    public let timeZone: Int8?
    /// The daylight saving offset.
    public var dstOffset: DSTOffset

    /// Local time information; `nil` when `timeZone` is outside −48…56.
    public init?(timeZone: Int8?, dstOffset: DSTOffset) {
        if let timeZone, !Self.timeZoneRange.contains(timeZone) { return nil }
        self.timeZone = timeZone
        self.dstOffset = dstOffset
    }

    /// The whole offset from UTC in seconds, `nil` when either part is not known.
    public var utcOffsetSeconds: Int? {
        guard let timeZone else { return nil }
        let daylight: Int
        switch dstOffset {
        case .standardTime: daylight = 0
        case .halfAnHourDaylightTime: daylight = 1800
        case .daylightTime: daylight = 3600
        case .doubleDaylightTime: daylight = 7200
        case .unknown: return nil
        }
        return Int(timeZone) * 900 + daylight
    }

    /// Decodes exactly two octets, refusing reserved time zones and DST offsets.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        (timeZone, dstOffset) = try ProfileDecoding.whole(bytes, "LocalTimeInformation") { reader throws(WireError) in
            let zone = try reader.readInt8("LocalTimeInformation.timeZone")
            guard zone == -128 || Self.timeZoneRange.contains(zone) else {
                throw WireError(field: "LocalTimeInformation.timeZone", reason: .invalidValue(UInt64(UInt8(bitPattern: zone))))
            }
            let dst = try ProfileDecoding.enumeration(&reader, "LocalTimeInformation.dstOffset", DSTOffset.init(rawValue:))
            return (zone == -128 ? nil : zone, dst)
        }
    }

    /// The two octets.
    public func encoded() -> [UInt8] {
        [UInt8(bitPattern: timeZone ?? -128), dstOffset.rawValue]
    }
}
