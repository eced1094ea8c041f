@testable import BLECommandLine
import BLEHost
import BLEServe
import BLEWire
import Foundation
import Testing

@Suite("ble gatt and ble serve pieces")
struct GATTCommandLineTests {
    @Test("Attributes are handles only with 0x; anything else must be a UUID")
    func targets() {
        guard case .handle(0x002A)? = GATTTarget(parsing: "0x002A") else { Issue.record("0x002A is a handle"); return }
        guard case let .uuid(uuid)? = GATTTarget(parsing: "2A19") else { Issue.record("2A19 is a UUID"); return }
        #expect(uuid == BluetoothUUID(0x2A19))
        #expect(GATTTarget(parsing: "0x0000") == nil)
        #expect(GATTTarget(parsing: "0x1FFFF") == nil)
        #expect(GATTTarget(parsing: "battery") == nil)
    }

    @Test("Hex values parse with or without 0x and separators, and odd or non-hex text is refused")
    func hexValues() {
        #expect(bytes(fromHex: "0102ff") == [0x01, 0x02, 0xFF])
        #expect(bytes(fromHex: "0x01:02 FF") == [0x01, 0x02, 0xFF])
        #expect(bytes(fromHex: "") == [])
        #expect(bytes(fromHex: "012") == nil)
        #expect(bytes(fromHex: "zz") == nil)
        #expect(hexText([0x00, 0xAB, 0x10]) == "00ab10")
    }

    @Test("ATT errors read as the spec names them with their code")
    func errorSentences() {
        #expect(GATTNames.describe(.writeNotPermitted) == "Write Not Permitted (0x03)")
        #expect(GATTNames.describe(.invalidOffset) == "Invalid Offset (0x07)")
        #expect(GATTNames.sentence(GATTClientError.att(.writeNotPermitted, handle: 0x10), doing: "writing handle 0x0010")
            == "The server answered Write Not Permitted (0x03) to writing handle 0x0010 (handle 0x0010).")
    }

    @Test("The served document lists GAP, GATT and the file's services with values, includes and per-client descriptors as a new client reads them")
    func servedDocument() throws {
        let served = try ServeFile.parse(yaml: """
            name: Doc
            services:
              - uuid: "180F"
                primary: false
                characteristics:
                  - uuid: "2A19"
                    properties: [read, notify]
                    value: {hex: "64"}
              - uuid: d7a30001-6c5a-4a7e-9b1e-5f0c2a9e0001
                includes: ["180F"]
                characteristics:
                  - uuid: d7a30002-6c5a-4a7e-9b1e-5f0c2a9e0001
                    properties: [read, write]
                  - uuid: d7a30003-6c5a-4a7e-9b1e-5f0c2a9e0001
                    properties: [write]
            """)
        let database = try GATTDatabase(services: served.services, configuration: .init(deviceName: "Doc"))
        let dynamic = try #require(database.valueHandle(of: BluetoothUUID("d7a30002-6c5a-4a7e-9b1e-5f0c2a9e0001")!))
        let document = GATTDocument(serving: database, address: "C0:5F:00:00:00:01", mtu: 517, dynamicValues: [dynamic: [1, 2]])
        #expect(document.services.map { GATTDocument.text($0.uuid) }
            == ["1800", "1801", "180F", "D7A30001-6C5A-4A7E-9B1E-5F0C2A9E0001"])
        #expect(document.services.map(\.isPrimary) == [true, true, false, true])
        let gap = document.services[0]
        #expect(gap.characteristics.first?.value == Array("Doc".utf8))
        let battery = document.services[2]
        #expect(battery.characteristics.first?.value == [0x64])
        #expect(battery.characteristics.first?.descriptors.map(\.value) == [[0, 0]])
        let test = document.services[3]
        #expect(test.includes.count == 1)
        #expect(test.includes.first?.uuid == BluetoothUUID(0x180F))
        #expect(test.includes.first?.startHandle == battery.startHandle)
        #expect(test.includes.first?.endHandle == battery.endHandle)
        #expect(test.characteristics.map(\.value) == [[1, 2], nil])
        let json = JSONText.object(document.jsonFields).rendered
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["mtu"] as? Int == 517)
        #expect((parsed["services"] as? [Any])?.count == 4)
        #expect(json.contains(#""value": "0102""#))
        #expect(json.contains(#""value": null"#))
    }
}
