// Fuzz target: AD structures and every typed accessor over them (Core Supplement, Part A).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertisingData(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    fuzzRoundTrip(bytes, as: AdvertisingData.self)
    if let advertisingData = try? AdvertisingData(decoding: bytes) {
        // The accessors parse the content of each structure: they must not trap either.
        _ = advertisingData.flags
        _ = advertisingData.serviceUUIDs
        _ = advertisingData.localName
        _ = advertisingData.txPowerLevel
        _ = advertisingData.manufacturerData
        _ = advertisingData.serviceData
        _ = advertisingData.appearance
        _ = advertisingData.uri
        _ = advertisingData.serviceSolicitationUUIDs
        _ = advertisingData.peripheralConnectionIntervalRange
        _ = advertisingData.publicTargetAddresses
        _ = advertisingData.randomTargetAddresses
        _ = advertisingData.advertisingInterval
        _ = advertisingData.advertisingIntervalLong
        _ = advertisingData.leBluetoothDeviceAddress
        _ = advertisingData.leRole
        _ = try? advertisingData.validate()
        _ = try? advertisingData.encodedLegacy()
    }
    return 0
}
