import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

/// Advertising and scanning between real simulated controllers (Core 5.4, Vol 3, Part C,
/// §9.1–9.2; Vol 6, Part B, §4.4.2–4.4.3).
@Suite("GAP advertising and scanning")
struct GAPAdvertisingScanningTests {
    static let advertiserAddress: UInt64 = 0xC0FF_EE00_0001
    static let heartRate: UInt16 = 0x180D

    /// A world with an advertiser (flags + heart rate service, name in the scan response)
    /// and a scanner two metres apart, both ready.
    static func pair() -> (GAPWorld, advertiser: DeviceID, scanner: DeviceID) {
        let world = GAPWorld(seed: 7)
        let advertiser = world.add("advertiser", address: advertiserAddress, x: 0)
        let scanner = world.add("scanner", address: 0xC0FF_EE00_0002, x: 2)
        world.ready()
        return (world, advertiser, scanner)
    }

    static func parameters(kind: GAPAdvertisingParameters.Kind = .connectable) -> GAPAdvertisingParameters {
        GAPAdvertisingParameters(
            kind: kind, intervalMin: 32, intervalMax: 32,
            data: AdvertisingData([.flags([.leGeneralDiscoverable, .brEdrNotSupported]), .completeList16([heartRate])]),
            scanResponse: AdvertisingData([.completeLocalName("Thermometer")]))
    }

