import BLEWire

/// What a simple advertiser says about itself — a name, services and manufacturer data —
/// laid out into legacy advertising and scan response data (Core 5.4, Vol 3, Part C, §11;
/// Core Specification Supplement, Part A, §1). The `ble advertise` options map onto it.
///
/// The advertising PDU gets the flags (connectable and scannable kinds), the service UUIDs
/// and the manufacturer data; the complete name follows if it still fits, otherwise it
/// goes into the scan response (scannable kinds; shortened there when it does not fit
/// whole) or, without a scan response, is shortened to what fits.
public struct GAPAdvertisingContent: Hashable, Sendable {
    /// The device name, or `nil` for none.
    public var name: String?
    /// Service UUIDs to list, each in its shortest form (Supplement, Part A, §1.1).
    public var services: [BluetoothUUID]
    /// Manufacturer Specific Data (Supplement, Part A, §1.4): the company identifier
    /// (little-endian) then the vendor's octets, or `nil` for none.
    public var manufacturerData: [UInt8]?

    /// Content with every value given.
    public init(name: String? = nil, services: [BluetoothUUID] = [], manufacturerData: [UInt8]? = nil) {
        self.name = name
        self.services = services
        self.manufacturerData = manufacturerData
    }

    /// Parameters that advertise this content as `kind` every `intervalMilliseconds`.
    /// - Parameters:
    ///   - kind: connectable, scannable or non-connectable (directed advertising carries no data).
    ///   - intervalMilliseconds: 20 ms to 10.24 s (Vol 4, Part E, §7.8.5), rounded to 0.625 ms.
    /// - Throws: ``GAPError/advertisingDataTooLong(octets:maximum:)`` when the services and
    ///   manufacturer data alone pass 31 octets, or a name does not fit anywhere even
    ///   shortened to one character; ``GAPError/invalidAdvertisingInterval(milliseconds:)``.
    public func parameters(
        kind: GAPAdvertisingParameters.Kind = .connectable, intervalMilliseconds: Double = 100
    ) throws(GAPError) -> GAPAdvertisingParameters {
        let units = (intervalMilliseconds / 0.625).rounded()
        guard units.isFinite, units >= 0x0020, units <= 0x4000 else {
            throw .invalidAdvertisingInterval(milliseconds: intervalMilliseconds)
        }
        let interval = UInt16(units)
        let scannable: Bool
        var structures: [AdvertisingData.Structure] = []
        switch kind {
        case .connectable, .scannable:
            // A discoverable device sets the LE General Discoverable flag (Vol 3, Part C, §9.2.4).
            structures.append(.flags([.leGeneralDiscoverable, .brEdrNotSupported]))
            scannable = true
        case .nonConnectable, .directed:
            scannable = false
        }
        structures += Self.serviceLists(services)
        if let manufacturerData { structures.append(AdvertisingData.Structure(type: .manufacturerSpecificData, data: manufacturerData)) }
        let maximum = AdvertisingData.legacyMaximumLength
        var data = AdvertisingData(structures)
        guard data.encodedLength <= maximum else { throw .advertisingDataTooLong(octets: data.encodedLength, maximum: maximum) }
        var response = AdvertisingData([])
        if let name, !name.isEmpty {
            let complete = AdvertisingData.Structure.completeLocalName(name)
            if data.encodedLength + complete.encodedLength <= maximum {
                data.structures.append(complete)
            } else if scannable, complete.encodedLength <= maximum {
                response.structures.append(complete)
            } else if scannable {
                // Too long for either PDU: shortened (Supplement, Part A, §1.2) in the scan
                // response, which has the most room, as Core Bluetooth does.
                let prefix = Self.prefix(of: name, octets: maximum - 2)
                guard !prefix.isEmpty else { throw .advertisingDataTooLong(octets: complete.encodedLength, maximum: maximum) }
                response.structures.append(.shortenedLocalName(prefix))
            } else {
                let prefix = Self.prefix(of: name, octets: maximum - data.encodedLength - 2)
                guard !prefix.isEmpty else { throw .advertisingDataTooLong(octets: data.encodedLength + complete.encodedLength, maximum: maximum) }
                data.structures.append(.shortenedLocalName(prefix))
            }
        }
        return GAPAdvertisingParameters(kind: kind, intervalMin: interval, intervalMax: interval, data: data, scanResponse: response)
    }

    /// The longest prefix of whole characters of `name` that takes at most `octets` octets
    /// of UTF-8: a Shortened Local Name never ends inside a character.
    static func prefix(of name: String, octets: Int) -> String {
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + String(character).utf8.count <= octets else { break }
            prefix.append(character)
        }
        return prefix
    }

    /// Complete lists of 16-, 32- and 128-bit service UUIDs, in that order, each UUID in
    /// its shortest form and listed once (Core Specification Supplement, Part A, §1.1).
    public static func serviceLists(_ services: [BluetoothUUID]) -> [AdvertisingData.Structure] {
        let (short, medium, long) = grouped(services)
        var structures: [AdvertisingData.Structure] = []
        if !short.isEmpty { structures.append(.completeList16(short)) }
        if !medium.isEmpty { structures.append(.completeList32(medium)) }
        if !long.isEmpty { structures.append(.completeList128(long)) }
        return structures
    }

    /// `uuids` in their shortest forms, each once, in order within each width: what the 16-,
    /// 32- and 128-bit lists of a service or solicitation list hold (Supplement, Part A,
    /// §1.1, §1.10).
    public static func grouped(_ uuids: [BluetoothUUID]) -> (short: [UInt16], medium: [UInt32], long: [UInt128]) {
        var short: [UInt16] = [], medium: [UInt32] = [], long: [UInt128] = []
        for uuid in uuids {
            if let value = uuid.uuid16 {
                if !short.contains(value) { short.append(value) }
            } else if let value = uuid.uuid32 {
                if !medium.contains(value) { medium.append(value) }
            } else if !long.contains(uuid.value) {
                long.append(uuid.value)
            }
        }
        return (short, medium, long)
    }
}
