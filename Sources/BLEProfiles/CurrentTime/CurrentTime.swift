import BLEWire

/// Current Time (GSS §3.62, characteristic 0x2A2B; CTS 1.1 §3.1): Exact Time 256 — a Day
/// Date Time (Date Time, GSS §3.70, then Day of Week, §3.73) and Fractions256 (1/256 s) —
/// followed by the Adjust Reason bits, ten octets in all. Readable and notified when the
/// time is adjusted.
public struct CurrentTime: CharacteristicValue {
    /// The Current Time characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A2B
    /// The encoded length in octets.
    public static let length = 10

    /// Why the time last changed (GSS §3.62, Adjust Reason); bits 4–7 are reserved.
    public struct AdjustReason: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        /// Reasons from raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: the time was set by hand.
        public static let manualTimeUpdate = Self(rawValue: 0x01)
        /// Bit 1: the time was set from an external reference (GPS, network, a phone).
        public static let externalReferenceTimeUpdate = Self(rawValue: 0x02)
        /// Bit 2: the time zone changed.
        public static let changeOfTimeZone = Self(rawValue: 0x04)
        /// Bit 3: daylight saving time started or ended.
        public static let changeOfDaylightSavingTime = Self(rawValue: 0x08)
        /// The bits the specification defines.
        public static let defined: Self = [.manualTimeUpdate, .externalReferenceTimeUpdate, .changeOfTimeZone,
                                           .changeOfDaylightSavingTime]
    }

    /// The local date and time.
    public var dateTime: DateTime
    /// The day of the week.
    public var dayOfWeek: DayOfWeek
    /// Fractions of the second, in 1/256 s.
    public var fractions256: UInt8
    /// Why the time last changed; only the defined bits.
    public var adjustReason: AdjustReason

    /// A current time with every field.
    public init(dateTime: DateTime, dayOfWeek: DayOfWeek, fractions256: UInt8 = 0, adjustReason: AdjustReason = []) {
        self.dateTime = dateTime
        self.dayOfWeek = dayOfWeek
        self.fractions256 = fractions256
        self.adjustReason = adjustReason.intersection(.defined)
    }

    /// The local time `unixMicroseconds` after 1970-01-01 00:00 UTC, shifted by
    /// `utcOffsetSeconds` (the local time zone plus daylight saving), with its day of week;
    /// `nil` outside the years 1582–9999.
    public init?(unixMicroseconds: Int64, utcOffsetSeconds: Int = 0, adjustReason: AdjustReason = []) {
        let (offset, offsetOverflow) = Int64(utcOffsetSeconds).multipliedReportingOverflow(by: 1_000_000)
        let (local, localOverflow) = unixMicroseconds.addingReportingOverflow(offset)
        guard !offsetOverflow, !localOverflow else { return nil }
        let (seconds, micros) = local.dividedFloored(by: 1_000_000)
        let (days, secondOfDay) = seconds.dividedFloored(by: 86_400)
        let (year, month, day) = CivilCalendar.date(daysSince1970: days)
        guard (1582 ... 9999).contains(year),
              let dateTime = DateTime(year: UInt16(year), month: UInt8(month), day: UInt8(day),
                                      hours: UInt8(secondOfDay / 3600), minutes: UInt8(secondOfDay / 60 % 60),
                                      seconds: UInt8(secondOfDay % 60)),
              let dayOfWeek = DayOfWeek(rawValue: UInt8((days + 3).dividedFloored(by: 7).remainder + 1)) else { return nil }
        // 1970-01-01 was a Thursday: day 0 + 3 ≡ 3 (mod 7), + 1 = 4 = Thursday.
        self.init(dateTime: dateTime, dayOfWeek: dayOfWeek, fractions256: UInt8(micros * 256 / 1_000_000),
                  adjustReason: adjustReason)
    }

    /// Decodes exactly ten octets; refuses out-of-range date fields, a reserved day of the
    /// week and reserved adjust-reason bits.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        var reader = ByteReader(bytes)
        dateTime = try DateTime(from: &reader, field: "CurrentTime.dateTime")
        dayOfWeek = try ProfileDecoding.enumeration(&reader, "CurrentTime.dayOfWeek", DayOfWeek.init(rawValue:))
        fractions256 = try reader.readUInt8("CurrentTime.fractions256")
        let reason = try reader.readUInt8("CurrentTime.adjustReason")
        guard AdjustReason(rawValue: reason).isSubset(of: .defined) else {
            throw WireError(field: "CurrentTime.adjustReason", reason: .invalidValue(UInt64(reason)))
        }
        adjustReason = AdjustReason(rawValue: reason)
        try reader.expectEnd("CurrentTime")
    }

    /// The ten octets.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.length)
        dateTime.encode(to: &writer)
        writer.write(dayOfWeek.rawValue)
        writer.write(fractions256)
        writer.write(adjustReason.rawValue)
        return writer.bytes
    }
}

/// The proleptic Gregorian calendar, for turning a count of days into a date.
enum CivilCalendar {
    /// The year, month (1–12) and day (1–31) of the day `days` after 1970-01-01, using the
    /// 400-year cycle of 146 097 days counted from 0000-03-01 so leap days fall at the end.
    static func date(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468 // days from 0000-03-01 to 1970-01-01
        let (era, dayOfEra) = shifted.dividedFloored(by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

extension Int64 {
    /// Quotient rounded towards −∞ and the non-negative remainder.
    func dividedFloored(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
