import BLEWire
import Foundation
import Testing

/// What `ble snoop` shows of a packet: its name in words and its fields formatted for a
/// person, as `btmon -r` prints them (docs/STYLE "What people see").
@Suite("btsnoop packet descriptions")
struct PacketDescriptionTests {
    /// The two Bumble captures of the wire decoders' fixtures: a GATT server pairing with
    /// Secure Connections, and a client that scans, connects, pairs and discovers.
    static let captures = ["bumble-gatt-server-sc-pairing.btsnoop", "bumble-scan-gatt-client-sc-pairing.btsnoop"]

    static func packets(_ name: String) throws -> [BTSnoop.DecodedPacket] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent("Fixtures/\(name)")))
        return try BTSnoopPacketDecoderTests.lines(bytes)
    }

    /// The packet numbered `number` (from 1, as `btmon -r` numbers them) of the client capture:
    /// its summary, then its field lines without indentation.
    static func client(_ number: Int) throws -> (summary: String, fields: [String]) {
        let packet = try packets("bumble-scan-gatt-client-sc-pairing.btsnoop")[number - 1]
        #expect(packet.number == number)
        return (packet.summary, packet.fieldLines().map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test("No line of a real capture shows a Swift type, a slice or an optional", arguments: captures)
    func noSwiftDumps(_ name: String) throws {
        let forbidden = ["HCI.", "ATT.", "SMP.", "L2CAP.", "ArraySlice", "Optional(", "(reports:", "BLEWire."]
        for packet in try Self.packets(name) {
            for line in [packet.summary] + packet.fieldLines() {
                #expect(!forbidden.contains { line.contains($0) }, "packet \(packet.number): \(line)")
            }
        }
    }

    @Test("Every packet of a real capture has a name and HCI commands and events have their fields", arguments: captures)
    func everyPacketNamed(_ name: String) throws {
        let packets = try Self.packets(name)
        #expect(packets.allSatisfy { !$0.summary.isEmpty && !$0.isMalformed })
        #expect(packets.filter { $0.kind == "Event" }.allSatisfy { !$0.fields.isEmpty })
    }

    @Test("An LE Advertising Report shows the address with its type, the RSSI in dBm and the AD structures decoded")
    func advertisingReport() throws {
        let (summary, fields) = try Self.client(45)
        #expect(summary == "LE Advertising Report")
        #expect(fields == [
            "Num reports: 1",
            "Event type: Connectable undirected - ADV_IND (0x00)",
            "Address type: Random (0x01)",
            "Address: C0:6A:77:00:00:01 (Random)",
            "Data length: 33",
            "Flags: 0x06",
            "LE General Discoverable Mode",
            "BR/EDR Not Supported",
            "128-bit Service UUIDs (complete): 1 entry",
            "12345678-1234-5678-1234-56789abcdef0",
            "Name (complete): BumbleGATT",
            "RSSI: -50 dBm (0xce)",
        ])
    }

    @Test("LE Set Scan Parameters shows the scan type, interval and window in milliseconds and the policies by name")
    func setScanParameters() throws {
        let (summary, fields) = try Self.client(41)
        #expect(summary == "LE Set Scan Parameters")
        #expect(fields == [
            "Type: Active (0x01)", "Interval: 60 ms (0x0060)", "Window: 60 ms (0x0060)",
            "Own address type: Random (0x01)", "Filter policy: Accept all advertisement (0x00)",
        ])
    }

    @Test("An ATT Read By Group Type Request shows its handle range in hex and the group type by name")
    func readByGroupTypeRequest() throws {
        let (summary, fields) = try Self.client(127)
        #expect(summary == "ATT Read By Group Type Request")
        #expect(fields == ["Handle range: 0x0001-0xffff", "Attribute group type: Primary Service (0x2800)"])
    }

    @Test("An SMP Pairing Request shows IO capability, the authentication bits and key distribution by name")
    func pairingRequest() throws {
        let (summary, fields) = try Self.client(96)
        #expect(summary == "SMP Pairing Request")
        #expect(fields == [
            "IO capability: NoInputNoOutput (0x03)",
            "OOB data: Authentication data not present (0x00)",
            "Authentication requirement: Bonding, No MITM, SC, No Keypresses (0x09)",
            "Max encryption key size: 16",
            "Initiator key distribution: EncKey IdKey (0x03)",
            "Responder key distribution: EncKey IdKey (0x03)",
        ])
    }

    /// What `btmon -r` (BlueZ 5.66, Debian 12) printed for packets of
    /// `Tests/BLEWireTests/Fixtures/bumble-scan-gatt-client-sc-pairing.btsnoop`, field by field,
    /// beside ours where we spell it differently: `ours` is `nil` when the line is the same.
    /// We differ on purpose in: milliseconds written `60 ms` (btmon: `60.000 msec`), a random
    /// address's type `(Random)` (btmon names the subtype, `(Static)`), a 128-bit UUID written
    /// out (btmon: `Vendor specific`), the Error Response's request and the DHKey check's value
    /// named (btmon leaves the first unnamed and calls the second `E`), and the connection
    /// handle in hex (btmon: decimal).
    static let btmon: [(packet: Int, title: String, fields: [(btmon: String, ours: String?)])] = [
        (41, "LE Set Scan Parameters", [
            ("Type: Active (0x01)", nil),
            ("Interval: 60.000 msec (0x0060)", "Interval: 60 ms (0x0060)"),
            ("Window: 60.000 msec (0x0060)", "Window: 60 ms (0x0060)"),
            ("Own address type: Random (0x01)", nil),
            ("Filter policy: Accept all advertisement (0x00)", nil),
        ]),
        (43, "LE Set Scan Enable", [("Scanning: Enabled (0x01)", nil), ("Filter duplicates: Disabled (0x00)", nil)]),
        (44, "Command Complete (LE Set Scan Enable)", [("Status: Success (0x00)", nil)]),
        (45, "LE Advertising Report", [
            ("Num reports: 1", nil),
            ("Event type: Connectable undirected - ADV_IND (0x00)", nil),
            ("Address type: Random (0x01)", nil),
            ("Address: C0:6A:77:00:00:01 (Static)", "Address: C0:6A:77:00:00:01 (Random)"),
            ("Data length: 33", nil),
            ("Flags: 0x06", nil),
            ("LE General Discoverable Mode", nil),
            ("BR/EDR Not Supported", nil),
            ("128-bit Service UUIDs (complete): 1 entry", nil),
            ("Vendor specific", "12345678-1234-5678-1234-56789abcdef0"),
            ("Name (complete): BumbleGATT", nil),
            ("RSSI: -50 dBm (0xce)", nil),
        ]),
        (46, "LE Advertising Report", [
            ("Event type: Scan response - SCAN_RSP (0x04)", nil),
            ("Data length: 6", nil),
            ("16-bit Service UUIDs (complete): 2 entries", nil),
            ("Battery Service (0x180f)", nil),
            ("Device Information (0x180a)", nil),
            ("RSSI: -50 dBm (0xce)", nil),
        ]),
        (95, "LE Connection Complete", [
            ("Status: Success (0x00)", nil),
            ("Handle: 1", "Connection handle: 0x0001"),
            ("Role: Central (0x00)", nil),
            ("Peer address type: Random (0x01)", nil),
            ("Connection interval: 15.00 msec (0x000c)", "Connection interval: 15 ms (0x000c)"),
            ("Supervision timeout: 720 msec (0x0048)", "Supervision timeout: 720 ms (0x0048)"),
        ]),
        (96, "SMP Pairing Request", [
            ("IO capability: NoInputNoOutput (0x03)", nil),
            ("OOB data: Authentication data not present (0x00)", nil),
            ("Authentication requirement: Bonding, No MITM, SC, No Keypresses (0x09)", nil),
            ("Max encryption key size: 16", nil),
            ("Initiator key distribution: EncKey IdKey (0x03)", nil),
            ("Responder key distribution: EncKey IdKey (0x03)", nil),
        ]),
        (103, "SMP Pairing Public Key", [
            ("X: 610557c7c751682bb4ccf1c63b3ed3079e3be34d7f2038daebc1d7f79fc9b68b", nil),
            ("Y: fc2f1936097cb1874543a37f21a39ec9a7bf7205c3c8d00a9386c58dc03ab3a7", nil),
        ]),
        (109, "SMP Pairing Random", [("Random value: f2d9f0af400333e04b271364c8af8417", nil)]),
        (112, "SMP Pairing DHKey Check", [("E: 582bd6fc53403187d53607bf5ed04da9", "Check value: 582bd6fc53403187d53607bf5ed04da9")]),
        (115, "LE Enable Encryption", [
            ("Random number: 0x0000000000000000", nil),
            ("Encrypted diversifier: 0x0000", nil),
            ("Long term key: 174722243466d8019ac58acf81f81389", nil),
        ]),
        (124, "ATT Exchange MTU Request", [("Client RX MTU: 517", nil)]),
        (127, "ATT Read By Group Type Request", [
            ("Handle range: 0x0001-0xffff", nil),
            ("Attribute group type: Primary Service (0x2800)", nil),
        ]),
        (130, "ATT Read By Group Type Response", [
            ("Attribute group list: 4 entries", nil),
            ("Handle range: 0x0001-0x0005", nil),
            ("UUID: Generic Access Profile (0x1800)", nil),
            ("Handle range: 0x0012-0x0016", nil),
            ("UUID: Device Information (0x180a)", nil),
        ]),
        (136, "ATT Error Response", [
            ("Read By Group Type Request (0x10)", "Request: Read By Group Type Request (0x10)"),
            ("Handle: 0x001f", nil),
            ("Error: Attribute Not Found (0x0a)", nil),
        ]),
    ]

    @Test("Packets show the fields btmon -r shows for them, with the same values")
    func sameFieldsAsBtmon() throws {
        let packets = try Self.packets("bumble-scan-gatt-client-sc-pairing.btsnoop")
        for (number, title, fields) in Self.btmon {
            let packet = packets[number - 1]
            #expect(packet.summary == title, "packet \(number)")
            let lines = packet.fieldLines().map { $0.trimmingCharacters(in: .whitespaces) }
            for (btmon, ours) in fields {
                #expect(lines.contains(ours ?? btmon), "packet \(number): btmon prints \"\(btmon)\"; we print \(lines)")
            }
        }
    }

    @Test("AD structures: flags, names, UUID lists, TX power, service data, manufacturer data, an iBeacon and unknown types")
    func advertisingData() throws {
        let structures: [String] = [
            "020106",  // Flags: LE General Discoverable, BR/EDR Not Supported
            "0302aafe",  // an incomplete list of 16-bit UUIDs: 0xFEAA
            "0708426561636f6e",  // Shortened Local Name "Beacon"
            "020af4",  // TX Power Level -12
            "0516aafe1020",  // Service Data for 0xFEAA
            "1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5",  // Apple iBeacon, major 1, minor 2, -59 dBm
            "04ff590001",  // Nordic
            "03ee0102",  // an AD type no one assigned
        ]
        let data = try #require(Hex.decode(structures.joined()))
        let lines = BTSnoop.PacketDescription("Data", BTSnoop.PacketDescription.advertisingData(data)).fieldLines()
        #expect(lines == [
            "Flags: 0x06",
            "  LE General Discoverable Mode",
            "  BR/EDR Not Supported",
            "16-bit Service UUIDs (partial): 1 entry",
            "  Eddystone (0xfeaa)",
            "Name (short): Beacon",
            "TX power: -12 dBm",
            "Service Data: Eddystone (0xfeaa)",
            "  Data: 1020",
            "Manufacturer Specific Data: Apple, Inc. (0x004c)",
            "  Type: iBeacon (0x02)",
            "  UUID: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
            "  Major: 1 (0x0001)",
            "  Minor: 2 (0x0002)",
            "  Measured power: -59 dBm",
            "Manufacturer Specific Data: Nordic Semiconductor ASA (0x0059)",
            "  Data: 01",
            "Unknown AD type: (0xee) 0102",
        ])
    }

    @Test("AD structures that run past the data or leave it short are shown, never trapped on")
    func malformedAdvertisingData() {
        let fields = BTSnoop.PacketDescription.advertisingData([0x02, 0x01, 0x06, 0x09, 0x09, 0x41])
        #expect(fields.map(\.text) == ["Flags: 0x06", "Malformed AD structure: length 9 with 2 octets left: 090941"])
        for length in 0 ..< 40 {
            var generator = SystemRandomNumberGenerator()
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            _ = BTSnoop.PacketDescription.advertisingData(bytes)
        }
    }

    @Test("Names in camelCase read as words, acronyms kept in capitals")
    func words() {
        #expect(BTSnoop.PacketDescription.words("LEAdvertisingReport") == "LE Advertising Report")
        #expect(BTSnoop.PacketDescription.words("exchangeMTURequest") == "Exchange MTU Request")
        #expect(BTSnoop.PacketDescription.words("numberOfCompletedPackets") == "Number of Completed Packets")
        #expect(BTSnoop.PacketDescription.words("leCreditBasedConnectionRequest") == "LE Credit Based Connection Request")
        #expect(BTSnoop.PacketDescription.words("pairingDHKeyCheck") == "Pairing DHKey Check")
        #expect(BTSnoop.PacketDescription.fieldName("peerAddressType") == "Peer address type")
        #expect(BTSnoop.PacketDescription.fieldName("clientRxMTU") == "Client RX MTU")
    }
}
