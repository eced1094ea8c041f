import BLEHost

/// What a peripheral advertises — name, services, manufacturer data, service data, TX
/// power — and how it is laid out into a legacy advertisement and its scan response (31
/// octets each, Core 5.4, Vol 3, Part C, §11; Supplement, Part A, §1).
///
/// The advertisement gets, in this order and while they fit, the flags (connectable
/// advertising only), the service UUID lists, the service solicitation lists, the
/// manufacturer data, the service data and
/// the TX power; what does not fit goes into the scan response. The complete name goes
/// into the advertisement if it still fits, else into the scan response; a name too long
/// for either is shortened (Shortened Local Name, Supplement, Part A, §1.2) to the room
/// left. The same order as `ble advertise` (`GAPAdvertisingContent`), so both put a
/// device's name in the same place.
public struct AdvertisingContent: Hashable, Sendable {
    /// The device name, or `nil` for none.
    public var name: String?
    /// Service UUIDs to list, each in its shortest form.
    public var serviceUUIDs: [BluetoothUUID]
    /// Services the device asks a central to offer (Supplement, Part A, §1.10): an ANCS
    /// accessory solicits ANCS so an iPhone lists it for connection.
    public var solicitedServiceUUIDs: [BluetoothUUID]
    /// Manufacturer Specific Data: the company identifier and the vendor's octets.
    public var manufacturerData: AdvertisingData.ManufacturerData?
    /// Service data by service UUID; laid out in ascending UUID order.
    public var serviceData: [BluetoothUUID: [UInt8]]
    /// The TX Power Level to announce, in dBm (−127 to 127), so scanners can estimate
    /// path loss.
    public var txPower: Int?

    /// Content with every value given; by default empty.
    public init(
        name: String? = nil, serviceUUIDs: [BluetoothUUID] = [], solicitedServiceUUIDs: [BluetoothUUID] = [],
        manufacturerData: AdvertisingData.ManufacturerData? = nil, serviceData: [BluetoothUUID: [UInt8]] = [:], txPower: Int? = nil
    ) {
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.solicitedServiceUUIDs = solicitedServiceUUIDs
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.txPower = txPower
    }

    /// The advertising data and scan response for this content.
    /// - Parameters:
    ///   - connectable: adds the flags (LE General Discoverable, BR/EDR not supported,
    ///     Vol 3, Part C, §9.2.4).
    ///   - scannable: whether a scan response may carry what does not fit.
    /// - Throws: ``BLEError/advertisementTooLarge(octets:maximum:)`` when something does
    ///   not fit anywhere, ``BLEError/invalidParameters(_:)`` for a TX power out of range.
    public func layout(connectable: Bool, scannable: Bool) throws(BLEError) -> (advertising: AdvertisingData, scanResponse: AdvertisingData) {
        let maximum = AdvertisingData.legacyMaximumLength
        var advertising = AdvertisingData([]), response = AdvertisingData([])
        var items: [AdvertisingData.Structure] = []
        if connectable { advertising.structures.append(.flags([.leGeneralDiscoverable, .brEdrNotSupported])) }
        items += GAPAdvertisingContent.serviceLists(serviceUUIDs)
        items += Self.solicitationLists(solicitedServiceUUIDs)
        if let manufacturerData {
            items.append(.manufacturerData(company: manufacturerData.companyIdentifier, data: Array(manufacturerData.data)))
        }
        for uuid in serviceData.keys.sorted() {
            items.append(.serviceData(uuid: uuid.shortest, data: serviceData[uuid] ?? []))
        }
        if let txPower {
            guard let level = Int8(exactly: txPower), level != -128 else { throw .invalidParameters("a TX power level must be −127 to 127 dBm") }
            items.append(.txPowerLevel(level))
        }
        let needed = advertising.encodedLength + items.reduce(0) { $0 + $1.encodedLength }
            + (name.map { AdvertisingData.Structure.completeLocalName($0).encodedLength } ?? 0)
        for item in items {
            if advertising.encodedLength + item.encodedLength <= maximum {
                advertising.structures.append(item)
            } else if scannable, response.encodedLength + item.encodedLength <= maximum {
                response.structures.append(item)
            } else {
                throw .advertisementTooLarge(octets: needed, maximum: maximum)
            }
        }
        guard let name, !name.isEmpty else { return (advertising, response) }
        let complete = AdvertisingData.Structure.completeLocalName(name)
        if advertising.encodedLength + complete.encodedLength <= maximum {
            advertising.structures.append(complete)
        } else if scannable, response.encodedLength + complete.encodedLength <= maximum {
            response.structures.append(complete)
        } else if let short = Self.shortened(name, room: maximum - advertising.encodedLength - 2) {
            advertising.structures.append(.shortenedLocalName(short))
        } else if scannable, let short = Self.shortened(name, room: maximum - response.encodedLength - 2) {
            response.structures.append(.shortenedLocalName(short))
        } else {
            throw .advertisementTooLarge(octets: needed, maximum: maximum)
        }
        return (advertising, response)
    }

    /// The solicitation lists for `uuids`, each UUID in its shortest form, in order of width.
    static func solicitationLists(_ uuids: [BluetoothUUID]) -> [AdvertisingData.Structure] {
        let (short, medium, long) = GAPAdvertisingContent.grouped(uuids)
        return (short.isEmpty ? [] : [.solicitation16(short)]) + (medium.isEmpty ? [] : [.solicitation32(medium)])
            + (long.isEmpty ? [] : [.solicitation128(long)])
    }

    /// The longest prefix of whole characters of `name` within `room` octets of UTF-8, or
    /// `nil` if not even one character fits.
    static func shortened(_ name: String, room: Int) -> String? {
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + String(character).utf8.count <= room else { break }
            prefix.append(character)
        }
        return prefix.isEmpty ? nil : prefix
    }
}
