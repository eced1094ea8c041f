import BLEController
import BLEWire

/// Host procedures the controller tests speak in.
extension TestAir {
    static let advertisingData: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09, 0x54, 0x45, 0x53, 0x54] // Flags, "TEST"
    static let scanResponseData: [UInt8] = [0x03, 0x03, 0x0D, 0x18] // 16-bit UUID 0x180D

    /// Sets parameters and data and enables legacy advertising on device `index`.
    mutating func startAdvertising(
        _ index: Int, type: HCI.LESetAdvertisingParameters.AdvertisingType = .connectableUndirected,
        interval: UInt16 = 0x00A0, peer: BluetoothAddress = BluetoothAddress(0),
        filterPolicy: HCI.AdvertisingFilterPolicy = .acceptAll
    ) {
        command(index, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: interval, advertisingIntervalMax: interval, advertisingType: type,
            ownAddressType: .public, peerAddress: peer, advertisingChannelMap: .all, advertisingFilterPolicy: filterPolicy))
        command(index, HCI.LESetAdvertisingData(advertisingData: TestAir.advertisingData[...]))
        command(index, HCI.LESetScanResponseData(scanResponseData: TestAir.scanResponseData[...]))
        command(index, HCI.LESetAdvertisingEnable(advertisingEnable: true))
    }

    /// Sets parameters and enables scanning on device `index` (100 ms window = interval).
    mutating func startScanning(
        _ index: Int, active: Bool, filterDuplicates: Bool = false,
        filterPolicy: HCI.ScanningFilterPolicy = .basicUnfiltered, interval: UInt16 = 0x00A0, window: UInt16 = 0x00A0
    ) {
        command(index, HCI.LESetScanParameters(
            leScanType: active ? .active : .passive, leScanInterval: interval, leScanWindow: window,
            ownAddressType: .public, scanningFilterPolicy: filterPolicy))
        command(index, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: filterDuplicates))
    }

    /// LE Create Connection from device `index` to `peer` with 30 ms interval, latency 2, 720 ms timeout.
    static func createConnection(to peer: BluetoothAddress) -> HCI.LECreateConnection {
        HCI.LECreateConnection(
            leScanInterval: 0x0060, leScanWindow: 0x0060, peerAddressType: .public, peerAddress: peer,
            ownAddressType: .public,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 24, connectionIntervalMax: 40, maxLatency: 2, supervisionTimeout: 72))
    }
}
