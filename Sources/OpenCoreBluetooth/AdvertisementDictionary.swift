import BLE
import Foundation

/// The `advertisementData` dictionary of `centralManager(_:didDiscover:advertisementData:rssi:)`,
/// built from the advertisement's and scan response's AD structures (Core Specification
/// Supplement, Part A) under Apple's keys, with Apple's value types.
enum AdvertisementDictionary {
    /// - Parameter scannedFor: the services the scan asked for: those found only in the
    ///   advertiser's overflow area are reported under the overflow key, as Apple does.
    static func make(_ advertisement: Advertisement, scannedFor: [BluetoothUUID] = []) -> [String: Any] {
        var data: [String: Any] = [CBAdvertisementDataIsConnectable: NSNumber(value: advertisement.connectable)]
        if let name = advertisement.localName { data[CBAdvertisementDataLocalNameKey] = name }
        if let power = advertisement.txPower { data[CBAdvertisementDataTxPowerLevelKey] = NSNumber(value: power) }
        if let vendor = advertisement.manufacturerData {
            // Core Bluetooth hands the company identifier's two octets (little-endian) first.
            let company = vendor.companyIdentifier
            data[CBAdvertisementDataManufacturerDataKey] = Data([UInt8(truncatingIfNeeded: company), UInt8(truncatingIfNeeded: company >> 8)] + vendor.data)
        }
        let services = advertisement.serviceUUIDs
        if !services.isEmpty { data[CBAdvertisementDataServiceUUIDsKey] = services.map { CBUUID($0) } }
        let serviceData = advertisement.serviceData
        if !serviceData.isEmpty {
            var byService: [CBUUID: Data] = [:]
            for (uuid, bytes) in serviceData { byService[CBUUID(uuid)] = Data(bytes) }
            data[CBAdvertisementDataServiceDataKey] = byService
        }
        let overflow = advertisement.overflowServiceUUIDs(among: scannedFor)
        if !overflow.isEmpty { data[CBAdvertisementDataOverflowServiceUUIDsKey] = overflow.map { CBUUID($0) } }
        if let solicited = advertisement.data.serviceSolicitationUUIDs, !solicited.isEmpty {
            data[CBAdvertisementDataSolicitedServiceUUIDsKey] = solicited.map { CBUUID($0) }
        }
        return data
    }
}
