@testable import BLEServe
import BLEHost
import BLEProfiles
import BLEWire
import Foundation
import Testing

@Suite("ble serve files")
struct ServeFileTests {
    @Test("The issue's example parses into one service with a stored value and a user description")
    func issueExample() throws {
        let file = try ServeFile.parse(yaml: """
            name: Thermometer
            advertise: [1809]
            services:
              - uuid: "1809"
                primary: true
                characteristics:
                  - uuid: "2A1C"
                    properties: [read, write, writeWithoutResponse, notify, indicate]
                    permissions: [readable, writeable]
                    value: {hex: "00FF"}
                    descriptors:
                      - uuid: "2901"
                        value: {utf8: "Temperature"}
            """)
        #expect(file.name == "Thermometer")
        #expect(file.advertise == [BluetoothUUID(0x1809)])
        #expect(file.services == [
            GATTServiceDefinition(uuid: 0x1809, characteristics: [
                GATTCharacteristicDefinition(uuid: 0x2A1C, properties: [.read, .write, .writeWithoutResponse, .notify, .indicate],
                                             permissions: .readWrite, value: .stored([0x00, 0xFF]), descriptors: [
                                                 GATTDescriptorDefinition(uuid: 0x2901, value: .stored(Array("Temperature".utf8))),
                                             ]),
            ]),
        ])
        #expect(file.profiles.isEmpty)
    }

    @Test("An omitted value is dynamic; omitted permissions follow the properties")
    func defaults() throws {
        let file = try ServeFile.parse(yaml: """
            services:
              - uuid: 12345678-1234-5678-1234-56789abcdef0
                primary: false
                characteristics:
                  - uuid: "2A37"
                    properties: [notify]
                  - uuid: 1234ABCD
                    properties: [read, writeWithoutResponse, reliableWrite]
                    maximumLength: 20
            """)
        #expect(file.name == nil && file.advertise.isEmpty)
        let service = try #require(file.services.first)
        #expect(service.uuid == BluetoothUUID("12345678-1234-5678-1234-56789ABCDEF0"))
        #expect(!service.isPrimary)
        #expect(service.characteristics[0].value == .dynamic && service.characteristics[0].permissions == [])
        #expect(service.characteristics[1].uuid == BluetoothUUID(uuid32: 0x1234_ABCD))
        #expect(service.characteristics[1].permissions == .readWrite)
        #expect(service.characteristics[1].extendedProperties == .reliableWrite)
        #expect(service.characteristics[1].maximumLength == 20)
    }

    @Test("profile entries expand to the standard service's default definition")
    func profiles() throws {
        let file = try ServeFile.parse(yaml: """
            advertise: [180D, 180F]
            services:
              - profile: heart-rate
              - uuid: "FFF0"
                includes: ["180F"]
              - profile: battery
            """)
        #expect(file.services.map(\.uuid) == [BluetoothUUID(0x180D), BluetoothUUID(0xFFF0), BluetoothUUID(0x180F)])
        #expect(file.services[0] == StandardService.heartRate.defaultDefinition)
        #expect(file.services[1].includes == [BluetoothUUID(0x180F)])
        #expect(file.profiles == [0: .heartRate, 2: .battery])
    }

    @Test("Errors name the file, line and field path", arguments: [
        ("services: []", "services", "at least one service"),
        ("name: x", "", "missing \"services\""),
        ("servics: []", "servics", "unknown key"),
        ("services:\n  - profile: thermometer", "services[0].profile", "not a standard service"),
        ("services:\n  - profile: battery\n    uuid: \"180F\"", "services[0].uuid", "unknown key"),
        ("services:\n  - primary: true", "services[0]", "missing \"uuid\""),
        ("services:\n  - uuid: \"18\"", "services[0].uuid", "not a UUID"),
        ("advertise: [1809, zz]\nservices:\n  - uuid: \"1809\"", "advertise[1]", "not a UUID"),
        ("services:\n  - uuid: \"1809\"\n    includes: [\"180F\"]", "services[0].includes[0]", "not another service"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read, reed]",
         "services[0].characteristics[0].properties[1]", "\"reed\" is not a property"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: []",
         "services[0].characteristics[0].properties", "at least one property"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read]\n        permissions: [readable, writable]",
         "services[0].characteristics[0].permissions[1]", "\"writable\" is not a permission"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read]\n        value: {hex: \"0F0\"}",
         "services[0].characteristics[0].value.hex", "not hex octets"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read]\n        value: {hex: \"00\", utf8: \"a\"}",
         "services[0].characteristics[0].value", "exactly one of hex or utf8"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read]\n        maximumLength: 1\n        value: {utf8: \"ab\"}",
         "services[0].characteristics[0].value", "longer than the maximum length"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read]\n        maximumLength: 513",
         "services[0].characteristics[0].maximumLength", "outside 0…512"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [notify]\n        descriptors:\n          - uuid: \"2902\"",
         "services[0].characteristics[0].descriptors[0]", "Client Characteristic Configuration"),
        ("services:\n  - uuid: \"1809\"\n    characteristics:\n      - uuid: \"2A1C\"\n        properties: [read]\n        descriptors:\n          - uuid: \"2901\"\n            vaule: {utf8: a}",
         "services[0].characteristics[0].descriptors[0].vaule", "unknown key"),
    ])
    func errors(yaml: String, path: String, message: String) {
        do {
            _ = try ServeFile.parse(yaml: yaml, file: "serve.yaml")
            Issue.record("expected an error about \(path)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.file == "serve.yaml")
            #expect(error.line != nil, "\(error)")
            #expect(error.description.hasPrefix("serve.yaml:"))
        }
    }

    @Test("Bad YAML and an empty file are reported with a clear message")
    func syntax() {
        #expect(throws: ServeFileError.self) { try ServeFile.parse(yaml: "services: [") }
        do {
            _ = try ServeFile.parse(yaml: "")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("empty"))
        }
    }

    @Test("The example and interop files in the repository parse")
    func repositoryFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let thermometer = try ServeFile.load(path: root.appendingPathComponent("Examples/serve/thermometer.yaml").path)
        #expect(thermometer.services.first?.uuid == BluetoothUUID(0x1809))
        #expect(thermometer.advertise.contains(BluetoothUUID(0x1809)))
        let interop = try ServeFile.load(path: root.appendingPathComponent("Interop/gatt-server.yaml").path)
        #expect(interop.services.count == 3)
        #expect(interop.services.flatMap(\.characteristics).count == 10)
        let longest = interop.services.flatMap(\.characteristics).compactMap { characteristic -> Int? in
            if case let .stored(bytes) = characteristic.value { return bytes.count }
            return nil
        }.max()
        #expect(longest == 512)
        let long = interop.services[1].characteristics[0]
        #expect(long.value == .stored((0 ..< 512).map { UInt8($0 % 256) }))
        #expect(interop.services[0].characteristics.allSatisfy { $0.properties == .read && $0.permissions == .readable })
        #expect(interop.services[1].characteristics[1].value == .dynamic)
        let descriptions = interop.services.flatMap(\.characteristics).flatMap(\.descriptors).filter { $0.uuid == BluetoothUUID(0x2901) }
        #expect(descriptions.count == 10)
    }
}
