import BLEWire

/// Why bytes are not a beacon frame of a format, or why a value cannot be encoded as one.
///
/// Beacon decoders are strict: advertising data whose company, type, length or reserved
/// values differ from the format's is *not* that beacon, and the error says which field
/// ruled it out. Nothing traps on bytes.
public struct BeaconFrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Hashable, Sendable {
        /// The advertising data holds no structure of the kind the format travels in
        /// (Manufacturer Specific Data, or Service Data for UUID 0xFEAA).
        case absent
        /// Manufacturer Specific Data of another company.
        case wrongCompany(UInt16)
        /// A type, code or frame-type field holds another format's value.
        case wrongType(UInt64)
        /// The frame has `actual` octets where the format allows `expected`.
        case wrongLength(expected: ClosedRange<Int>, actual: Int)
        /// The field holds a value the format reserves.
        case reservedValue(UInt64)
        /// A version this library does not decode (e.g. encrypted Eddystone-TLM).
        case unsupportedVersion(UInt8)
        /// The advertising data itself does not decode.
        case malformedAdvertisingData(WireError)
        /// A value that the format cannot carry, said in words (encoders only).
        case unencodable(String)
    }

    /// The beacon format, e.g. `"iBeacon"` or `"Eddystone-URL"`.
    public var format: String
    /// The field that ruled the frame out, e.g. `"companyIdentifier"`.
    public var field: String
    /// Why.
    public var reason: Reason

    /// An error for `field` of `format`.
    public init(format: String, field: String, reason: Reason) {
        self.format = format
        self.field = field
        self.reason = reason
    }

    /// One sentence naming the format, the field and the reason.
    public var description: String {
        let subject = "\(format).\(field)"
        switch reason {
        case .absent:
            return "\(subject): the advertising data carries no such structure"
        case let .wrongCompany(company):
            return "\(subject): company 0x\(hex(UInt64(company), digits: 4)) is not this format's"
        case let .wrongType(value):
            return "\(subject): 0x\(hex(value, digits: 2)) is another format's type"
        case let .wrongLength(expected, actual):
            let allowed = expected.count == 1 ? "\(expected.lowerBound)" : "\(expected.lowerBound)–\(expected.upperBound)"
            return "\(subject): \(actual) octet(s) where the format has \(allowed)"
        case let .reservedValue(value):
            return "\(subject): 0x\(hex(value, digits: 2)) is reserved"
        case let .unsupportedVersion(version):
            return "\(subject): version \(version) is not supported"
        case let .malformedAdvertisingData(error):
            return "\(subject): \(error)"
        case let .unencodable(text):
            return "\(subject): \(text)"
        }
    }

    private func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Reads fixed-size fields from a frame whose length has already been checked, so no read
/// can run short; a short read would yield zeros rather than trap.
struct OctetCursor {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    /// The next `count` octets (fewer only if the frame was not length-checked).
    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let part = rest.prefix(count)
        rest = rest.dropFirst(count)
        return part
    }

    mutating func uint8() -> UInt8 { take(1).first ?? 0 }

    mutating func int8() -> Int8 { Int8(bitPattern: uint8()) }

    /// A big-endian integer of `T`'s width (beacon formats are big-endian, unlike Bluetooth).
    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T {
        take(T.bitWidth / 8).reduce(T.zero) { $0 << 8 | T($1) }
    }

    var remaining: ArraySlice<UInt8> { rest }
}

extension Array where Element == UInt8 {
    /// Appends `value` big-endian in its own width.
    mutating func appendBigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}

extension AdvertisingData {
    /// Decodes every structure of `type` with `decode` and returns the first that is a
    /// frame; when none is, throws the first structure's error, or `absent` when there is
    /// no structure of that type at all.
    func firstFrame<Frame>(
        of type: ADType, format: String,
        _ decode: (ArraySlice<UInt8>) throws(BeaconFrameError) -> Frame
    ) throws(BeaconFrameError) -> Frame {
        var firstError: BeaconFrameError?
        for data in allData(of: type) {
            do {
                return try decode(data)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? BeaconFrameError(format: format, field: "structure", reason: .absent)
    }

    /// Decodes advertising data bytes for a beacon decoder, turning a wire error into a
    /// ``BeaconFrameError`` of `format`.
    static func decodingForBeacon(_ bytes: [UInt8], format: String) throws(BeaconFrameError) -> AdvertisingData {
        do {
            return try AdvertisingData(decoding: bytes)
        } catch {
            throw BeaconFrameError(format: format, field: "advertisingData", reason: .malformedAdvertisingData(error))
        }
    }

    /// The Flags most beacons send (CSS v11, Part A, §1.3): LE General Discoverable and
    /// BR/EDR Not Supported, octet 0x06.
    static let beaconFlags = Structure.flags([.leGeneralDiscoverable, .brEdrNotSupported])
}
