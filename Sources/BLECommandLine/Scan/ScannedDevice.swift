import BLEHost
import BLEWire

/// What `ble scan` shows of one advertiser in its table and JSON lines; merging and
/// duplicate filtering happen in the host's GAP (`GAPCore`).
struct ScannedDevice {
    var address: BluetoothAddress
    var addressType: HCI.AddressType
    var rssi: Int8
    var connectable: Bool
    var advertisingData: [UInt8] = []
    var scanResponse: [UInt8] = []
    var firstSeen: Int64
    var lastSeen: Int64
    /// What an extended scan heard of it (`--extended`); `nil` from a legacy scan.
    var extended: GAPExtendedHearing?
    /// The data last reported, to notice changes.
    var reported: ([UInt8], [UInt8])?

    /// Advertising data then scan response, decoded leniently (malformed ones are skipped).
    var merged: AdvertisingData {
        var structures: [AdvertisingData.Structure] = []
        for bytes in [advertisingData, scanResponse] {
            if let data = try? AdvertisingData(decoding: bytes) { structures += data.structures }
        }
        return AdvertisingData(structures: structures)
    }
}
