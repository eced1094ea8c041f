import BLEWire

/// Date Time (GSS §3.70, characteristic 0x2A08): a calendar date and wall-clock time in
/// seven octets — year (uint16, 1582–9999), month (1–12), day (1–31), hours (0–23),
/// minutes (0–59), seconds (0–59). A year, month or day of 0 means "not known".
public struct DateTime: CharacteristicValue, CustomStringConvertible {
    /// The Date Time characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A08

    /// The year, 1582–9999, or 0 when not known.
    public private(set) var year: UInt16
    /// The month, 1–12, or 0 when not known.
    public private(set) var month: UInt8
    /// The day of the month, 1–31, or 0 when not known.
    public private(set) var day: UInt8
    /// Hours past midnight, 0–23.
    public private(set) var hours: UInt8
    /// Minutes past the hour, 0–59.
    public private(set) var minutes: UInt8
    /// Seconds past the minute, 0–59.
    public private(set) var seconds: UInt8

    /// The encoded length in octets.
    public static let length = 7

    /// A date and time; `nil` when a field is outside its range.
    public init?(year: UInt16, month: UInt8, day: UInt8, hours: UInt8 = 0, minutes: UInt8 = 0, seconds: UInt8 = 0) {
        guard year == 0 || (1582 ... 9999).contains(year), month <= 12, day <= 31, hours <= 23, minutes <= 59,
              seconds <= 59 else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Reads the seven octets, checking each field's range.
    public init(from reader: inout ByteReader, field: String = "DateTime") throws(WireError) {
        let year = try reader.readUInt16(field + ".year")
        let month = try reader.readUInt8(field + ".month")
        let day = try reader.readUInt8(field + ".day")
        let hours = try reader.readUInt8(field + ".hours")
        let minutes = try reader.readUInt8(field + ".minutes")
        let seconds = try reader.readUInt8(field + ".seconds")
        func invalid(_ name: String, _ value: some BinaryInteger) -> WireError {
            WireError(field: field + "." + name, reason: .invalidValue(UInt64(value)))
        }
        guard year == 0 || (1582 ... 9999).contains(year) else { throw invalid("year", year) }
        guard month <= 12 else { throw invalid("month", month) }
        guard day <= 31 else { throw invalid("day", day) }
        guard hours <= 23 else { throw invalid("hours", hours) }
        guard minutes <= 59 else { throw invalid("minutes", minutes) }
        guard seconds <= 59 else { throw invalid("seconds", seconds) }
        self.year = year
        self.month = month
        self.day = day
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Decodes exactly seven octets.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "DateTime") { reader throws(WireError) in try DateTime(from: &reader) }
    }

    /// Appends the seven octets.
    public func encode(to writer: inout ByteWriter) {
        writer.write(year)
        writer.write(month)
        writer.write(day)
        writer.write(hours)
        writer.write(minutes)
        writer.write(seconds)
    }

    /// The seven octets.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.length)
        encode(to: &writer)
        return writer.bytes
    }

    /// `2024-02-29 13:05:09`.
    public var description: String {
        func two(_ value: UInt8) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(hours)):\(two(minutes)):\(two(seconds))"
    }
}

/// Day of Week (GSS §3.73, characteristic 0x2A09): 1 Monday … 7 Sunday, 0 not known.
public enum DayOfWeek: UInt8, Hashable, Sendable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// Monday.
    case monday = 1
    /// Tuesday.
    case tuesday = 2
    /// Wednesday.
    case wednesday = 3
    /// Thursday.
    case thursday = 4
    /// Friday.
    case friday = 5
    /// Saturday.
    case saturday = 6
    /// Sunday.
    case sunday = 7
}
