import BLEHost

/// Core Bluetooth's advertising policy for a peripheral that advertises only a local name
/// and service UUIDs (`CBPeripheralManager.startAdvertising`): a connectable legacy
/// advertisement (Core 5.4, Vol 3, Part C, §11) whose 31 octets hold the Flags (3 octets)
/// and, in the 28 left, the service UUIDs that fit, in the order given; the local name in
/// the scan response; and every UUID that did not fit in the *overflow area*
/// (``ServiceOverflowArea``), in the scan response too.
///
/// A UUID list is a Complete List when every UUID fit, else an Incomplete List
/// (Supplement, Part A, §1.1), so a scanner knows there is more. The name goes in whole if
/// it fits the room the overflow area leaves (31 − 21 = 10 octets with one, i.e. eight
/// ASCII characters, as Apple documents), else shortened (Shortened Local Name,
/// Supplement, Part A, §1.2).
public struct ServiceAdvertisingLayout: Hashable, Sendable {
    /// The advertising data: the Flags and the UUID lists that fit.
    public let advertisingData: AdvertisingData
    /// The scan response: the local name, then the overflow area if any UUID overflowed.
    public let scanResponse: AdvertisingData
    /// The UUIDs in the advertisement, in the order given.
    public let advertised: [BluetoothUUID]
    /// The UUIDs that did not fit and went to the overflow area, in the order given.
    public let overflow: [BluetoothUUID]

    /// Octets of the advertisement left after the Flags: 28.
    public static let serviceRoom = AdvertisingData.legacyMaximumLength - 3

    /// Lays out `name` and `serviceUUIDs` the way Core Bluetooth does.
    /// - Parameters:
    ///   - name: the local name, or `nil`.
    ///   - serviceUUIDs: the services, most important first; duplicates are dropped.
    public init(name: String?, serviceUUIDs: [BluetoothUUID]) {
        var unique: [BluetoothUUID] = []
        for uuid in serviceUUIDs where !unique.contains(uuid) { unique.append(uuid) }
        var fitted: [BluetoothUUID] = [], overflowed: [BluetoothUUID] = []
        var used = 0
        var widthsUsed: Set<Int> = []
        for uuid in unique {
            let width = uuid.shortest.width.octets
            // A UUID of a width not listed yet opens a list: its length and type octets.
            let cost = width + (widthsUsed.contains(width) ? 0 : 2)
            if used + cost <= Self.serviceRoom {
                used += cost
                widthsUsed.insert(width)
                fitted.append(uuid)
            } else {
                overflowed.append(uuid)
            }
        }
        var advertising = AdvertisingData([.flags([.leGeneralDiscoverable, .brEdrNotSupported])])
        advertising.structures += Self.lists(fitted, complete: overflowed.isEmpty)
        var response = AdvertisingData([])
        let overflowArea = overflowed.isEmpty ? nil : ServiceOverflowArea(overflowed).structure
        let room = AdvertisingData.legacyMaximumLength - (overflowArea?.encodedLength ?? 0)
        if let name, !name.isEmpty {
            if AdvertisingData.Structure.completeLocalName(name).encodedLength <= room {
                response.structures.append(.completeLocalName(name))
            } else if let short = AdvertisingContent.shortened(name, room: room - 2) {
                response.structures.append(.shortenedLocalName(short))
            }
        }
        if let overflowArea { response.structures.append(overflowArea) }
        advertisingData = advertising
        scanResponse = response
        advertised = fitted
        overflow = overflowed
    }

    /// How Core Bluetooth advertises for an app that is not in the foreground (iOS research
    /// §9, rule 12): no local name and no UUID list, every service UUID in the overflow area
    /// of the advertisement itself, and no scan response, so a scanner that is not an Apple
    /// device sees manufacturer data only.
    public static func background(serviceUUIDs: [BluetoothUUID]) -> ServiceAdvertisingLayout {
        var unique: [BluetoothUUID] = []
        for uuid in serviceUUIDs where !unique.contains(uuid) { unique.append(uuid) }
        var advertising = AdvertisingData([.flags([.leGeneralDiscoverable, .brEdrNotSupported])])
        advertising.structures.append(ServiceOverflowArea(unique).structure)
        return ServiceAdvertisingLayout(advertisingData: advertising, scanResponse: AdvertisingData([]), advertised: [], overflow: unique)
    }

    private init(advertisingData: AdvertisingData, scanResponse: AdvertisingData, advertised: [BluetoothUUID], overflow: [BluetoothUUID]) {
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
        self.advertised = advertised
        self.overflow = overflow
    }

    /// The UUID lists for `uuids` by width (16, 32, then 128 bits), complete or incomplete.
    private static func lists(_ uuids: [BluetoothUUID], complete: Bool) -> [AdvertisingData.Structure] {
        var short: [UInt16] = [], medium: [UInt32] = [], long: [UInt128] = []
        for uuid in uuids {
            if let value = uuid.uuid16 {
                short.append(value)
            } else if let value = uuid.uuid32 {
                medium.append(value)
            } else {
                long.append(uuid.value)
            }
        }
        var structures: [AdvertisingData.Structure] = []
        if !short.isEmpty { structures.append(complete ? .completeList16(short) : .incompleteList16(short)) }
        if !medium.isEmpty { structures.append(complete ? .completeList32(medium) : .incompleteList32(medium)) }
        if !long.isEmpty { structures.append(complete ? .completeList128(long) : .incompleteList128(long)) }
        return structures
    }
}

extension Peripheral {
    /// Advertises `name` and `serviceUUIDs` as Core Bluetooth does (see
    /// ``ServiceAdvertisingLayout``): connectable, UUIDs that do not fit in the overflow
    /// area of the scan response.
    /// - Returns: the session, and the layout put on the air.
    /// - Throws: ``BLEError/advertisingInProgress``, ``BLEError/invalidParameters(_:)``.
    public func advertiseServices(
        name: String?, serviceUUIDs: [BluetoothUUID], interval: Duration = .milliseconds(100)
    ) async throws(BLEError) -> (session: AdvertisingSession, layout: ServiceAdvertisingLayout) {
        let layout = ServiceAdvertisingLayout(name: name, serviceUUIDs: serviceUUIDs)
        return (try await advertise(layout, interval: interval), layout)
    }

    /// Advertises `layout`, connectable (see ``ServiceAdvertisingLayout``).
    /// - Throws: ``BLEError/advertisingInProgress``, ``BLEError/invalidParameters(_:)``.
    public func advertise(_ layout: ServiceAdvertisingLayout, interval: Duration = .milliseconds(100)) async throws(BLEError) -> AdvertisingSession {
        let units = ConnectionParameters.microseconds(interval) / 625
        guard (0x0020...0x4000).contains(units) else { throw .invalidParameters("the advertising interval must be 20 ms to 10.24 s") }
        let parameters = GAPAdvertisingParameters(
            kind: .connectable, intervalMin: UInt16(units), intervalMax: UInt16(units), data: layout.advertisingData,
            scanResponse: layout.scanResponse)
        return try await startAdvertising(parameters)
    }
}