    @Test("An active scanner sees the name from the scan response merged with the advertisement")
    func activeScanMergesScanResponse() throws {
        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.startAdvertising(Self.parameters(), at: now) }
        try world.request(scanner) { gap, now throws(GAPError) in try gap.startScanning(GAPScanParameters(active: true), at: now) }
        let seen = world.run(for: 2_000_000) {
            world.advertisements(scanner, from: Self.advertiserAddress).contains { $0.data.localName == "Thermometer" }
        }
        #expect(seen)
        #expect(world.has(advertiser, .advertisingStarted))
        #expect(world.has(scanner, .scanningStarted))
        let merged = try #require(world.advertisements(scanner, from: Self.advertiserAddress).last)
        #expect(merged.connectable)
        #expect(merged.data.serviceUUIDs == [BluetoothUUID(Self.heartRate)])
        #expect(merged.scanResponseBytes == [12, 0x09] + Array("Thermometer".utf8))
        #expect(merged.advertisingBytes.count == 7)
        #expect(merged.rssi != 127)
    }

    @Test("Without allow-duplicates a device is reported again only when its data changes")
    func duplicatesFilteredUntilDataChanges() throws {
        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.startAdvertising(Self.parameters(), at: now) }
        try world.request(scanner) { gap, now throws(GAPError) in try gap.startScanning(GAPScanParameters(active: true), at: now) }
        world.run(for: 3_000_000)
        let before = world.advertisements(scanner, from: Self.advertiserAddress)
        // First the advertisement, then once more with the scan response: 3 s of 20 ms
        // advertising (~150 events) give no more.
        #expect(before.count == 2)
        #expect(before.first?.scanResponseBytes == [])

        try world.request(advertiser) { gap, now throws(GAPError) in
            try gap.updateAdvertisingData(AdvertisingData([.flags([.leGeneralDiscoverable]), .completeList16([0x1809])]), at: now)
        }
        world.run(for: 2_000_000)
        #expect(world.has(advertiser, .advertisingDataUpdated))
        let after = world.advertisements(scanner, from: Self.advertiserAddress)
        #expect(after.count == 3)
        #expect(after.last?.data.serviceUUIDs == [BluetoothUUID(0x1809)])
        #expect(after.last?.data.localName == "Thermometer")
    }

    @Test("With allow-duplicates every advertisement is reported")
    func allowDuplicatesReportsEveryAdvertisement() throws {
        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.startAdvertising(Self.parameters(), at: now) }
        try world.request(scanner) { gap, now throws(GAPError) in
            try gap.startScanning(GAPScanParameters(active: false, allowDuplicates: true), at: now)
        }
        world.run(for: 1_000_000)
        #expect(world.advertisements(scanner, from: Self.advertiserAddress).count > 10)
    }

    @Test("A passive scanner never gets the scan response")
    func passiveScanHasNoScanResponse() throws {
        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.startAdvertising(Self.parameters(), at: now) }
        try world.request(scanner) { gap, now throws(GAPError) in try gap.startScanning(GAPScanParameters(active: false), at: now) }
        world.run(for: 2_000_000)
        let seen = world.advertisements(scanner, from: Self.advertiserAddress)
        #expect(seen.count == 1)
        #expect(seen.allSatisfy { $0.scanResponseBytes.isEmpty && $0.data.localName == nil })
    }

    @Test("The service filter hides devices that do not list a wanted service")
    func serviceFilter() throws {
        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.startAdvertising(Self.parameters(), at: now) }
        try world.request(scanner) { gap, now throws(GAPError) in
            try gap.startScanning(GAPScanParameters(active: true, serviceUUIDs: [BluetoothUUID(0x1810)]), at: now)
        }
        world.run(for: 1_500_000)
        #expect(world.advertisements(scanner, from: Self.advertiserAddress).isEmpty)
        try world.request(scanner) { gap, now throws(GAPError) in try gap.stopScanning(at: now) }
        world.run(for: 100_000)
        #expect(world.has(scanner, .scanningStopped))
        try world.request(scanner) { gap, now throws(GAPError) in
            try gap.startScanning(GAPScanParameters(active: true, serviceUUIDs: [BluetoothUUID(Self.heartRate)]), at: now)
        }
        world.run(for: 1_500_000)
        #expect(!world.advertisements(scanner, from: Self.advertiserAddress).isEmpty)
    }

    @Test("A non-connectable beacon is reported as not connectable; stopping advertising ends reports")
    func nonConnectableAndStop() throws {
        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in
            try gap.startAdvertising(Self.parameters(kind: .nonConnectable), at: now)
        }
        try world.request(scanner) { gap, now throws(GAPError) in
            try gap.startScanning(GAPScanParameters(active: false, allowDuplicates: true), at: now)
        }
        world.run(for: 1_000_000)
        let seen = world.advertisements(scanner, from: Self.advertiserAddress)
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { !$0.connectable })
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.stopAdvertising(at: now) }
        world.run(for: 100_000)
        #expect(world.has(advertiser, .advertisingStopped(connectionHandle: nil)))
        let count = world.advertisements(scanner, from: Self.advertiserAddress).count
        world.run(for: 1_000_000)
        #expect(world.advertisements(scanner, from: Self.advertiserAddress).count == count)
    }

    @Test("Advertising data over 31 octets is refused with its length")
    func advertisingBudget() {
        var gap = GAPCore()
        let long = AdvertisingData([.completeLocalName(String(repeating: "x", count: 30))])
        #expect(throws: GAPError.advertisingDataTooLong(octets: 32, maximum: 31)) {
            try gap.startAdvertising(GAPAdvertisingParameters(data: long), at: 0)
        }
        #expect(throws: GAPError.scanResponseDataTooLong(octets: 32, maximum: 31)) {
            try gap.startAdvertising(GAPAdvertisingParameters(scanResponse: long), at: 0)
        }
        #expect(!gap.isAdvertising)
    }

    @Test("A random static address is generated with the top bits 11, set, and advertised from")
    func randomStaticAddress() throws {
        var random = GAPRandom(seed: 42)
        let address = GAPRandomStaticAddress.generate(using: &random)
        #expect(address.value >> 46 == 0b11)
        #expect(GAPRandomStaticAddress.isValid(address))
        #expect(!GAPRandomStaticAddress.isValid(BluetoothAddress(0xFFFF_FFFF_FFFF, kind: .random)))
        #expect(!GAPRandomStaticAddress.isValid(BluetoothAddress(0xC000_0000_0000, kind: .random)))
        #expect(!GAPRandomStaticAddress.isValid(BluetoothAddress(0x4000_0000_0001, kind: .random)))

        let (world, advertiser, scanner) = Self.pair()
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.setRandomStaticAddress(address, at: now) }
        world.run(for: 100_000)
        #expect(world.has(advertiser, .randomAddressSet(address)))
        var parameters = Self.parameters()
        parameters.useRandomAddress = true
        try world.request(advertiser) { gap, now throws(GAPError) in try gap.startAdvertising(parameters, at: now) }
        #expect(throws: GAPError.randomAddressChangeWhileBusy) {
            try world.request(advertiser) { gap, now throws(GAPError) in try gap.setRandomStaticAddress(address, at: now) }
        }
        try world.request(scanner) { gap, now throws(GAPError) in try gap.startScanning(GAPScanParameters(active: true), at: now) }
        world.run(for: 1_500_000)
        let seen = try #require(world.advertisements(scanner, from: address.value).first)
        #expect(seen.addressType == .random)
        #expect(world.advertisements(scanner, from: Self.advertiserAddress).isEmpty)
    }
}
