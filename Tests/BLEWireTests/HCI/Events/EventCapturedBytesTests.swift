import BLEWire
import Testing

/// Test-local stand-ins for commands the commands slice defines, so Command Complete's
/// typed return parameters can be checked here without depending on it.
private struct TestReadLocalVersionInformation: HCICommand {
    static let opcode = HCI.Opcode(ogf: 0x04, ocf: 0x0001)

    struct ReturnParameters: WireCodable, Hashable {
        var status: HCI.StatusCode
        var hciVersion: UInt8
        var hciSubversion: UInt16
        var lmpVersion: UInt8
        var companyIdentifier: UInt16
        var lmpSubversion: UInt16

        init(from reader: inout ByteReader) throws(WireError) {
            status = try HCI.StatusCode(from: &reader, field: "status")
            hciVersion = try reader.readUInt8("hciVersion")
            hciSubversion = try reader.readUInt16("hciSubversion")
            lmpVersion = try reader.readUInt8("lmpVersion")
            companyIdentifier = try reader.readUInt16("companyIdentifier")
            lmpSubversion = try reader.readUInt16("lmpSubversion")
        }

        func encode(to writer: inout ByteWriter) {}
    }

    init() {}
    init(from reader: inout ByteReader) throws(WireError) {}
    func encode(to writer: inout ByteWriter) {}
}

private struct TestReset: HCICommand {
    static let opcode = HCI.Opcode(ogf: 0x03, ocf: 0x0003)
    init() {}
    init(from reader: inout ByteReader) throws(WireError) {}
    func encode(to writer: inout ByteWriter) {}
}

/// The event packet inside H4 bytes as captured (type octet 0x04 first).
func capturedEvent(_ hex: String) throws -> HCI.EventPacket {
    let bytes = try #require(Hex.decode(hex))
    guard case let .event(packet) = try H4.Packet(decoding: bytes) else {
        Issue.record("not an event: \(hex)")
        return HCI.EventPacket(eventCode: .vendorSpecific)
    }
    return packet
}

/// Real H4 bytes from a Bumble 0.0.236 virtual controller, /work/shared/interop/NOTES.md §5.2.
enum Captured {
    static let resetComplete = "040e0401030c00"
    static let readLocalVersionComplete = "040e0c0101100009000009ffff0000"
    static let readBDADDRComplete = "040e0a010910000300000000f0"
    static let leReadBufferSizeComplete = "040e07010220001b0040"
    static let disconnectionComplete = "04050400010016"
    static let scanResponseReport = "043e1b0201040101000000adc00f0b0942756d626c6550656572020a00ce"
    /// ADV_IND report: NOTES.md gives `043e2b0201000101000000adc01f02010603030f1811…0102ce`; the
    /// elided middle is the advertiser's 31-octet AD data, which peer.py's `advertise` role
    /// defines (Flags 06, UUID16 180F, UUID128 12345678-…-56789ABCDEF0, Manufacturer FFFF 01 02).
    static let advIndReport = "043e2b0201000101000000adc01f" + "020106" + "03030f18"
        + "1107f0debc9a785634127856341278563412" + "05ffffff0102" + "ce"
    /// Stock Bumble's extended report for the same advertiser (NOTES.md §3.4 prefix
    /// `043e390d0101000101000000adc001010000ce00…`, completed with the 31 AD octets above and
    /// the zero periodic interval and direct address the prefix's length implies).
    static let extendedReport = "043e390d01" + "0100" + "01" + "01000000adc0" + "01" + "01" + "00" + "00" + "ce"
        + "0000" + "00" + "000000000000" + "1f" + "020106" + "03030f18"
        + "1107f0debc9a785634127856341278563412" + "05ffffff0102"
}

