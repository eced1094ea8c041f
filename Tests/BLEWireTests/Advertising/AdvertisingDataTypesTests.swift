import BLEWire
import Testing

extension AdvertisingDataTests {
    /// Encodes `structures` and decodes them again, as a scanner would see them.
    static func received(_ structures: [AdvertisingData.Structure]) throws -> AdvertisingData {
        try AdvertisingData(decoding: AdvertisingData(structures).encoded())
    }

    @Test("Service UUID lists of every width merge; an incomplete list makes the set incomplete")
    func serviceLists() throws {
        let data = try Self.received([
            .incompleteList16([0x180D, 0x180F]), .completeList32([0x1234_5678]), .completeList128([0xABCD]),
        ])
        #expect(data.serviceUUIDs == [BluetoothUUID(0x180D), BluetoothUUID(0x180F),
                                      BluetoothUUID(uuid32: 0x1234_5678), BluetoothUUID(uuid128: 0xABCD)])
        #expect(!data.isServiceListComplete)
        #expect(try Self.received([.completeList16([0x180D])]).isServiceListComplete)
        #expect(try !Self.received([.flags([])]).isServiceListComplete)
        #expect(try Self.bytes("0503 0d18 0f18") == AdvertisingData([.completeList16([0x180D, 0x180F])]).encoded())
        let solicited = try Self.received([.solicitation16([0x1812]), .solicitation32([7]), .solicitation128([0x42])])
        #expect(solicited.serviceSolicitationUUIDs == [BluetoothUUID(0x1812), BluetoothUUID(uuid32: 7), BluetoothUUID(uuid128: 0x42)])
        #expect(solicited.serviceUUIDs == nil)
    }

    @Test("Service data of each width and manufacturer data carry their identifier first")
    func serviceAndManufacturerData() throws {
        let long = BluetoothUUID(uuid128: 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF)
        let data = try Self.received([
            .serviceData(uuid: BluetoothUUID(0xFEAA), data: [0x10, 0x00]),
            .serviceData(uuid: BluetoothUUID(uuid32: 0xAABB_CCDD), data: []),
            .serviceData(uuid: long, data: [9]),
        ])
        #expect(data.structures.map(\.type) == [.serviceData16BitUUID, .serviceData32BitUUID, .serviceData128BitUUID])
        #expect(Hex.encode(data.encoded().prefix(6)) == "0516aafe1000")
        #expect(data.serviceData?.count == 3)
        #expect(data.serviceData(for: BluetoothUUID(0xFEAA)) == [0x10, 0x00])
        #expect(data.serviceData(for: long) == [9])
        #expect(data.serviceData(for: BluetoothUUID(uuid32: 0xAABB_CCDD))?.isEmpty == true)
        let short = try AdvertisingData(decoding: [0x02, 0x16, 0xAA])
        #expect(short.serviceData == nil)
        #expect(try AdvertisingData(decoding: [0x02, 0xFF, 0x4C]).manufacturerData == nil)
    }

    @Test("Scalar data types decode from their builders")
    func scalars() throws {
        let data = try Self.received([
            .shortenedLocalName("Heart"), .txPowerLevel(-12), .appearance(0x0341),
            .peripheralConnectionIntervalRange(minimum: 0x0006, maximum: 0xFFFF),
            .advertisingInterval(0x00A0), .advertisingIntervalLong(0x01_0000), .leRole(.centralPreferred),
        ])
        #expect(data.shortenedLocalName == "Heart" && data.localName == "Heart" && data.completeLocalName == nil)
        #expect(data.txPowerLevel == -12)
        #expect(data.appearance == 0x0341)
        let range = try #require(data.peripheralConnectionIntervalRange)
        #expect(range.specifiedMinimum == 6 && range.specifiedMaximum == nil && range.maximum == 0xFFFF)
        #expect(data.advertisingInterval == 0x00A0)
        #expect(data.advertisingIntervalLong == 0x01_0000)
        #expect(data.firstData(of: .advertisingIntervalLong)?.count == 3)
        #expect(try Self.received([.advertisingIntervalLong(0x0100_0000)]).advertisingIntervalLong == 0x0100_0000)
        #expect(data.leRole == .centralPreferred)
        #expect(try AdvertisingData(decoding: [0x02, 0x1C, 0x04]).leRole == nil)
        #expect(try Self.bytes("020af4") == AdvertisingData([.txPowerLevel(-12)]).encoded())
    }

    @Test("Target addresses and the LE device address keep their kinds")
    func addresses() throws {
        let first = BluetoothAddress(0xC011_2233_4455, kind: .random)
        let second = BluetoothAddress(0x0102_0304_0506)
        let data = try Self.received([
            .publicTargetAddresses([second]), .randomTargetAddresses([first, BluetoothAddress(1, kind: .random)]),
            .leBluetoothDeviceAddress(first),
        ])
        #expect(data.publicTargetAddresses == [second])
        #expect(data.randomTargetAddresses == [first, BluetoothAddress(1, kind: .random)])
        #expect(data.leBluetoothDeviceAddress == first)
        #expect(Hex.encode(AdvertisingData([.leBluetoothDeviceAddress(first)]).encoded()) == "081b55443322 11c001".replacingHex())
        #expect(try AdvertisingData(decoding: [0x03, 0x17, 1, 2]).publicTargetAddresses == nil)
    }

    @Test("URIs restore their scheme from the code point")
    func uris() throws {
        let https = AdvertisingData([.uri("https://www.bluetooth.com")])
        let wire = https.encoded()
        // 0x17 is the code point of "https:" (Assigned Numbers, URI Schemes).
        #expect(Hex.encode(wire) == "1524" + "17" + Hex.encode(Array("//www.bluetooth.com".utf8)))
        #expect(try AdvertisingData(decoding: wire).uri == "https://www.bluetooth.com")
        #expect(try Self.received([.uri("http://example.org")]).firstData(of: .uri)?.first == 0x16)
        let plain = try Self.received([.uri("urn:x-thing")])
        #expect(plain.firstData(of: .uri)?.first == 0x01)
        #expect(plain.uri == "urn:x-thing")
        // An unlisted code point: components are there, the full URI is not.
        let unknown = try AdvertisingData(decoding: [0x04, 0x24, 0x7E, 0x2F, 0x2F])
        #expect(unknown.uri == nil)
        #expect(unknown.uriComponents?.schemeCodePoint == 0x7E)
        #expect(unknown.uriComponents?.remainder == "//")
        #expect(try AdvertisingData(decoding: [0x01, 0x24]).uri == nil)
    }

    @Test("Generated advertising data survives a round trip")
    func generatedRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xAD)
        for _ in 0 ..< 300 {
            var structures: [AdvertisingData.Structure] = []
            for _ in 0 ..< Int.random(in: 0 ... 6, using: &generator) {
                let type = AdvertisingData.ADType(UInt8.random(in: 0 ... 255, using: &generator))
                structures.append(AdvertisingData.Structure(type: type, data: generator.bytes(in: 0 ... 40)))
            }
            let data = AdvertisingData(structures)
            let bytes = data.encoded()
            #expect(bytes.count == data.encodedLength)
            #expect(try AdvertisingData(decoding: bytes) == data)
        }
    }

    @Test("Malformed advertising data never traps and truncation is rejected")
    func malformed() throws {
        for hex in [Self.iBeacon, Self.bumbleAdvertising, Self.bumbleScanResponse] {
            let valid = try Self.bytes(hex)
            let rejected = MalformedInput.check(valid, as: AdvertisingData.self)
            #expect(rejected > 0)
            #expect(throws: WireError.self) { try AdvertisingData(decoding: Array(valid.dropLast())) }
            // Every decodable mutation also answers every accessor without trapping.
            for input in MalformedInput.mutations(of: valid) {
                guard let data = try? AdvertisingData(decoding: input) else { continue }
                _ = (data.flags, data.serviceUUIDs, data.localName, data.txPowerLevel, data.serviceData,
                     data.manufacturerData, data.uri, data.leBluetoothDeviceAddress, data.advertisingIntervalLong,
                     data.peripheralConnectionIntervalRange, data.publicTargetAddresses, data.appearance)
                _ = try? data.validate()
            }
        }
        let structure = try Self.bytes("03ff4c00")
        MalformedInput.check(structure, as: AdvertisingData.Structure.self)
        #expect(throws: WireError.self) { try AdvertisingData.Structure(decoding: [0x00]) }
    }
}

extension String {
    /// Removes the spaces used to group hex digits in expectations.
    func replacingHex() -> String { filter { $0 != " " } }
}
