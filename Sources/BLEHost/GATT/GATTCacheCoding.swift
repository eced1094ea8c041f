import BLEWire

// The JSON form of a cached GATT tree, as a bond record keeps it (docs/bonds.md,
// "gattServices"): UUIDs as `ble` prints them ("180D" or the 128-bit form), handles as
// numbers. A list left out ("characteristics", "includes") means "not discovered yet",
// an empty list means "discovered, none there". Decoding is total: a bad UUID or a
// handle range that runs backwards is a data-corrupted error naming the field.

extension GATTCachedService: Codable {
    private enum CodingKeys: String, CodingKey {
        case uuid, primary, startHandle, endHandle, includes, characteristics
    }

    /// Reads `{"uuid", "primary", "startHandle", "endHandle", "includes"?, "characteristics"?}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let handles = try GATTCacheCoding.handles(container, start: .startHandle, end: .endHandle)
        service = GATTDiscoveredService(uuid: try GATTCacheCoding.uuid(container, .uuid), handles: handles,
                                        isPrimary: try container.decode(Bool.self, forKey: .primary))
        let includes = try container.decodeIfPresent([GATTDiscoveredIncludedService].self, forKey: .includes)
        includedServices = includes ?? []
        includedServicesDiscovered = includes != nil
        let found = try container.decodeIfPresent([GATTCachedCharacteristic].self, forKey: .characteristics)
        characteristics = found ?? []
        characteristicsDiscovered = found != nil
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(service.uuid.description, forKey: .uuid)
        try container.encode(service.isPrimary, forKey: .primary)
        try container.encode(service.handles.lowerBound, forKey: .startHandle)
        try container.encode(service.handles.upperBound, forKey: .endHandle)
        if includedServicesDiscovered { try container.encode(includedServices, forKey: .includes) }
        if characteristicsDiscovered { try container.encode(characteristics, forKey: .characteristics) }
    }
}

extension GATTDiscoveredIncludedService: Codable {
    private enum CodingKeys: String, CodingKey { case declarationHandle, uuid, startHandle, endHandle }

    /// Reads `{"declarationHandle", "uuid", "startHandle", "endHandle"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(declarationHandle: try container.decode(UInt16.self, forKey: .declarationHandle),
                  uuid: try GATTCacheCoding.uuid(container, .uuid),
                  handles: try GATTCacheCoding.handles(container, start: .startHandle, end: .endHandle))
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(declarationHandle, forKey: .declarationHandle)
        try container.encode(uuid.description, forKey: .uuid)
        try container.encode(handles.lowerBound, forKey: .startHandle)
        try container.encode(handles.upperBound, forKey: .endHandle)
    }
}

extension GATTCachedCharacteristic: Codable {
    private enum CodingKeys: String, CodingKey {
        case uuid, declarationHandle, valueHandle, endHandle, properties, descriptors
    }

    /// Reads `{"uuid", "declarationHandle", "valueHandle", "endHandle", "properties", "descriptors"}`;
    /// the handles must be in declaration ≤ value ≤ end order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let declaration = try container.decode(UInt16.self, forKey: .declarationHandle)
        let value = try container.decode(UInt16.self, forKey: .valueHandle)
        let end = try container.decode(UInt16.self, forKey: .endHandle)
        guard declaration <= value, value <= end else {
            throw DecodingError.dataCorruptedError(forKey: .valueHandle, in: container,
                                                   debugDescription: "handles \(declaration), \(value), \(end) are out of order")
        }
        let properties = GATTCharacteristicProperties(rawValue: try container.decode(UInt8.self, forKey: .properties))
        characteristic = GATTDiscoveredCharacteristic(uuid: try GATTCacheCoding.uuid(container, .uuid), declarationHandle: declaration,
                                                      valueHandle: value, properties: properties, endHandle: end)
        descriptors = try container.decodeIfPresent([GATTDiscoveredDescriptor].self, forKey: .descriptors) ?? []
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(characteristic.uuid.description, forKey: .uuid)
        try container.encode(characteristic.declarationHandle, forKey: .declarationHandle)
        try container.encode(characteristic.valueHandle, forKey: .valueHandle)
        try container.encode(characteristic.endHandle, forKey: .endHandle)
        try container.encode(characteristic.properties.rawValue, forKey: .properties)
        if !descriptors.isEmpty { try container.encode(descriptors, forKey: .descriptors) }
    }
}

extension GATTDiscoveredDescriptor: Codable {
    private enum CodingKeys: String, CodingKey { case uuid, handle }

    /// Reads `{"uuid", "handle"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(uuid: try GATTCacheCoding.uuid(container, .uuid), handle: try container.decode(UInt16.self, forKey: .handle))
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid.description, forKey: .uuid)
        try container.encode(handle, forKey: .handle)
    }
}

/// Field readers shared by the cache's JSON forms.
enum GATTCacheCoding {
    /// A UUID in `ble`'s text form, or a data-corrupted error naming the field.
    static func uuid<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> BluetoothUUID {
        let text = try container.decode(String.self, forKey: key)
        guard let uuid = BluetoothUUID(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a UUID: \"\(text)\"")
        }
        return uuid
    }

    /// A handle range from two fields, which must not run backwards or include handle 0
    /// (Core 5.4, Vol 3, Part F, §3.2.2: 0x0000 is reserved).
    static func handles<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, start: Key, end: Key) throws -> ClosedRange<UInt16> {
        let first = try container.decode(UInt16.self, forKey: start)
        let last = try container.decode(UInt16.self, forKey: end)
        guard first != 0, first <= last else {
            throw DecodingError.dataCorruptedError(forKey: end, in: container,
                                                   debugDescription: "handle range \(first)–\(last) is not valid")
        }
        return first ... last
    }
}
