import BLEHost
import BLEWire

/// The fixed database every server test speaks to. Handles (MTU 23 unless a test
/// exchanges another):
///
/// ```
///  1 «Primary Service» 1800          14 «Primary Service» 180D           24 «Primary Service» U0
///  2 «Characteristic» 02 0003 2A00   15 «Include» 002C 002F 180F         25 «Characteristic» BE 001A U1
///  3 2A00 "SwiftBLE"                 16 «Characteristic» 10 0011 2A37    26 U1 00…63 (100 octets), read/write
///  4 «Characteristic» 02 0005 2A01   17 2A37 06 48, no permissions       27 CCCD
///  5 2A01 0000                       18 CCCD                             28 Extended Properties 0001
///  6 «Primary Service» 1801          19 «Characteristic» 02 0014 2A38    29 «Characteristic» 02 001E U2
///  7 «Characteristic» 20 0008 2A05   20 2A38 01                          30 U2 dynamic, readable
///  8 2A05 (no permissions)           21 User Description "Location"      31 «Characteristic» 02 0020 2A6E
///  9 CCCD                            22 «Characteristic» 08 0017 2A39    32 2A6E 100E, encryption, key ≥ 16
/// 10 «Characteristic» 0A 000B 2B29   23 2A39 (empty), writeable, max 1   33 «Characteristic» 08 0022 2A6F
/// 11 2B29 Client Supported Features                                      34 2A6F 00, write needs authentication
/// 12 «Characteristic» 02 000D 2B2A   44 «Secondary Service» 180F         35 «Characteristic» 02 0024 2A70
/// 13 2B2A Database Hash              45 «Characteristic» 12 002E 2A19    36 2A70 11, read needs authorization
///                                    46 2A19 64                          37 «Characteristic» 48 0026 2A71
///                                    47 CCCD                             38 2A71 00, writeable (signed writes)
///                                                                        39 «Characteristic» 03 0028 2A72
///                                                                        40 2A72 05
///                                                                        41 Server Characteristic Configuration
///                                                                        42 «Characteristic» 0A 002B U3
///                                                                        43 U3 dynamic, read/write
/// ```
enum GATTFixture {
    static let u0 = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF0)
    static let u1 = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF1)
    static let u2 = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF2)
    static let u3 = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF3)
    /// U0…U3 little-endian, as on the air.
    static let u0Octets = "F0DEBC9A785634127856341278563412"
    static let u1Octets = "F1DEBC9A785634127856341278563412"

    /// The long value at handle 26: 0, 1, …, 99.
    static let longValue = (0 ..< 100).map { UInt8($0) }

    static let services: [GATTServiceDefinition] = [
        GATTServiceDefinition(uuid: 0x180D, includes: [0x180F], characteristics: [
            GATTCharacteristicDefinition(uuid: 0x2A37, properties: .notify, permissions: [], value: .stored([0x06, 0x48])),
            GATTCharacteristicDefinition(uuid: 0x2A38, properties: .read, value: .stored([0x01]), descriptors: [
                GATTDescriptorDefinition(uuid: 0x2901, value: .stored(Array("Location".utf8))),
            ]),
            GATTCharacteristicDefinition(uuid: 0x2A39, properties: .write, permissions: .writeable, value: .stored([]),
                                         maximumLength: 1),
        ]),
        GATTServiceDefinition(uuid: u0, characteristics: [
            GATTCharacteristicDefinition(uuid: u1, properties: [.read, .writeWithoutResponse, .write, .notify, .indicate],
                                         extendedProperties: .reliableWrite, permissions: .readWrite, value: .stored(longValue)),
            GATTCharacteristicDefinition(uuid: u2, properties: .read, value: .dynamic),
            GATTCharacteristicDefinition(uuid: 0x2A6E, properties: .read, permissions: [.readable, .readEncryptionRequired],
                                         value: .stored([0x10, 0x0E]), minimumKeySize: 16),
            GATTCharacteristicDefinition(uuid: 0x2A6F, properties: .write, permissions: [.writeable, .writeAuthenticationRequired],
                                         value: .stored([0x00])),
            GATTCharacteristicDefinition(uuid: 0x2A70, properties: .read, permissions: [.readable, .readAuthorizationRequired],
                                         value: .stored([0x11])),
            GATTCharacteristicDefinition(uuid: 0x2A71, properties: [.write, .authenticatedSignedWrites], permissions: .writeable,
                                         value: .stored([0x00])),
            GATTCharacteristicDefinition(uuid: 0x2A72, properties: [.broadcast, .read], value: .stored([0x05])),
            GATTCharacteristicDefinition(uuid: u3, properties: [.read, .write], permissions: .readWrite, value: .dynamic),
        ]),
        GATTServiceDefinition(uuid: 0x180F, isPrimary: false, characteristics: [
            GATTCharacteristicDefinition(uuid: 0x2A19, properties: [.read, .notify], value: .stored([0x64])),
        ]),
    ]

    static func server(_ configuration: GATTServer.Configuration = GATTServer.Configuration()) throws -> GATTServer {
        GATTServer(database: try GATTDatabase(services: services), configuration: configuration)
    }
}

/// Octets from hex text; spaces are ignored.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0 ... $0 + 1]), radix: 16) }
}

extension GATTServer {
    /// The one PDU the server sends back for `request`, or `nil` when it sends none.
    mutating func answer(_ request: String, from connection: UInt16 = 0x0040,
                         security: LinkSecurity = .unencrypted) -> [UInt8]? {
        let outputs = handle(hex(request), from: connection, security: security)
        return outputs.sentPDUs.first
    }
}

extension [GATTServerOutput] {
    /// The PDUs sent, in order.
    var sentPDUs: [[UInt8]] {
        compactMap { if case let .send(_, pdu) = $0 { return pdu } else { return nil } }
    }

    /// The app reads asked for.
    var appReads: [GATTAppRequest] {
        compactMap { if case let .appRead(request) = $0 { return request } else { return nil } }
    }

    /// The app writes asked for.
    var appWrites: [GATTAppRequest] {
        compactMap { if case let .appWrite(request) = $0 { return request } else { return nil } }
    }
}
