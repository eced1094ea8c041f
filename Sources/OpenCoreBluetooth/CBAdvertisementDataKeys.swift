// The keys of `advertisementData` in `centralManager(_:didDiscover:advertisementData:rssi:)`
// and of `CBPeripheralManager.startAdvertising(_:)`, with Apple's string values. The AD
// types behind them are in the Core Specification Supplement, Part A.

/// The local name (`String`), from the Complete or Shortened Local Name (CSS Part A, §1.2).
public let CBAdvertisementDataLocalNameKey = "kCBAdvDataLocalName"
/// The transmit power level in dBm (`NSNumber`), from the TX Power Level (CSS Part A, §1.5).
public let CBAdvertisementDataTxPowerLevelKey = "kCBAdvDataTxPowerLevel"
/// The advertised service UUIDs (`[CBUUID]`), from the 16-, 32- and 128-bit Service UUID
/// lists (CSS Part A, §1.1).
public let CBAdvertisementDataServiceUUIDsKey = "kCBAdvDataServiceUUIDs"
/// Service data (`[CBUUID: Data]`), from the Service Data AD types (CSS Part A, §1.11).
public let CBAdvertisementDataServiceDataKey = "kCBAdvDataServiceData"
/// Manufacturer data (`Data`, the company identifier's two octets, little-endian, first),
/// from the Manufacturer Specific Data (CSS Part A, §1.4).
public let CBAdvertisementDataManufacturerDataKey = "kCBAdvDataManufacturerData"
/// Service UUIDs that did not fit the advertisement (`[CBUUID]`): Apple's overflow area.
/// SwiftBLE fills it from UUIDs found only in the scan response.
public let CBAdvertisementDataOverflowServiceUUIDsKey = "kCBAdvDataOverflowServiceUUIDs"
/// Whether the advertiser accepts connections (`NSNumber` with a `Bool`), from the
/// advertising PDU type (Core 5.4, Vol 6, Part B, §2.3.1).
public let CBAdvertisementDataIsConnectable = "kCBAdvDataIsConnectable"
/// Solicited service UUIDs (`[CBUUID]`), from the Service Solicitation lists (CSS Part A, §1.10).
public let CBAdvertisementDataSolicitedServiceUUIDsKey = "kCBAdvDataSolicitedServiceUUIDs"
