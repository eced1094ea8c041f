import BLEWire

/// A characteristic value whose octets are laid out by a Bluetooth SIG specification (the
/// GATT Specification Supplement, GSS, and the service specifications): a typed Swift value
/// that encodes to exactly those octets and decodes from them strictly.
///
/// Decoding is total and strict: a value that is too short, has octets left over, sets a
/// bit the specification reserves or holds a value it reserves throws a ``WireError``
/// naming the field; it never traps.
public protocol CharacteristicValue: Hashable, Sendable {
    /// Decodes the value from the octets of the characteristic value attribute.
    init(decoding bytes: ArraySlice<UInt8>) throws(WireError)
    /// The octets of the characteristic value attribute.
    func encoded() -> [UInt8]
}

extension CharacteristicValue {
    /// Decodes the value from all of `bytes`.
    public init(decoding bytes: [UInt8]) throws(WireError) {
        try self.init(decoding: bytes[...])
    }
}

/// Small decoding helpers shared by the profile codecs.
enum ProfileDecoding {
    /// Reads one octet and maps it through `make`, throwing `invalidValue` when it gives `nil`.
    static func enumeration<T>(_ reader: inout ByteReader, _ field: String, _ make: (UInt8) -> T?) throws(WireError) -> T {
        let raw = try reader.readUInt8(field)
        guard let value = make(raw) else { throw WireError(field: field, reason: .invalidValue(UInt64(raw))) }
        return value
    }

    /// The whole of `bytes` as UTF-8 text (GSS `utf8s`), refusing ill-formed sequences.
    static func utf8String(_ bytes: ArraySlice<UInt8>, field: String) throws(WireError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw WireError(field: field, reason: .constraint("not well-formed UTF-8"))
        }
        return text
    }

    /// Reads a value of a fixed length from all of `bytes` and checks nothing is left over.
    static func whole<T>(_ bytes: ArraySlice<UInt8>, _ field: String,
                         _ body: (inout ByteReader) throws(WireError) -> T) throws(WireError) -> T {
        var reader = ByteReader(bytes)
        let value = try body(&reader)
        try reader.expectEnd(field)
        return value
    }
}
