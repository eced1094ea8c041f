import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Signed Write Command")
struct GATTServerSignedWriteTests {
    /// A database whose handle 0x0012 is a characteristic value allowing signed writes,
    /// to match BlueZ's published signing vector (unit/test-crypto.c, sign_att_5): the PDU
    /// D2 1200 1337 signed with counter 1 under CSRK 611B64EB…DF425E50.
    static func server() throws -> GATTServer {
        var characteristics = [GATTCharacteristicDefinition(uuid: 0x2A00, properties: .read, value: .stored([0]), descriptors: [
            GATTDescriptorDefinition(uuid: 0x2901, value: .stored([0])),
        ])]
        for uuid: UInt16 in 0x2A01 ... 0x2A06 {
            characteristics.append(GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid), properties: .read, value: .stored([0])))
        }
        characteristics.append(GATTCharacteristicDefinition(uuid: 0x2A71, properties: [.write, .authenticatedSignedWrites],
                                                            permissions: .writeable, value: .stored([0])))
        let database = try GATTDatabase(services: [GATTServiceDefinition(uuid: 0xAAAA, characteristics: characteristics)],
                                        configuration: GATTDatabase.Configuration(includesStandardServices: false))
        return GATTServer(database: database)
    }

    static let csrk: UInt128 = 0x611B_64EB_FBCD_1FD3_72EC_9196_DF42_5E50
    static let signed = hex("D2 1200 1337 01000000 F1871E933C900FF2")

    @Test("A correctly signed write is applied and never answered")
    func valid() throws {
        var server = try Self.server()
        #expect(server.database.characteristic(valueHandle: 0x12)?.uuid == BluetoothUUID(0x2A71))
        server.setSigningKey(Self.csrk, counter: 1, for: 0x40)
        let outputs = server.handle(Self.signed, from: 0x40, security: .unencrypted)
        #expect(outputs == [.valueWritten(connection: 0x40, handle: 0x12, value: [0x13, 0x37])])
        #expect(server.clientRecord(for: 0x40)?.signing?.nextCounter == 2)
    }

    @Test("Without a signing key a signed write is ignored")
    func noKey() throws {
        var server = try Self.server()
        #expect(server.handle(Self.signed, from: 0x40, security: .unencrypted) == [])
        #expect(server.value(at: 0x12) == [0])
    }

    @Test("A wrong MAC, a replayed counter or another client's key is ignored")
    func rejected() throws {
        var server = try Self.server()
        server.setSigningKey(Self.csrk, counter: 0, for: 0x40)
        var forged = Self.signed
        forged[forged.count - 1] ^= 0x01
        #expect(server.handle(forged, from: 0x40, security: .unencrypted) == [])
        #expect(server.handle(Self.signed, from: 0x41, security: .unencrypted) == [])
        #expect(server.handle(Self.signed, from: 0x40, security: .unencrypted).count == 1)
        server.setValue([0], for: 0x12)
        #expect(server.handle(Self.signed, from: 0x40, security: .unencrypted) == [])
        #expect(server.value(at: 0x12) == [0])
        server.setSigningKey(Self.csrk, counter: 2, for: 0x41)
        #expect(server.handle(Self.signed, from: 0x41, security: .unencrypted) == [])
    }

    @Test("A signed write with a bad signature or none at all is ignored")
    func malformed() throws {
        var server = try GATTFixture.server()
        server.setSigningKey(Self.csrk, counter: 0, for: 0x40)
        let pdu = hex("D2 1A00 01 00000000 0000000000000000")
        #expect(server.handle(pdu, from: 0x40, security: .unencrypted) == [])
        #expect(server.handle(hex("D2 1A00 0102"), from: 0x40, security: .unencrypted) == [])
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
    }
}
