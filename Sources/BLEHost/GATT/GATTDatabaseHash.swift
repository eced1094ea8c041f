import BLECrypto
import BLEWire

extension GATTDatabase {
    /// The Database Hash of `attributes` (Core 5.4, Vol 3, Part G, §7.3.1): AES-CMAC with
    /// the all-zero key over, in handle order, the handle, type and value of every
    /// service, include and characteristic declaration and Extended Properties
    /// descriptor, and the handle and type alone of every User Description, Client and
    /// Server Characteristic Configuration, Presentation Format and Aggregate Format
    /// descriptor; each field little-endian as on the air. `nil` only if AES fails.
    ///
    /// Public so a test or tool can hash an attribute table built by other means.
    public static func hash(of attributes: some Sequence<GATTAttribute>) -> UInt128? {
        try? BLECrypto.aesCMAC(key: 0, message: hashedOctets(of: attributes))
    }

    /// The message ``hash(of:)`` authenticates.
    static func hashedOctets(of attributes: some Sequence<GATTAttribute>) -> [UInt8] {
        let withValue: Set<BluetoothUUID> = [
            GATTServerUUID.primaryService, GATTServerUUID.secondaryService, GATTServerUUID.include,
            GATTServerUUID.characteristic, GATTServerUUID.extendedProperties,
        ]
        let withoutValue: Set<BluetoothUUID> = [
            GATTServerUUID.userDescription, GATTServerUUID.clientCharacteristicConfiguration,
            GATTServerUUID.serverCharacteristicConfiguration, GATTServerUUID.presentationFormat,
            GATTServerUUID.aggregateFormat,
        ]
        var writer = ByteWriter(capacity: 512)
        for attribute in attributes {
            let includesValue = withValue.contains(attribute.type)
            guard includesValue || withoutValue.contains(attribute.type) else { continue }
            writer.write(attribute.handle)
            writer.write(contentsOf: attribute.type.attributeOctets)
            if includesValue, case let .stored(value) = attribute.value {
                writer.write(contentsOf: value)
            }
        }
        return writer.bytes
    }
}
