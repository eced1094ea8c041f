import BLEWire

/// Heart Rate Measurement (GSS §3.114, characteristic 0x2A37; HRS 1.0 §3.1), notified by a
/// heart-rate sensor about once a second: a flags octet, the rate as uint8 or uint16 beats
/// per minute, then optionally the energy expended (uint16 kJ) and RR-intervals (uint16,
/// 1/1024 s each).
///
/// Flags: bit 0 value format (0 uint8, 1 uint16); bits 1–2 sensor contact (bit 2 set: the
/// feature is supported, bit 1 then says contact is detected); bit 3 energy expended
/// present; bit 4 RR-intervals present; bits 5–7 reserved (a decoder refuses them).
public struct HeartRateMeasurement: CharacteristicValue {
    /// The Heart Rate Measurement characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A37

    /// Whether the sensor can tell it touches the skin, and whether it does.
    public enum SensorContact: Hashable, Sendable {
        /// The sensor does not report contact (bits 1–2 = 0 or 1).
        case notSupported
        /// Supported, and the sensor is not in contact (bits 1–2 = 2).
        case notDetected
        /// Supported, and the sensor is in contact (bits 1–2 = 3).
        case detected
    }

    /// Beats per minute.
    public var heartRate: UInt16
    /// Send the rate as uint16 even when it fits in a uint8 (it always goes as uint16 above 255).
    public var usesSixteenBitValue: Bool
    /// The sensor contact status.
    public var sensorContact: SensorContact
    /// Energy expended since the last reset, in kilojoules; 0xFFFF means "at least 65535".
    public var energyExpended: UInt16?
    /// RR-intervals, oldest first, in units of 1/1024 second.
    public var rrIntervals: [UInt16]

    /// A measurement with every field.
    public init(heartRate: UInt16, usesSixteenBitValue: Bool = false, sensorContact: SensorContact = .notSupported,
                energyExpended: UInt16? = nil, rrIntervals: [UInt16] = []) {
        self.heartRate = heartRate
        self.usesSixteenBitValue = usesSixteenBitValue
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    enum Flag {
        static let sixteenBitValue: UInt8 = 0x01
        static let contactDetected: UInt8 = 0x02
        static let contactSupported: UInt8 = 0x04
        static let energyExpended: UInt8 = 0x08
        static let rrIntervals: UInt8 = 0x10
        static let reserved: UInt8 = 0xE0
    }

    /// An RR-interval in seconds (1/1024 s units).
    public static func seconds(ofRRInterval interval: UInt16) -> Double { Double(interval) / 1024 }

    /// The RR-interval nearest `seconds`, clamped to the uint16 range.
    public static func rrInterval(seconds: Double) -> UInt16 {
        let units = (seconds * 1024).rounded()
        guard units.isFinite else { return units > 0 ? .max : 0 }
        return UInt16(min(max(units, 0), Double(UInt16.max)))
    }

    /// Decodes a measurement; refuses reserved flag bits, truncated fields and an odd
    /// octet left after the RR-intervals.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        var reader = ByteReader(bytes)
        let flags = try reader.readUInt8("HeartRateMeasurement.flags")
        guard flags & Flag.reserved == 0 else {
            throw WireError(field: "HeartRateMeasurement.flags", reason: .invalidValue(UInt64(flags)))
        }
        usesSixteenBitValue = flags & Flag.sixteenBitValue != 0
        heartRate = usesSixteenBitValue ? try reader.readUInt16("HeartRateMeasurement.heartRate")
            : UInt16(try reader.readUInt8("HeartRateMeasurement.heartRate"))
        switch (flags & Flag.contactSupported != 0, flags & Flag.contactDetected != 0) {
        case (false, _): sensorContact = .notSupported
        case (true, false): sensorContact = .notDetected
        case (true, true): sensorContact = .detected
        }
        energyExpended = flags & Flag.energyExpended != 0 ? try reader.readUInt16("HeartRateMeasurement.energyExpended") : nil
        rrIntervals = []
        if flags & Flag.rrIntervals != 0 {
            guard reader.remainingCount >= 2, reader.remainingCount % 2 == 0 else {
                throw WireError(field: "HeartRateMeasurement.rrIntervals",
                                reason: .constraint("\(reader.remainingCount) octet(s) is not a non-empty list of uint16"))
            }
            while !reader.isAtEnd { rrIntervals.append(try reader.readUInt16("HeartRateMeasurement.rrIntervals")) }
        }
        try reader.expectEnd("HeartRateMeasurement")
    }

    /// The flags octet this measurement is sent with.
    public var flags: UInt8 {
        var flags: UInt8 = 0
        if usesSixteenBitValue || heartRate > UInt8.max { flags |= Flag.sixteenBitValue }
        switch sensorContact {
        case .notSupported: break
        case .notDetected: flags |= Flag.contactSupported
        case .detected: flags |= Flag.contactSupported | Flag.contactDetected
        }
        if energyExpended != nil { flags |= Flag.energyExpended }
        if !rrIntervals.isEmpty { flags |= Flag.rrIntervals }
        return flags
    }

    /// The octets, as notified.
    public func encoded() -> [UInt8] {
        let flags = self.flags
        var writer = ByteWriter(capacity: 6 + 2 * rrIntervals.count)
        writer.write(flags)
        if flags & Flag.sixteenBitValue != 0 { writer.write(heartRate) } else { writer.write(UInt8(heartRate)) }
        if let energyExpended { writer.write(energyExpended) }
        for interval in rrIntervals { writer.write(interval) }
        return writer.bytes
    }

    /// The measurement split so each part fits `maximumLength` octets (a notification
    /// carries ATT_MTU − 3): the first keeps the energy expended and as many RR-intervals
    /// as fit, later parts carry the rest, oldest first (HRS 1.0 §3.1.1.5 lets RR-intervals
    /// that do not fit go in the next notification). At least one RR-interval per part.
    public func split(maximumLength: Int) -> [HeartRateMeasurement] {
        guard encoded().count > maximumLength, !rrIntervals.isEmpty else { return [self] }
        var parts: [HeartRateMeasurement] = []
        var remaining = rrIntervals[...]
        var first = true
        while !remaining.isEmpty {
            var part = self
            part.rrIntervals = []
            if !first { part.energyExpended = nil }
            let room = max((maximumLength - part.encoded().count) / 2, 1)
            part.rrIntervals = Array(remaining.prefix(room))
            remaining = remaining.dropFirst(room)
            parts.append(part)
            first = false
        }
        return parts
    }
}
