import BLEWire
import Testing

@Suite("HCI event framing and typed decoding")
struct EventDecodingBehaviourTests {
    @Test("A vendor event is kept whole as unknown, not rejected")
    func vendorEventIsUnknown() throws {
        let wire: [UInt8] = [0xFF, 0x03, 0x01, 0x02, 0x03]
        let event = try HCI.Event(decoding: wire)
        #expect(event == .unknown(HCI.EventPacket(eventCode: .vendorSpecific, parameters: [0x01, 0x02, 0x03])))
        #expect(event.eventCode == .vendorSpecific)
        #expect(event.encoded() == wire)
    }

    @Test("An LE subevent we do not model is kept as unknownLEMeta with its parameters")
    func unknownSubevent() throws {
        // 0x15 LE Connectionless IQ Report, parameters shortened: not modelled here.
        let wire: [UInt8] = [0x3E, 0x04, 0x15, 0xAA, 0xBB, 0xCC]
        let event = try HCI.Event(decoding: wire)
        #expect(event == .unknownLEMeta(subevent: HCI.LESubeventCode(rawValue: 0x15), parameters: [0xAA, 0xBB, 0xCC]))
        #expect(event.eventCode == .leMeta)
        #expect(event.encoded() == wire)
        #expect(throws: WireError(field: "HCI.LEMetaEvent.subeventCode", reason: .unknownCode(0x15))) {
            try HCI.LEMetaEvent(decoding: [0x15, 0xAA])
        }
    }

    @Test("An LE Meta event without a subevent code is malformed")
    func emptyLEMeta() {
        #expect(throws: WireError(field: "HCI.LEMetaEvent.subeventCode", reason: .truncated(needed: 1, available: 0))) {
            try HCI.Event(decoding: [0x3E, 0x00])
        }
    }

    @Test("An advertising report with more than 31 octets of data is kept, not dropped")
    func overlongLegacyReport() throws {
        // Bumble 0.0.236 reports the 33 octets its GATT server set (flags, a 128-bit UUID
        // list and the name "BumbleGATT"), captured in Fixtures/bumble-scan-gatt-client-sc-pairing.btsnoop.
        let bytes = try #require(Hex.decode(
            "3e2d020100010100 00776ac021020106110 7f0debc9a785634127856341278563412 0b0942756d626c6547415454ce"))
        guard case let .leMeta(.advertisingReport(event)) = try HCI.Event(decoding: bytes) else {
            Issue.record("not an advertising report")
            return
        }
        #expect(event.reports.count == 1)
        #expect(event.reports.first?.data.count == 33)
        #expect(try AdvertisingData(decoding: event.reports[0].data).localName == "BumbleGATT")
        #expect(HCI.Event.leMeta(.advertisingReport(event)).encoded() == bytes)
    }

    @Test("A known event with malformed parameters throws naming the field")
    func malformedKnownEvent() {
        // Disconnection Complete with handle 0x0F00 (reserved range).
        #expect(throws: WireError(field: "HCI.DisconnectionComplete.connectionHandle", reason: .invalidValue(0x0F00))) {
            try HCI.Event(decoding: [0x05, 0x04, 0x00, 0x00, 0x0F, 0x13])
        }
        // Disconnection Complete one octet short.
        #expect(throws: WireError.self) { try HCI.Event(decoding: [0x05, 0x03, 0x00, 0x01, 0x00]) }
        // Advertising report claiming 40 octets of data but carrying 32.
        var report: [UInt8] = [0x3E, 0x2C, 0x02, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 40]
        report += [UInt8](repeating: 0, count: 32) + [0xCE]
        #expect(throws: WireError.self) { try HCI.Event(decoding: report) }
        // Encryption Change with the reserved Encryption_Enabled value 0x03.
        #expect(throws: WireError(field: "HCI.EncryptionChange.encryptionEnabled", reason: .invalidValue(3))) {
            try HCI.Event(decoding: [0x08, 0x04, 0x00, 0x01, 0x00, 0x03])
        }
        // Extended report with the reserved data status 0b11.
        #expect(throws: WireError(field: "HCI.LEExtendedAdvertisingReport.eventType", reason: .invalidValue(0x60))) {
            try HCI.LEExtendedAdvertisingReport(decoding: [0x01, 0x60, 0x00] + [UInt8](repeating: 0, count: 22))
        }
    }

    @Test("The event packet's declared length must match the octets present")
    func declaredLength() {
        #expect(throws: WireError(field: "HCI.EventPacket.parameters", reason: .lengthMismatch(declared: 4, actual: 3))) {
            try HCI.EventPacket(decoding: [0x05, 0x04, 0x00, 0x01, 0x00])
        }
        let trailing = #expect(throws: WireError.self) { try HCI.EventPacket(decoding: [0x10, 0x01, 0x00, 0xFF]) }
        #expect(trailing?.reason == .trailingBytes(1))
        #expect(throws: WireError.self) { try HCI.EventPacket(decoding: [0x10]) }
    }

    @Test("Typed events over 255 octets of parameters are refused")
    func oversizedParameters() {
        let big = HCI.CommandComplete(numHCICommandPackets: 1, opcode: HCI.Opcode(rawValue: 0x1001), returnParameters: ArraySlice(repeating: 0, count: 253))
        #expect(throws: WireError.self) { try HCI.EventPacket(big) }
        let fits = HCI.CommandComplete(numHCICommandPackets: 1, opcode: HCI.Opcode(rawValue: 0x1001), returnParameters: ArraySlice(repeating: 0, count: 252))
        #expect(throws: Never.self) { try HCI.EventPacket(fits) }
        // A hand-built event that is too long encodes with a true length (cut at 255).
        let wire = HCI.Event.commandComplete(big).encoded()
        #expect(wire.count == 257)
        #expect(wire[1] == 255)
        let reports = (0 ..< 7).map { index in
            HCI.LEAdvertisingReport.Report(eventType: .advInd, addressType: .public, address: BluetoothAddress(UInt64(index)),
                                           data: ArraySlice(repeating: 0xAB, count: 31), rssi: -40)
        }
        #expect(throws: WireError.self) { try HCI.EventPacket(leMeta: HCI.LEAdvertisingReport(reports: reports)) }
    }

    @Test("Command Complete with opcode 0x0000 only returns credits")
    func creditsOnly() throws {
        let event = try HCI.CommandComplete(decoding: [0x05, 0x00, 0x00])
        #expect(event.isCreditsOnly)
        #expect(event.numHCICommandPackets == 5)
        #expect(event.returnParameters.isEmpty)
        #expect(throws: WireError.self) { try HCI.CommandComplete(decoding: [0x05, 0x00]) }
    }

    @Test("Command Status decodes status, credits and opcode in that order")
    func commandStatus() throws {
        // LE Create Connection (0x200D) pending, one credit.
        let event = try HCI.Event(decoding: [0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20])
        #expect(event == .commandStatus(HCI.CommandStatus(status: .success, numHCICommandPackets: 1, opcode: HCI.Opcode(ogf: 0x08, ocf: 0x000D))))
    }

    @Test("Number Of Completed Packets interleaves handle and count per entry")
    func numberOfCompletedPacketsLayout() throws {
        // Two entries: handle 0x0001 completed 3, handle 0x0040 completed 1 (§5.2 layout).
        let wire: [UInt8] = [0x13, 0x09, 0x02, 0x01, 0x00, 0x03, 0x00, 0x40, 0x00, 0x01, 0x00]
        let expected = HCI.NumberOfCompletedPackets(entries: [
            .init(connectionHandle: 0x0001, numCompletedPackets: 3),
            .init(connectionHandle: 0x0040, numCompletedPackets: 1),
        ])
        #expect(try HCI.Event(decoding: wire) == .numberOfCompletedPackets(expected))
        #expect(HCI.Event.numberOfCompletedPackets(expected).encoded() == wire)
        #expect(throws: WireError.self) { try HCI.NumberOfCompletedPackets(decoding: [0x02, 0x01, 0x00, 0x03, 0x00]) }
    }

    @Test("Three advertising reports decode into one array of views into the input")
    func threeReportsShareInput() throws {
        let reports = (1 ... 3).map { index in
            HCI.LEAdvertisingReport.Report(eventType: .advNonconnInd, addressType: .random,
                                           address: BluetoothAddress(0xC0_0000_0000 + UInt64(index), kind: .random),
                                           data: ArraySlice(repeating: UInt8(index), count: 20), rssi: Int8(-60 - index))
        }
        let wire = try HCI.EventPacket(leMeta: HCI.LEAdvertisingReport(reports: reports)).encoded()
        let decoded = try HCI.Event(decoding: wire)
        guard case let .leMeta(.advertisingReport(event)) = decoded else {
            Issue.record("expected an LE Advertising Report")
            return
        }
        #expect(event.reports == reports)
        // The data slices index into the input array itself: views, not copies.
        var previousEnd = 0
        for report in event.reports {
            #expect(report.data.startIndex > previousEnd)
            #expect(report.data.endIndex <= wire.count)
            #expect(wire[report.data.startIndex ..< report.data.endIndex] == report.data)
            previousEnd = report.data.endIndex
        }
    }

    @Test("RSSI and TX power 127 mean not available")
    func notAvailable() {
        let report = HCI.LEAdvertisingReport.Report(eventType: .advInd, addressType: .public, address: BluetoothAddress(1), data: [], rssi: 127)
        #expect(report.availableRSSI == nil)
        let extended = HCI.LEExtendedAdvertisingReport.Report(
            eventType: .init(legacy: true), addressType: .anonymous, address: BluetoothAddress(0, kind: .random),
            primaryPHY: .leCoded, secondaryPHY: nil, advertisingSID: 0xFF, txPower: 127, rssi: -20,
            periodicAdvertisingInterval: 0, directAddressType: .public, directAddress: BluetoothAddress(0), data: [])
        #expect(extended.availableTxPower == nil)
        #expect(extended.availableRSSI == -20)
    }

    @Test("Event and subevent codes print as hex")
    func descriptions() {
        #expect(HCI.EventCode.leMeta.description == "0x3E")
        #expect(HCI.EventCode.disconnectionComplete.description == "0x05")
        #expect(HCI.LESubeventCode.extendedAdvertisingReport.description == "0x0D")
    }

    @Test("Decoding a packet as the wrong typed event throws")
    func wrongType() throws {
        let packet = try HCI.EventPacket(HCI.HardwareError(hardwareCode: 7))
        #expect(throws: WireError.self) { try packet.decode(as: HCI.CommandStatus.self) }
        #expect(throws: WireError.self) { try packet.decode(asLEMeta: HCI.LEScanTimeout.self) }
        let meta = try HCI.EventPacket(leMeta: HCI.LEScanTimeout())
        #expect(throws: WireError.self) { try meta.decode(asLEMeta: HCI.LEConnectionComplete.self) }
        #expect(try meta.decode(asLEMeta: HCI.LEScanTimeout.self) == HCI.LEScanTimeout())
    }
}
