import BLEHost
import BLEWire
import Testing

@Suite("GATT database")
struct GATTDatabaseTests {
    /// The database of Core 5.4, Vol 3, Part G, Appendix B: GAP (writable Device Name),
    /// GATT, Glucose including a secondary Battery service defined after it.
    static func appendixB() throws -> GATTDatabase {
        try GATTDatabase(services: [
            GATTServiceDefinition(uuid: 0x1808, includes: [0x180F], characteristics: [
                GATTCharacteristicDefinition(uuid: 0x2A18, properties: [.read, .indicate, .extendedProperties], value: .stored([])),
            ]),
            GATTServiceDefinition(uuid: 0x180F, isPrimary: false, characteristics: [
                GATTCharacteristicDefinition(uuid: 0x2A19, properties: .read, value: .stored([0x64])),
            ]),
        ], configuration: GATTDatabase.Configuration(deviceNameIsWriteable: true))
    }

    @Test("The Database Hash of the spec's Appendix B database is F1CA2D48ECF58BAC8A8830BBB9FBA990")
    func appendixBHash() throws {
        let database = try Self.appendixB()
        #expect(database.databaseHash == 0xF1CA_2D48_ECF5_8BAC_8A88_30BB_B9FB_A990)
        #expect(database.lastHandle == 0x0016)
        // The handles the appendix lists: the include at 0x0F, the Extended Properties at 0x13.
        #expect(database.attribute(at: 0x000F)?.value == .stored(hex("1400 1600 0F18")))
        #expect(database.attribute(at: 0x0010)?.value == .stored(hex("A2 1100 182A")))
        #expect(database.attribute(at: 0x0013)?.type == BluetoothUUID(0x2900))
        #expect(database.attribute(at: 0x0013)?.value == .stored(hex("0000")))
    }

    @Test("The Database Hash characteristic reads the hash least significant octet first")
    func hashCharacteristic() throws {
        var server = GATTServer(database: try Self.appendixB())
        #expect(server.database.databaseHashHandle == 0x000D)
        #expect(server.answer("0A 0D00") == hex("0B 90A9FBB9BB30888AAC8BF5EC482DCAF1"))
    }

    @Test("Handles are compact, in definition order, standard services first")
    func layout() throws {
        let database = try GATTDatabase(services: GATTFixture.services)
        #expect(database.lastHandle == 47)
        #expect(database.attributes.enumerated().allSatisfy { Int($0.element.handle) == $0.offset + 1 })
        #expect(database.services.map(\.handles) == [1 ... 5, 6 ... 13, 14 ... 23, 24 ... 43, 44 ... 47])
        #expect(database.services.map(\.isPrimary) == [true, true, true, true, false])
        #expect(database.deviceNameHandle == 3)
        #expect(database.appearanceHandle == 5)
        #expect(database.serviceChangedHandle == 8)
        #expect(database.clientSupportedFeaturesHandle == 11)
        #expect(database.valueHandle(of: GATTFixture.u1) == 26)
        #expect(database.valueHandle(of: 0x2A19, inService: 0x180F) == 46)
        #expect(database.valueHandle(of: 0x2A19, inService: 0x180D) == nil)
        let u1 = try #require(database.characteristic(valueHandle: 26))
        #expect(u1.declarationHandle == 25 && u1.endHandle == 28 && u1.clientConfigurationHandle == 27)
        #expect(u1.properties.contains(.extendedProperties))
        #expect(database.attribute(at: 25)?.value == .stored(hex("BE 1A00" + GATTFixture.u1Octets)))
        #expect(database.attribute(at: 28)?.value == .stored(hex("0100")))
        #expect(database.attribute(at: 41)?.type == BluetoothUUID(0x2903))
    }

    @Test("Without the standard services the app's first service starts at handle 1")
    func withoutStandardServices() throws {
        let database = try GATTDatabase(services: [GATTServiceDefinition(uuid: 0x180F, characteristics: [
            GATTCharacteristicDefinition(uuid: 0x2A19, properties: .read, value: .stored([1])),
        ])], configuration: GATTDatabase.Configuration(includesStandardServices: false))
        #expect(database.lastHandle == 3)
        #expect(database.attribute(at: 1)?.value == .stored(hex("0F18")))
        #expect(database.serviceChangedHandle == nil && database.deviceNameHandle == nil)
    }

