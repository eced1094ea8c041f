import BLEWire

/// Text forms the bond store's JSON uses (docs/bonds.md): keys and other fixed-size numbers
/// as hex digits, most significant first, so a reader can compare them with the
/// specification's sample data and no 64-bit value passes through a JSON number.
enum BondCoding {
    /// `value` as exactly `digits` lowercase hex digits.
    static func hex(_ value: UInt128, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A number from exactly `digits` hex digits (either case), or `nil`.
    static func number(hex text: String, digits: Int) -> UInt128? {
        guard text.utf8.count == digits, text.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return UInt128(text, radix: 16)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "a") ... UInt8(ascii: "f"),
             UInt8(ascii: "A") ... UInt8(ascii: "F"): true
        default: false
        }
    }

    /// Decodes a hex field of `digits` digits, throwing a data-corrupted error that names it.
    static func decodeHex<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key,
                                          digits: Int) throws -> UInt128 {
        let text = try container.decode(String.self, forKey: key)
        guard let value = number(hex: text, digits: digits) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                   debugDescription: "expected \(digits) hex digits, found \"\(text)\"")
        }
        return value
    }

    /// Decodes an optional hex field of `digits` digits.
    static func decodeHexIfPresent<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key,
                                                   digits: Int) throws -> UInt128? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        return try decodeHex(container, key, digits: digits)
    }

    /// An address type's name in JSON.
    static func name(of kind: BluetoothAddress.Kind) -> String { kind == .public ? "public" : "random" }

    /// Decodes an address and its type from two fields.
    static func decodeAddress<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, address: Key,
                                              type: Key) throws -> BluetoothAddress {
        let typeName = try container.decode(String.self, forKey: type)
        let kind: BluetoothAddress.Kind
        switch typeName {
        case "public": kind = .public
        case "random": kind = .random
        default:
            throw DecodingError.dataCorruptedError(forKey: type, in: container,
                                                   debugDescription: "expected \"public\" or \"random\", found \"\(typeName)\"")
        }
        let text = try container.decode(String.self, forKey: address)
        guard let value = BluetoothAddress(text, kind: kind) else {
            throw DecodingError.dataCorruptedError(forKey: address, in: container,
                                                   debugDescription: "expected an address like C0:11:22:33:44:55, found \"\(text)\"")
        }
        return value
    }

    /// A security level's name in JSON.
    static func name(of level: LinkSecurityLevel) -> String {
        switch level {
        case .none: "none"
        case .unauthenticated: "unauthenticated"
        case .authenticated: "authenticated"
        case .authenticatedSecureConnections: "authenticatedSecureConnections"
        }
    }

    /// A security level from its JSON name.
    static func level(named name: String) -> LinkSecurityLevel? {
        LinkSecurityLevel.allCases.first { self.name(of: $0) == name }
    }
}

extension BondLongTermKey: Codable {
    private enum CodingKeys: String, CodingKey { case key, ediv, rand }

    /// Reads `{"key": 32 hex digits, "ediv": number, "rand": 16 hex digits}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try BondCoding.decodeHex(container, .key, digits: 32)
        ediv = try container.decode(UInt16.self, forKey: .ediv)
        rand = UInt64(try BondCoding.decodeHex(container, .rand, digits: 16))
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(BondCoding.hex(key, digits: 32), forKey: .key)
        try container.encode(ediv, forKey: .ediv)
        try container.encode(BondCoding.hex(UInt128(rand), digits: 16), forKey: .rand)
    }
}

extension BondSigningKey: Codable {
    private enum CodingKeys: String, CodingKey { case key, signCounter }

    /// Reads `{"key": 32 hex digits, "signCounter": number}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try BondCoding.decodeHex(container, .key, digits: 32)
        signCounter = try container.decode(UInt32.self, forKey: .signCounter)
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(BondCoding.hex(key, digits: 32), forKey: .key)
        try container.encode(signCounter, forKey: .signCounter)
    }
}

extension BondKeys: Codable {
    private enum CodingKeys: String, CodingKey { case longTermKey, identityResolvingKey, signingKey }

    /// Reads an object whose three fields are each optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        longTermKey = try container.decodeIfPresent(BondLongTermKey.self, forKey: .longTermKey)
        identityResolvingKey = try BondCoding.decodeHexIfPresent(container, .identityResolvingKey, digits: 32)
        signingKey = try container.decodeIfPresent(BondSigningKey.self, forKey: .signingKey)
    }

    /// Writes the keys present; absent ones are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(longTermKey, forKey: .longTermKey)
        try container.encodeIfPresent(identityResolvingKey.map { BondCoding.hex($0, digits: 32) }, forKey: .identityResolvingKey)
        try container.encodeIfPresent(signingKey, forKey: .signingKey)
    }
}
