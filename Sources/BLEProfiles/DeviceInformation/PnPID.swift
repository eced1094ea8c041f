import BLEWire

/// PnP ID (GSS §3.170, characteristic 0x2A50): who made the device and which product and
/// version it is, as USB and the Device ID profile number them — seven octets.
public struct PnPID: CharacteristicValue {
    /// The PnP ID characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A50

    /// Who assigned the vendor ID.
    public enum VendorIDSource: UInt8, Hashable, Sendable {
        /// 1: a Bluetooth SIG company identifier.
        case bluetoothSIG = 1
        /// 2: a USB Implementer's Forum vendor ID.
        case usbImplementersForum = 2
    }

    /// Who assigned ``vendorID``.
    public var vendorIDSource: VendorIDSource
    /// The vendor.
    public var vendorID: UInt16
    /// The vendor's product.
    public var productID: UInt16
    /// The product's version (0xJJMN: major JJ, minor M, sub-minor N).
    public var productVersion: UInt16

    /// A PnP ID with every field.
    public init(vendorIDSource: VendorIDSource, vendorID: UInt16, productID: UInt16, productVersion: UInt16) {
        self.vendorIDSource = vendorIDSource
        self.vendorID = vendorID
        self.productID = productID
        self.productVersion = productVersion
    }

    /// Decodes exactly seven octets; a vendor ID source other than 1 or 2 is reserved.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "PnPID") { reader throws(WireError) in
            PnPID(vendorIDSource: try ProfileDecoding.enumeration(&reader, "PnPID.vendorIDSource", VendorIDSource.init(rawValue:)),
                  vendorID: try reader.readUInt16("PnPID.vendorID"), productID: try reader.readUInt16("PnPID.productID"),
                  productVersion: try reader.readUInt16("PnPID.productVersion"))
        }
    }

    /// The seven octets.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 7)
        writer.write(vendorIDSource.rawValue)
        writer.write(vendorID)
        writer.write(productID)
        writer.write(productVersion)
        return writer.bytes
    }
}