@Suite("HCI events from captured bytes")
struct EventCapturedBytesTests {
    @Test("Command Complete for Read Local Version Information decodes typed return parameters")
    func readLocalVersion() throws {
        let packet = try capturedEvent(Captured.readLocalVersionComplete)
        guard case let .commandComplete(event) = try HCI.Event(decoding: packet) else {
            Issue.record("expected Command Complete")
            return
        }
        #expect(event.numHCICommandPackets == 1)
        #expect(event.opcode == HCI.Opcode(rawValue: 0x1001))
        #expect(!event.isCreditsOnly)
        let version = try event.returnParameters(for: TestReadLocalVersionInformation.self)
        #expect(version.status == .success)
        #expect(version.hciVersion == 9)
        #expect(version.lmpVersion == 9)
        #expect(version.companyIdentifier == 0xFFFF)
        #expect(version.lmpSubversion == 0)
        #expect(throws: WireError(field: "HCI.CommandComplete.opcode", reason: .invalidValue(0x1001))) {
            try event.returnParameters(for: TestReset.self)
        }
        #expect(HCI.Event.commandComplete(event).encoded() == Array(try #require(Hex.decode(Captured.readLocalVersionComplete)).dropFirst()))
    }

    @Test("Command Complete for Reset carries only a status")
    func resetComplete() throws {
        let event = try capturedEvent(Captured.resetComplete).decode(as: HCI.CommandComplete.self)
        #expect(event.opcode == TestReset.opcode)
        #expect(try event.returnParameters(for: TestReset.self) == HCI.StatusReturnParameters(status: .success))
    }

    @Test("Command Complete for Read BD_ADDR returns F0:00:00:00:00:03")
    func readBDADDR() throws {
        let event = try capturedEvent(Captured.readBDADDRComplete).decode(as: HCI.CommandComplete.self)
        #expect(event.opcode == HCI.Opcode(ogf: 0x04, ocf: 0x0009))
        var reader = ByteReader(event.returnParameters)
        #expect(try reader.readUInt8("status") == 0)
        let address = try BluetoothAddress(from: &reader, kind: .public, field: "address")
        #expect(address.description == "F0:00:00:00:00:03")
        #expect(reader.isAtEnd)
    }

    @Test("Command Complete for LE Read Buffer Size: 27-octet buffers, 64 of them")
    func leReadBufferSize() throws {
        let event = try capturedEvent(Captured.leReadBufferSizeComplete).decode(as: HCI.CommandComplete.self)
        #expect(event.opcode == HCI.Opcode(ogf: 0x08, ocf: 0x0002))
        #expect(Array(event.returnParameters) == [0x00, 0x1B, 0x00, 0x40])
    }

    @Test("Disconnection Complete: handle 1, Connection Terminated By Local Host")
    func disconnectionComplete() throws {
        let packet = try capturedEvent(Captured.disconnectionComplete)
        let expected = HCI.DisconnectionComplete(status: .success, connectionHandle: 0x0001, reason: .connectionTerminatedByLocalHost)
        #expect(try HCI.Event(decoding: packet) == .disconnectionComplete(expected))
        #expect(try HCI.EventPacket(expected) == packet)
    }

    @Test("LE Advertising Report: ADV_IND from C0:AD:00:00:00:01 at -50 dBm")
    func advIndReport() throws {
        let packet = try capturedEvent(Captured.advIndReport)
        guard case let .leMeta(.advertisingReport(event)) = try HCI.Event(decoding: packet) else {
            Issue.record("expected an LE Advertising Report")
            return
        }
        let report = try #require(event.reports.first)
        #expect(event.reports.count == 1)
        #expect(report.eventType == .advInd)
        #expect(report.addressType == .random)
        #expect(report.address == BluetoothAddress("C0:AD:00:00:00:01", kind: .random))
        #expect(report.data.count == 31)
        #expect(Array(report.data.prefix(3)) == [0x02, 0x01, 0x06])
        #expect(report.rssi == -50)
        #expect(report.availableRSSI == -50)
        #expect(try HCI.EventPacket(leMeta: event) == packet)
    }

    @Test("LE Advertising Report: SCAN_RSP carrying the name BumblePeer")
    func scanResponseReport() throws {
        let packet = try capturedEvent(Captured.scanResponseReport)
        let event = try packet.decode(asLEMeta: HCI.LEAdvertisingReport.self)
        let report = try #require(event.reports.first)
        #expect(report.eventType == .scanRsp)
        #expect(report.address.description == "C0:AD:00:00:00:01")
        #expect(Array(report.data) == [0x0B, 0x09] + Array("BumblePeer".utf8) + [0x02, 0x0A, 0x00])
        #expect(report.rssi == -50)
        #expect(try HCI.EventPacket(leMeta: event).encoded() == Array(try #require(Hex.decode(Captured.scanResponseReport)).dropFirst()))
    }

    @Test("LE Extended Advertising Report from stock Bumble: connectable, non-legacy, 1M/1M")
    func extendedReport() throws {
        let packet = try capturedEvent(Captured.extendedReport)
        let event = try packet.decode(asLEMeta: HCI.LEExtendedAdvertisingReport.self)
        let report = try #require(event.reports.first)
        #expect(report.eventType.rawValue == 0x0001)
        #expect(report.eventType.isConnectable && !report.eventType.isLegacy && !report.eventType.isScannable)
        #expect(report.eventType.dataStatus == .complete)
        #expect(report.address == BluetoothAddress("C0:AD:00:00:00:01", kind: .random))
        #expect(report.primaryPHY == .le1M)
        #expect(report.secondaryPHY == .le1M)
        #expect(report.advertisingSID == 0)
        #expect(report.txPower == 0)
        #expect(report.rssi == -50)
        #expect(report.periodicAdvertisingInterval == 0)
        #expect(report.data.count == 31)
        #expect(try HCI.EventPacket(leMeta: event) == packet)
    }

    @Test("Extended report event types seen from the patched controller name their flags")
    func extendedEventTypes() {
        let advInd = HCI.LEExtendedAdvertisingReport.EventType(rawValue: 0x0013)
        #expect(advInd.isConnectable && advInd.isScannable && advInd.isLegacy && !advInd.isScanResponse)
        let scanResponse = HCI.LEExtendedAdvertisingReport.EventType(rawValue: 0x001B)
        #expect(scanResponse.isScanResponse && scanResponse.isLegacy && !scanResponse.isDirected)
        #expect(HCI.LEExtendedAdvertisingReport.EventType(connectable: true, scannable: true, scanResponse: true, legacy: true) == scanResponse)
        #expect(HCI.LEExtendedAdvertisingReport.EventType(dataStatus: .incompleteTruncated).rawValue == 0x0040)
        #expect(HCI.LEExtendedAdvertisingReport.EventType(rawValue: 0x0060).dataStatus == nil)
    }

    @Test("Every captured event survives the malformed-input sweep, typed and through HCI.Event")
    func capturedMalformed() throws {
        let all = [
            Captured.resetComplete, Captured.readLocalVersionComplete, Captured.readBDADDRComplete,
            Captured.leReadBufferSizeComplete, Captured.disconnectionComplete, Captured.scanResponseReport,
            Captured.advIndReport, Captured.extendedReport,
        ]
        for hex in all {
            let wire = Array(try #require(Hex.decode(hex)).dropFirst())
            let rejected = MalformedInput.check(wire, as: HCI.Event.self)
            #expect(rejected >= wire.count, "every truncation of \(hex) must be rejected")
            MalformedInput.check(wire, as: HCI.EventPacket.self)
            #expect(throws: WireError.self) { try HCI.Event(decoding: Array(wire.dropLast())) }
        }
        let report = try capturedEvent(Captured.advIndReport)
        EventChecks.sweep(Array(report.parameters.dropFirst()), as: HCI.LEAdvertisingReport.self)
        let extended = try capturedEvent(Captured.extendedReport)
        EventChecks.sweep(Array(extended.parameters.dropFirst()), as: HCI.LEExtendedAdvertisingReport.self)
        EventChecks.sweep(Array(try capturedEvent(Captured.disconnectionComplete).parameters), as: HCI.DisconnectionComplete.self)
    }
}
