extension AdvertisingData {
    /// The data of the first structure of `type`, or `nil` when there is none.
    public func firstData(of type: ADType) -> ArraySlice<UInt8>? {
        structures.first(where: { $0.type == type })?.data
    }

    /// The data of every structure of `type`, in order.
    public func allData(of type: ADType) -> [ArraySlice<UInt8>] {
        structures.compactMap { $0.type == type ? $0.data : nil }
    }

    /// The Flags (CSS Part A, §1.3); empty Flags data means no flag set.
    public var flags: Flags? {
        guard let data = firstData(of: .flags) else { return nil }
        return Flags(rawValue: data.first ?? 0)
    }

    /// Every service UUID advertised in the 16-, 32- and 128-bit lists, complete or
    /// incomplete (CSS Part A, §1.1), in order of appearance; `nil` when there is no list
    /// or any list's length is not a multiple of its UUID width.
    public var serviceUUIDs: [BluetoothUUID]? {
        AdvertisingData.uuids(in: structures, types: [
            (.incompleteList16BitServiceUUIDs, .bits16), (.completeList16BitServiceUUIDs, .bits16),
            (.incompleteList32BitServiceUUIDs, .bits32), (.completeList32BitServiceUUIDs, .bits32),
            (.incompleteList128BitServiceUUIDs, .bits128), (.completeList128BitServiceUUIDs, .bits128),
        ])
    }

    /// Whether the service lists are complete: at least one service UUID list is present
    /// and none is an "incomplete" list, so the device offers no services beyond those listed.
    public var isServiceListComplete: Bool {
        let types = structures.map(\.type)
        let complete: [ADType] = [.completeList16BitServiceUUIDs, .completeList32BitServiceUUIDs, .completeList128BitServiceUUIDs]
        let incomplete: [ADType] = [.incompleteList16BitServiceUUIDs, .incompleteList32BitServiceUUIDs, .incompleteList128BitServiceUUIDs]
        return types.contains(where: complete.contains) && !types.contains(where: incomplete.contains)
    }

    /// Every service solicitation UUID (CSS Part A, §1.10) from the 16-, 32- and 128-bit
    /// lists; `nil` when there is none or a list is malformed.
    public var serviceSolicitationUUIDs: [BluetoothUUID]? {
        AdvertisingData.uuids(in: structures, types: [
            (.serviceSolicitation16BitUUIDs, .bits16), (.serviceSolicitation32BitUUIDs, .bits32),
            (.serviceSolicitation128BitUUIDs, .bits128),
        ])
    }

