import BLEHost

/// The "overflow area" where Core Bluetooth puts the service UUIDs that do not fit in an
/// advertisement: Manufacturer Specific Data (Supplement, Part A, §1.4) of Apple
/// (company identifier 0x004C) whose first octet is 0x01 and whose next 16 octets are a
/// 128-bit bitmap with one bit set per service UUID. A scanner that looks for a service
/// tests its bit, so matches are "may contain": two UUIDs can share a bit.
///
/// The shape is Apple's, as observed on air (the bitmap of a backgrounded iPhone); the
/// function Apple uses to pick a UUID's bit is not published (observers built lookup
/// tables by trial). SwiftBLE therefore defines its own, documented here, so its
/// advertisers and scanners agree with each other — not with Apple devices:
///
/// - the bit of a UUID is the 32-bit FNV-1a hash (offset basis 0x811C9DC5, prime
///   0x01000193) of its 128-bit value's 16 octets, most significant octet first, modulo
///   128;
/// - bit *n* is bit `7 − n % 8` (most significant first) of bitmap octet `n / 8`.
public struct ServiceOverflowArea: Hashable, Sendable {
    /// Apple's company identifier (Bluetooth SIG Assigned Numbers).
    public static let companyIdentifier: UInt16 = 0x004C
    /// The first octet of Apple's data that marks an overflow area.
    public static let marker: UInt8 = 0x01

    /// The 128-bit bitmap, 16 octets.
    public private(set) var bitmap: [UInt8]

    /// An overflow area listing `uuids`.
    public init(_ uuids: [BluetoothUUID] = []) {
        bitmap = Array(repeating: 0, count: 16)
        for uuid in uuids { insert(uuid) }
    }

    /// The overflow area in `data`, if it carries one.
    public init?(_ data: AdvertisingData) {
        for structure in data.structures where structure.type == .manufacturerSpecificData {
            let octets = Array(structure.data)
            guard octets.count >= 19, octets[0] == 0x4C, octets[1] == 0x00, octets[2] == Self.marker else { continue }
            bitmap = Array(octets[3..<19])
            return
        }
        return nil
    }

    /// Sets the bit of `uuid`.
    public mutating func insert(_ uuid: BluetoothUUID) {
        let bit = Self.bit(for: uuid)
        bitmap[bit / 8] |= 0x80 >> UInt8(bit % 8)
    }

    /// Whether the bit of `uuid` is set: the area may list it.
    public func mayContain(_ uuid: BluetoothUUID) -> Bool {
        let bit = Self.bit(for: uuid)
        return bitmap[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0
    }

    /// The bit (0–127) that stands for `uuid`.
    public static func bit(for uuid: BluetoothUUID) -> Int {
        var hash: UInt32 = 0x811C_9DC5
        for shift in stride(from: 120, through: 0, by: -8) {
            hash ^= UInt32(truncatingIfNeeded: uuid.value >> UInt128(shift))
            hash = hash &* 0x0100_0193
        }
        return Int(hash % 128)
    }

    /// The Manufacturer Specific Data structure carrying this area (21 octets on air).
    public var structure: AdvertisingData.Structure {
        .manufacturerData(company: Self.companyIdentifier, data: [Self.marker] + bitmap)
    }
}

extension Advertisement {
    /// The UUIDs among `candidates` this advertiser lists, in a service UUID list, as
    /// service data, or (possibly, see ``ServiceOverflowArea``) in an overflow area — what
    /// Core Bluetooth reports as `CBAdvertisementDataOverflowServiceUUIDsKey` when it
    /// scans for `candidates`.
    public func overflowServiceUUIDs(among candidates: [BluetoothUUID]) -> [BluetoothUUID] {
        guard let area = ServiceOverflowArea(data) else { return [] }
        let listed = serviceUUIDs + serviceData.keys
        return candidates.filter { !listed.contains($0) && area.mayContain($0) }
    }

    /// Whether this advertiser lists any of `uuids` — in a UUID list, as service data or in
    /// an overflow area; `true` for an empty `uuids`.
    public func advertisesAny(of uuids: [BluetoothUUID]) -> Bool {
        guard !uuids.isEmpty else { return true }
        let listed = serviceUUIDs + serviceData.keys
        if uuids.contains(where: listed.contains) { return true }
        guard let area = ServiceOverflowArea(data) else { return false }
        return uuids.contains(where: area.mayContain)
    }
}
