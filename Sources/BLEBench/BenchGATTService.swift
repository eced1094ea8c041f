import BLEHost
import BLEWire

/// The service the GATT benches serve and use, with the UUIDs of
/// `scripts/compare-bumble-gatt.py`'s Bumble side: one characteristic that notifies and
/// one written with Write Requests.
enum BenchGATTService {
    static let service = BluetoothUUID(uuid128: 0xA7E3_C0DE_5B1E_4E6B_9F00_0000_0000_00B0)
    static let notified = BluetoothUUID(uuid128: 0xA7E3_C0DE_5B1E_4E6B_9F00_0000_0000_00B1)
    static let written = BluetoothUUID(uuid128: 0xA7E3_C0DE_5B1E_4E6B_9F00_0000_0000_00B2)

    /// The peripheral's definitions: the written value is stored by the server itself, so
    /// a write round trip is the stack's alone (no app in the loop).
    static let definitions = [GATTServiceDefinition(uuid: service, characteristics: [
        GATTCharacteristicDefinition(uuid: notified, properties: [.notify], permissions: [], value: .stored([])),
        GATTCharacteristicDefinition(uuid: written, properties: [.write], permissions: [.writeable], value: .stored([])),
    ])]

    /// What the central found.
    struct Remote: Sendable {
        /// ATT_MTU after the exchange.
        var mtu: Int
        var notifiedValue: ATT.Handle
        /// The notified characteristic's Client Characteristic Configuration descriptor.
        var notifiedConfiguration: ATT.Handle
        var writtenValue: ATT.Handle
    }

    /// The central's part, as an app would do it (Core 5.4, Vol 3, Part G, §4.3.1, §4.4.2,
    /// §4.6.1, §4.7.1): Exchange MTU, Discover Primary Service By Service UUID, Discover
    /// All Characteristics of it, Discover All Descriptors of the notified one.
    static func discover(from central: Host, on connection: UInt16) async throws -> Remote {
        guard case let .mtu(mtu) = try await central.gatt(.exchangeMTU, on: connection) else {
            throw BenchFailure("Exchange MTU gave no MTU.")
        }
        guard case let .services(services) = try await central.gatt(.discoverPrimaryServices(service), on: connection),
              let found = services.first else { throw BenchFailure("The peripheral does not serve the bench service.") }
        guard case let .characteristics(characteristics) = try await central.gatt(.discoverAllCharacteristics(in: found.handles), on: connection),
              let notifying = characteristics.first(where: { $0.uuid == notified }),
              let writing = characteristics.first(where: { $0.uuid == written }) else {
            throw BenchFailure("The bench service lacks its characteristics.")
        }
        guard case let .descriptors(descriptors) = try await central.gatt(.discoverAllDescriptors(of: notifying), on: connection),
              let configuration = descriptors.first(where: \.isClientCharacteristicConfiguration) else {
            throw BenchFailure("The notified characteristic has no Client Characteristic Configuration descriptor.")
        }
        return Remote(mtu: mtu, notifiedValue: notifying.valueHandle, notifiedConfiguration: configuration.handle,
                      writtenValue: writing.valueHandle)
    }

    /// `size` octets whose first four are `sequence`, little-endian, and the rest a fixed
    /// pattern: each value says where it belongs in the stream.
    static func value(_ sequence: Int, size: Int, filler: [UInt8]) -> [UInt8] {
        var value: [UInt8] = []
        value.reserveCapacity(4 + filler.count)
        for index in 0 ..< 4 { value.append(UInt8(truncatingIfNeeded: sequence >> (8 * index))) }
        value.append(contentsOf: filler)
        return value
    }

    /// The filler after the sequence number for `size`-octet values.
    static func filler(size: Int) -> [UInt8] { (4 ..< max(size, 4)).map { UInt8(truncatingIfNeeded: $0) } }

    /// The sequence number a value carries, or `nil` when it is not `size` octets long.
    static func sequence(of value: [UInt8], size: Int) -> Int? {
        guard value.count == size, size >= 4 else { return nil }
        return Int(value[0]) | Int(value[1]) << 8 | Int(value[2]) << 16 | Int(value[3]) << 24
    }
}
