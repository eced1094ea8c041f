import BLEHost
import BLEWire
import Testing

/// Access under a condition, as Core Bluetooth declares it: a permission of
/// `readEncryptionRequired` alone (Apple's programming guide writes no `.readable` beside
/// it) and the `notifyEncryptionRequired` property, which makes subscribing need an
/// encrypted link (Core 5.4, Vol 3, Part F, §3.2.5; Part C, §10.3.1 for the error codes).
@Suite("GATT server: access under a condition")
struct GATTServerConditionalAccessTests {
    static let service = BluetoothUUID(0xFF00)
    /// `[.read]`, permissions `[.readEncryptionRequired]` alone.
    static let secret = BluetoothUUID(0xFF01)
    /// `[.read, .notify]`, readable by anyone, subscription needs encryption.
    static let feed = BluetoothUUID(0xFF02)
    /// `[.write]`, permissions `[.writeEncryptionRequired]` alone.
    static let setting = BluetoothUUID(0xFF03)
    /// `[.read, .notify]`, permissions `[.readAuthenticationRequired]` alone.
    static let guarded = BluetoothUUID(0xFF04)

    static let noKey = LinkSecurity.unencrypted
    static let keyNotUsed = LinkSecurity(level: .none, keySize: 0, hasKey: true)
    static let justWorks = LinkSecurity(level: .unauthenticated, keySize: 16, hasKey: true)
    static let authenticated = LinkSecurity(level: .authenticated, keySize: 16, hasKey: true)

    static func database() throws -> GATTDatabase {
        try GATTDatabase(services: [
            GATTServiceDefinition(uuid: service, characteristics: [
                GATTCharacteristicDefinition(uuid: secret, properties: .read, permissions: .readEncryptionRequired, value: .stored([0xAA])),
                GATTCharacteristicDefinition(uuid: feed, properties: [.read, .notify], permissions: .readable, value: .stored([0xBB]),
                                             subscriptionPermissions: .writeEncryptionRequired),
                GATTCharacteristicDefinition(uuid: setting, properties: .write, permissions: .writeEncryptionRequired, value: .stored([0x00])),
                GATTCharacteristicDefinition(uuid: guarded, properties: [.read, .notify], permissions: .readAuthenticationRequired,
                                             value: .stored([0xCC])),
            ]),
        ])
    }

    /// The server, and the value and CCCD handles of `uuid`.
    static func server() throws -> (GATTServer, handles: (BluetoothUUID) -> (value: UInt16, configuration: UInt16?)) {
        let database = try database()
        let handles: (BluetoothUUID) -> (value: UInt16, configuration: UInt16?) = { uuid in
            let found = database.characteristics.first { $0.uuid == uuid }
            return (found?.valueHandle ?? 0, found?.clientConfigurationHandle)
        }
        return (GATTServer(database: database), handles)
    }

    /// A handle as ATT carries it: little-endian hex.
    static func le(_ handle: UInt16) -> String {
        String(format: "%02X%02X", handle & 0xFF, handle >> 8)
    }

    @Test("readEncryptionRequired alone: readable once the link is encrypted, not Read Not Permitted")
    func readConditionAlone() throws {
        var (server, handles) = try Self.server()
        let value = Self.le(handles(Self.secret).value)
        #expect(server.answer("0A \(value)", security: Self.noKey) == hex("01 0A \(value) 05"), "no bond: Insufficient Authentication")
        #expect(server.answer("0A \(value)", security: Self.keyNotUsed) == hex("01 0A \(value) 0F"), "a key not used: Insufficient Encryption")
        #expect(server.answer("0A \(value)", security: Self.justWorks) == hex("0B AA"))
        #expect(server.answer("12 \(value) 01", security: Self.justWorks) == hex("01 12 \(value) 03"), "reading allows no writing")
    }

    @Test("writeEncryptionRequired alone: writable once the link is encrypted, not Write Not Permitted")
    func writeConditionAlone() throws {
        var (server, handles) = try Self.server()
        let value = Self.le(handles(Self.setting).value)
        #expect(server.answer("12 \(value) 07", security: Self.noKey) == hex("01 12 \(value) 05"))
        #expect(server.answer("12 \(value) 07", security: Self.justWorks) == hex("13"))
        #expect(server.value(at: handles(Self.setting).value) == [0x07])
        #expect(server.answer("0A \(value)", security: Self.justWorks) == hex("01 0A \(value) 02"), "writing allows no reading")
    }

    @Test("a subscription that needs encryption: the CCCD write answers 0x05 without a bond, 0x0F with an unused key, and succeeds encrypted; the value stays readable")
    func subscriptionNeedsEncryption() throws {
        var (server, handles) = try Self.server()
        let (valueHandle, configurationHandle) = handles(Self.feed)
        let value = Self.le(valueHandle)
        let configuration = Self.le(try #require(configurationHandle))
        #expect(server.answer("0A \(value)", security: Self.noKey) == hex("0B BB"), "reading needs nothing")
        #expect(server.answer("12 \(configuration) 0100", security: Self.noKey) == hex("01 12 \(configuration) 05"))
        #expect(server.answer("12 \(configuration) 0100", security: Self.keyNotUsed) == hex("01 12 \(configuration) 0F"))
        #expect(server.notifications(of: valueHandle).isEmpty, "not subscribed yet")
        #expect(server.answer("12 \(configuration) 0100", security: Self.justWorks) == hex("13"))
        #expect(server.answer("0A \(configuration)", security: Self.justWorks) == hex("0B 0100"))
        #expect(server.notifications(of: valueHandle).map(\.connection) == [0x0040], "subscribed")
    }

    @Test("a value that needs authentication to read needs it to subscribe: Just Works is not enough")
    func subscriptionNeedsWhatReadingNeeds() throws {
        var (server, handles) = try Self.server()
        let configuration = Self.le(try #require(handles(Self.guarded).configuration))
        #expect(server.answer("12 \(configuration) 0100", security: Self.justWorks) == hex("01 12 \(configuration) 05"))
        #expect(server.answer("12 \(configuration) 0100", security: Self.authenticated) == hex("13"))
    }

    @Test("the subscription permission of a definition sets only the CCCD's write conditions")
    func subscriptionPermissionsLaidOut() throws {
        let database = try Self.database()
        let characteristic = try #require(database.characteristics.first { $0.uuid == Self.feed })
        let configuration = try #require(database.attributes.first { $0.handle == characteristic.clientConfigurationHandle })
        #expect(configuration.permissions == [.readable, .writeable, .writeEncryptionRequired])
        #expect(GATTPermissions.readEncryptionRequired.allowsReading && !GATTPermissions.readEncryptionRequired.allowsWriting)
        #expect(!GATTPermissions([]).allowsReading && !GATTPermissions.writeable.allowsReading)
    }
}
