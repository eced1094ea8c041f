import BLEHost
import BLEWire

extension GATTDocument {
    /// The tree a fresh client of our server discovers and reads, built from the database:
    /// the same document `ble gatt dump --json` prints of a peer, so a client's view can be
    /// compared with what is served. Dynamic values are taken from `dynamicValues` (empty
    /// when never written); per-client descriptors read as they do for a new client (Client
    /// Characteristic Configuration 0000, Core 5.4, Vol 3, Part G, §3.3.3.3).
    init(serving database: GATTDatabase, address: String, mtu: Int, dynamicValues: [ATT.Handle: [UInt8]] = [:]) {
        self.init(address: address, mtu: mtu, services: [])
        func value(_ attribute: GATTAttribute) -> [UInt8] {
            switch attribute.role {
            case .clientCharacteristicConfiguration: return [0, 0]
            default:
                switch attribute.value {
                case let .stored(bytes): return bytes
                case .dynamic: return dynamicValues[attribute.handle] ?? []
                }
            }
        }
        for attribute in database.attributes {
            let bytes = value(attribute)
            switch attribute.role {
            case let .serviceDeclaration(isPrimary, endHandle):
                services.append(Service(uuid: Self.uuid(bytes[...]), isPrimary: isPrimary, startHandle: attribute.handle,
                                        endHandle: endHandle, includes: [], characteristics: []))
            case .includeDeclaration where bytes.count >= 4 && !services.isEmpty:
                let start = ATT.Handle(bytes[0]) | ATT.Handle(bytes[1]) << 8
                let end = ATT.Handle(bytes[2]) | ATT.Handle(bytes[3]) << 8
                let uuid = bytes.count > 4 ? Self.uuid(bytes[4...]) : database.attribute(at: start).map { Self.uuid(value($0)[...]) }
                services[services.count - 1].includes.append(Include(handle: attribute.handle, startHandle: start, endHandle: end,
                                                                     uuid: uuid ?? BluetoothUUID(0)))
            case let .characteristicDeclaration(valueHandle, _) where bytes.count >= 5 && !services.isEmpty:
                services[services.count - 1].characteristics.append(Characteristic(
                    uuid: Self.uuid(bytes[3...]), handle: attribute.handle, valueHandle: valueHandle,
                    properties: GATTCharacteristicProperties(rawValue: bytes[0]), value: nil, error: nil, descriptors: []))
            case .characteristicValue, .clientSupportedFeatures:
                guard let last = services.indices.last, let index = services[last].characteristics.indices.last else { continue }
                if services[last].characteristics[index].properties.contains(.read) {
                    services[last].characteristics[index].value = bytes
                }
            case .clientCharacteristicConfiguration, .serverCharacteristicConfiguration, .extendedProperties, .descriptor:
                guard let last = services.indices.last, let index = services[last].characteristics.indices.last else { continue }
                services[last].characteristics[index].descriptors.append(
                    Descriptor(uuid: attribute.type, handle: attribute.handle, value: bytes, error: nil))
            default:
                continue
            }
        }
    }

    /// A UUID from its little-endian octets (2 or 16; Core 5.4, Vol 3, Part F, §3.2.1).
    private static func uuid(_ octets: ArraySlice<UInt8>) -> BluetoothUUID {
        var value: UInt128 = 0
        for byte in octets.reversed() { value = value << 8 | UInt128(byte) }
        return octets.count == 2 ? BluetoothUUID(UInt16(truncatingIfNeeded: value)) : BluetoothUUID(uuid128: value)
    }
}