    /// The Complete Local Name (CSS Part A, §1.2); invalid UTF-8 is decoded with U+FFFD.
    public var completeLocalName: String? {
        firstData(of: .completeLocalName).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The Shortened Local Name (CSS Part A, §1.2); invalid UTF-8 is decoded with U+FFFD.
    public var shortenedLocalName: String? {
        firstData(of: .shortenedLocalName).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The complete local name, or else the shortened one.
    public var localName: String? { completeLocalName ?? shortenedLocalName }

    /// The Tx Power Level in dBm (CSS Part A, §1.5); `nil` unless exactly one octet.
    public var txPowerLevel: Int8? {
        guard let data = firstData(of: .txPowerLevel), data.count == 1, let octet = data.first else { return nil }
        return Int8(bitPattern: octet)
    }

    /// The Peripheral Connection Interval Range (CSS Part A, §1.9); `nil` unless 4 octets.
    public var peripheralConnectionIntervalRange: ConnectionIntervalRange? {
        guard let data = firstData(of: .peripheralConnectionIntervalRange), data.count == 4 else { return nil }
        var reader = ByteReader(data)
        guard let minimum = try? reader.readUInt16("minimum"), let maximum = try? reader.readUInt16("maximum") else { return nil }
        return ConnectionIntervalRange(minimum: minimum, maximum: maximum)
    }

    /// Every Service Data structure (CSS Part A, §1.11) of the three widths, in order;
    /// `nil` when there is none or one is shorter than its UUID.
    public var serviceData: [ServiceData]? {
        var result: [ServiceData] = []
        for structure in structures {
            let width: BluetoothUUID.Width
            switch structure.type {
            case .serviceData16BitUUID: width = .bits16
            case .serviceData32BitUUID: width = .bits32
            case .serviceData128BitUUID: width = .bits128
            default: continue
            }
            var reader = ByteReader(structure.data)
            guard let uuid = try? BluetoothUUID(from: &reader, width: width, field: "uuid") else { return nil }
            result.append(ServiceData(uuid: uuid, data: reader.readRemaining()))
        }
        return result.isEmpty ? nil : result
    }

    /// The data of the first well-formed Service Data structure for `uuid`, whatever its width.
    public func serviceData(for uuid: BluetoothUUID) -> ArraySlice<UInt8>? {
        serviceData?.first(where: { $0.uuid == uuid })?.data
    }

    /// The Appearance (CSS Part A, §1.12), a category/sub-category value from the
    /// Assigned Numbers; `nil` unless 2 octets.
    public var appearance: UInt16? {
        guard let data = firstData(of: .appearance), data.count == 2 else { return nil }
        var reader = ByteReader(data)
        return try? reader.readUInt16("appearance")
    }

    /// The Public Target Addresses (CSS Part A, §1.13); `nil` when absent or not a
    /// non-empty multiple of 6 octets.
    public var publicTargetAddresses: [BluetoothAddress]? {
        AdvertisingData.addresses(in: firstData(of: .publicTargetAddress), kind: .public)
    }

    /// The Random Target Addresses (CSS Part A, §1.14); `nil` when absent or not a
    /// non-empty multiple of 6 octets.
    public var randomTargetAddresses: [BluetoothAddress]? {
        AdvertisingData.addresses(in: firstData(of: .randomTargetAddress), kind: .random)
    }

    /// The Advertising Interval (CSS Part A, §1.15) in units of 0.625 ms; `nil` unless 2 octets.
    public var advertisingInterval: UInt16? {
        guard let data = firstData(of: .advertisingInterval), data.count == 2 else { return nil }
        var reader = ByteReader(data)
        return try? reader.readUInt16("advertisingInterval")
    }

    /// The Advertising Interval - long (CSS Part A, §1.15) in units of 0.625 ms, for
    /// intervals beyond 16 bits; `nil` unless 3 or 4 octets.
    public var advertisingIntervalLong: UInt32? {
        guard let data = firstData(of: .advertisingIntervalLong), data.count == 3 || data.count == 4 else { return nil }
        var reader = ByteReader(data)
        return (try? reader.readLittleEndian(octets: data.count, "advertisingIntervalLong")).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The LE Bluetooth Device Address (CSS Part A, §1.16): six address octets then a
    /// flags octet whose bit 0 says public (0) or random (1); `nil` unless 7 octets.
    public var leBluetoothDeviceAddress: BluetoothAddress? {
        guard let data = firstData(of: .leBluetoothDeviceAddress), data.count == 7 else { return nil }
        var reader = ByteReader(data)
        guard let value = try? reader.readLittleEndian(octets: 6, "address"),
              let type = try? reader.readUInt8("addressType") else { return nil }
        return BluetoothAddress(value, kind: type & 0x01 == 0 ? .public : .random)
    }

    /// The LE Role (CSS Part A, §1.17); `nil` unless one octet with a defined value.
    public var leRole: LERole? {
        guard let data = firstData(of: .leRole), data.count == 1, let octet = data.first else { return nil }
        return LERole(rawValue: octet)
    }

    /// The URI's scheme code point and the rest of the URI (CSS Part A, §1.18); `nil` when
    /// absent or empty. Invalid UTF-8 is decoded with U+FFFD.
    public var uriComponents: (schemeCodePoint: UInt32, remainder: String)? {
        guard let data = firstData(of: .uri), !data.isEmpty else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let first = text.unicodeScalars.first else { return nil }
        return (first.value, String(text.unicodeScalars.dropFirst()))
    }

    /// The full URI with its scheme name restored, e.g. `https://www.bluetooth.com`
    /// (CSS Part A, §1.18); `nil` when absent, empty or its scheme code point is not in
    /// ``uriSchemes``.
    public var uri: String? {
        guard let (code, remainder) = uriComponents, let scheme = AdvertisingData.uriSchemes[code] else { return nil }
        return scheme + remainder
    }

    /// The first Manufacturer Specific Data (CSS Part A, §1.4); `nil` when absent or
    /// shorter than its company identifier.
    public var manufacturerData: ManufacturerData? {
        guard let data = firstData(of: .manufacturerSpecificData) else { return nil }
        var reader = ByteReader(data)
        guard let company = try? reader.readUInt16("companyIdentifier") else { return nil }
        return ManufacturerData(companyIdentifier: company, data: reader.readRemaining())
    }

    static func uuids(in structures: [Structure], types: [(ADType, BluetoothUUID.Width)]) -> [BluetoothUUID]? {
        var result: [BluetoothUUID] = []
        var found = false
        for structure in structures {
            guard let width = types.first(where: { $0.0 == structure.type })?.1 else { continue }
            found = true
            guard structure.data.count % width.octets == 0 else { return nil }
            var reader = ByteReader(structure.data)
            while !reader.isAtEnd {
                guard let uuid = try? BluetoothUUID(from: &reader, width: width, field: "uuid") else { return nil }
                result.append(uuid)
            }
        }
        return found ? result : nil
    }

    static func addresses(in data: ArraySlice<UInt8>?, kind: BluetoothAddress.Kind) -> [BluetoothAddress]? {
        guard let data, !data.isEmpty, data.count % 6 == 0 else { return nil }
        var reader = ByteReader(data)
        var result: [BluetoothAddress] = []
        while !reader.isAtEnd {
            guard let address = try? BluetoothAddress(from: &reader, kind: kind, field: "address") else { return nil }
            result.append(address)
        }
        return result
    }
}
