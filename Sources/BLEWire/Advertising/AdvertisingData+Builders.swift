extension AdvertisingData.Structure {
    /// Flags (CSS v11, Part A, §1.3), one octet.
    public static func flags(_ flags: AdvertisingData.Flags) -> Self {
        Self(type: .flags, data: [flags.rawValue])
    }

    /// Complete Local Name (§1.2), UTF-8.
    public static func completeLocalName(_ name: String) -> Self {
        Self(type: .completeLocalName, data: Array(name.utf8))
    }

    /// Shortened Local Name (§1.2), UTF-8.
    public static func shortenedLocalName(_ name: String) -> Self {
        Self(type: .shortenedLocalName, data: Array(name.utf8))
    }

    /// Complete List of 16-bit Service UUIDs (§1.1).
    public static func completeList16(_ uuids: [UInt16]) -> Self {
        Self(type: .completeList16BitServiceUUIDs, data: littleEndian(uuids.map { UInt128($0) }, octets: 2))
    }

    /// Incomplete List of 16-bit Service UUIDs (§1.1).
    public static func incompleteList16(_ uuids: [UInt16]) -> Self {
        Self(type: .incompleteList16BitServiceUUIDs, data: littleEndian(uuids.map { UInt128($0) }, octets: 2))
    }

    /// Complete List of 32-bit Service UUIDs (§1.1).
    public static func completeList32(_ uuids: [UInt32]) -> Self {
        Self(type: .completeList32BitServiceUUIDs, data: littleEndian(uuids.map { UInt128($0) }, octets: 4))
    }

    /// Incomplete List of 32-bit Service UUIDs (§1.1).
    public static func incompleteList32(_ uuids: [UInt32]) -> Self {
        Self(type: .incompleteList32BitServiceUUIDs, data: littleEndian(uuids.map { UInt128($0) }, octets: 4))
    }

    /// Complete List of 128-bit Service UUIDs (§1.1), each written as the spec writes it.
    public static func completeList128(_ uuids: [UInt128]) -> Self {
        Self(type: .completeList128BitServiceUUIDs, data: littleEndian(uuids, octets: 16))
    }

    /// Incomplete List of 128-bit Service UUIDs (§1.1).
    public static func incompleteList128(_ uuids: [UInt128]) -> Self {
        Self(type: .incompleteList128BitServiceUUIDs, data: littleEndian(uuids, octets: 16))
    }

    /// List of 16-bit Service Solicitation UUIDs (§1.10).
    public static func solicitation16(_ uuids: [UInt16]) -> Self {
        Self(type: .serviceSolicitation16BitUUIDs, data: littleEndian(uuids.map { UInt128($0) }, octets: 2))
    }

    /// List of 32-bit Service Solicitation UUIDs (§1.10).
    public static func solicitation32(_ uuids: [UInt32]) -> Self {
        Self(type: .serviceSolicitation32BitUUIDs, data: littleEndian(uuids.map { UInt128($0) }, octets: 4))
    }

    /// List of 128-bit Service Solicitation UUIDs (§1.10).
    public static func solicitation128(_ uuids: [UInt128]) -> Self {
        Self(type: .serviceSolicitation128BitUUIDs, data: littleEndian(uuids, octets: 16))
    }

    /// Tx Power Level (§1.5) in dBm.
    public static func txPowerLevel(_ dBm: Int8) -> Self {
        Self(type: .txPowerLevel, data: [UInt8(bitPattern: dBm)])
    }

    /// Peripheral Connection Interval Range (§1.9) in 1.25 ms units (0xFFFF: no specific value).
    public static func peripheralConnectionIntervalRange(minimum: UInt16, maximum: UInt16) -> Self {
        var writer = ByteWriter(capacity: 4)
        writer.write(minimum)
        writer.write(maximum)
        return Self(type: .peripheralConnectionIntervalRange, data: writer.bytes)
    }

    /// Service Data (§1.11); the UUID's width picks the AD type 0x16, 0x20 or 0x21.
    public static func serviceData(uuid: BluetoothUUID, data: [UInt8]) -> Self {
        var writer = ByteWriter(capacity: uuid.width.octets + data.count)
        uuid.encode(to: &writer)
        writer.write(contentsOf: data)
        let type: AdvertisingData.ADType
        switch uuid.width {
        case .bits16: type = .serviceData16BitUUID
        case .bits32: type = .serviceData32BitUUID
        case .bits128: type = .serviceData128BitUUID
        }
        return Self(type: type, data: writer.bytes)
    }

    /// Appearance (§1.12).
    public static func appearance(_ value: UInt16) -> Self {
        var writer = ByteWriter(capacity: 2)
        writer.write(value)
        return Self(type: .appearance, data: writer.bytes)
    }

    /// Public Target Address (§1.13): the addresses' kinds are not written.
    public static func publicTargetAddresses(_ addresses: [BluetoothAddress]) -> Self {
        Self(type: .publicTargetAddress, data: addresses.flatMap(\.littleEndianBytes))
    }

    /// Random Target Address (§1.14): the addresses' kinds are not written.
    public static func randomTargetAddresses(_ addresses: [BluetoothAddress]) -> Self {
        Self(type: .randomTargetAddress, data: addresses.flatMap(\.littleEndianBytes))
    }

    /// Advertising Interval (§1.15) in 0.625 ms units.
    public static func advertisingInterval(_ interval: UInt16) -> Self {
        var writer = ByteWriter(capacity: 2)
        writer.write(interval)
        return Self(type: .advertisingInterval, data: writer.bytes)
    }

    /// Advertising Interval - long (§1.15) in 0.625 ms units: 3 octets when the value
    /// fits 24 bits, else 4.
    public static func advertisingIntervalLong(_ interval: UInt32) -> Self {
        var writer = ByteWriter(capacity: 4)
        writer.writeLittleEndian(UInt64(interval), octets: interval <= 0xFF_FFFF ? 3 : 4)
        return Self(type: .advertisingIntervalLong, data: writer.bytes)
    }

    /// LE Bluetooth Device Address (§1.16): the address, then its kind in bit 0.
    public static func leBluetoothDeviceAddress(_ address: BluetoothAddress) -> Self {
        Self(type: .leBluetoothDeviceAddress, data: address.littleEndianBytes + [address.kind.rawValue])
    }

    /// LE Role (§1.17).
    public static func leRole(_ role: AdvertisingData.LERole) -> Self {
        Self(type: .leRole, data: [role.rawValue])
    }

    /// URI (§1.18): the longest scheme name in ``AdvertisingData/uriSchemes`` that starts
    /// `uri` is replaced by its code point; a URI with no known scheme is written after
    /// code point 0x01 ("no scheme").
    public static func uri(_ uri: String) -> Self {
        var best: (code: UInt32, name: String) = (1, "")
        for (code, name) in AdvertisingData.uriSchemes where uri.hasPrefix(name) && name.count > best.name.count {
            best = (code, name)
        }
        var scalars = String.UnicodeScalarView()
        if let scalar = Unicode.Scalar(best.code) { scalars.append(scalar) }
        let remainder = uri.unicodeScalars.dropFirst(best.name.unicodeScalars.count)
        scalars.append(contentsOf: remainder)
        return Self(type: .uri, data: Array(String(scalars).utf8))
    }

    /// Manufacturer Specific Data (§1.4): the company identifier, then `data`.
    public static func manufacturerData(company: UInt16, data: [UInt8]) -> Self {
        var writer = ByteWriter(capacity: 2 + data.count)
        writer.write(company)
        writer.write(contentsOf: data)
        return Self(type: .manufacturerSpecificData, data: writer.bytes)
    }

    private static func littleEndian(_ values: [UInt128], octets: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: values.count * octets)
        for value in values {
            if octets == 16 {
                writer.write(value)
            } else {
                writer.writeLittleEndian(UInt64(truncatingIfNeeded: value), octets: octets)
            }
        }
        return writer.bytes
    }
}