    @Test("A 32-bit UUID is declared in its 128-bit form; a 128-bit form of a 16-bit UUID in 16 bits")
    func uuidWidths() throws {
        let database = try GATTDatabase(services: [GATTServiceDefinition(uuid: BluetoothUUID(uuid32: 0x1234_5678), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid128: 0x0000_2A19_0000_1000_8000_0080_5F9B_34FB),
                                         properties: .read, value: .stored([1])),
        ])], configuration: GATTDatabase.Configuration(includesStandardServices: false))
        #expect(database.attribute(at: 1)?.value == .stored(hex("FB349B5F80000080001000007856 3412")))
        #expect(database.attribute(at: 2)?.value == .stored(hex("02 0300 192A")))
        #expect(database.attribute(at: 3)?.type.width == .bits16)
    }

    @Test("The hash changes when a hashed attribute changes and not when a value does")
    func hashCovers() throws {
        func hash(_ uuid: BluetoothUUID, _ value: [UInt8]) throws -> UInt128 {
            try GATTDatabase(services: [GATTServiceDefinition(uuid: 0x180F, characteristics: [
                GATTCharacteristicDefinition(uuid: uuid, properties: .read, value: .stored(value)),
            ])]).databaseHash
        }
        #expect(try hash(0x2A19, [1]) == hash(0x2A19, [2]))
        #expect(try hash(0x2A19, [1]) != hash(0x2A1A, [1]))
    }

    @Test("Definitions that break the spec's rules are rejected with the reason")
    func validation() {
        func error(_ services: [GATTServiceDefinition]) -> GATTDatabaseError? {
            do { _ = try GATTDatabase(services: services); return nil } catch { return error }
        }
        let read = GATTCharacteristicDefinition(uuid: 0x2A19, properties: .read, value: .stored([1]))
        #expect(error([GATTServiceDefinition(uuid: 0x180D, includes: [0x1234])]) == .unknownIncludedService(0x1234, includedBy: 0x180D))
        #expect(error([GATTServiceDefinition(uuid: 0x180D, includes: [0x180D])]) == .serviceIncludesItself(0x180D))
        var long = read
        long.value = .stored([UInt8](repeating: 0, count: 513))
        #expect(error([GATTServiceDefinition(uuid: 0x180D, characteristics: [long])]) == .valueTooLong(0x2A19, length: 513, maximum: 512))
        var short = read
        short.maximumLength = 0
        #expect(error([GATTServiceDefinition(uuid: 0x180D, characteristics: [short])]) == .valueTooLong(0x2A19, length: 1, maximum: 0))
        var huge = read
        huge.maximumLength = 600
        #expect(error([GATTServiceDefinition(uuid: 0x180D, characteristics: [huge])]) == .invalidMaximumLength(0x2A19, 600))
        var key = read
        key.minimumKeySize = 17
        #expect(error([GATTServiceDefinition(uuid: 0x180D, characteristics: [key])]) == .invalidMinimumKeySize(0x2A19, 17))
        for reserved: BluetoothUUID in [0x2900, 0x2902, 0x2903] {
            var manual = read
            manual.descriptors = [GATTDescriptorDefinition(uuid: reserved, value: .stored([0, 0]))]
            #expect(error([GATTServiceDefinition(uuid: 0x180D, characteristics: [manual])]) == .reservedDescriptor(reserved, characteristic: 0x2A19))
        }
        #expect(error([GATTServiceDefinition(uuid: 0x1800)]) == .duplicateStandardService(0x1800))
        let many = [GATTCharacteristicDefinition](repeating: read, count: 33_000)
        #expect(error([GATTServiceDefinition(uuid: 0x180D, characteristics: many)]) == .handleSpaceExhausted(attributeCount: 66_014))
    }
}
