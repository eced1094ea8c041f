import BLEWire
import Testing

/// Periodic advertising commands and events against bytes laid out by hand from Core 5.4,
/// Vol 4, Part E, §7.8.61–§7.8.69 and §7.7.65.14–16 (opcode little-endian, then the
/// parameter length and the fields in the order the specification lists them).
@Suite("HCI periodic advertising: bytes from the specification")
struct PeriodicAdvertisingCommandBytesTests {
    private func command<Command: HCICommand>(_ bytes: [UInt8], as type: Command.Type) throws -> Command {
        let packet = try HCI.CommandPacket(decoding: bytes)
        #expect(packet.opcode == Command.opcode)
        let typed = try #require(try HCI.decodeCommand(packet) as? Command)
        #expect(try HCI.CommandPacket(typed).encoded() == bytes, "re-encodes to the same bytes")
        return typed
    }

    @Test("Set Periodic Advertising Parameters: handle, interval min and max, properties (OCF 0x003E)")
    func parameters() throws {
        let value = try command([0x3E, 0x20, 0x07, 0x01, 0x50, 0x00, 0xA0, 0x00, 0x40, 0x00],
                                as: HCI.LESetPeriodicAdvertisingParameters.self)
        #expect(value == HCI.LESetPeriodicAdvertisingParameters(
            advertisingHandle: 1, periodicAdvertisingIntervalMin: 0x50, periodicAdvertisingIntervalMax: 0xA0,
            periodicAdvertisingProperties: 0x40))
        #expect(throws: WireError.self) { try HCI.LESetPeriodicAdvertisingParameters(decoding: [0x01, 0x50, 0x00, 0xA0, 0x00, 0x40]) }
    }

    @Test("Set Periodic Advertising Data: handle, operation, length, at most 252 octets (OCF 0x003F)")
    func data() throws {
        let value = try command([0x3F, 0x20, 0x05, 0x02, 0x03, 0x02, 0xAB, 0xCD], as: HCI.LESetPeriodicAdvertisingData.self)
        #expect(value == HCI.LESetPeriodicAdvertisingData(advertisingHandle: 2, operation: .complete, advertisingData: [0xAB, 0xCD]))
        #expect(throws: WireError(field: "HCI.LESetPeriodicAdvertisingData.dataLength", reason: .invalidValue(253))) {
            try HCI.LESetPeriodicAdvertisingData(decoding: [0x02, 0x03, 253] + [UInt8](repeating: 0, count: 253))
        }
        #expect(throws: WireError.self) { try HCI.LESetPeriodicAdvertisingData(decoding: [0x02, 0x05, 0x00]) }
        let long = HCI.LESetPeriodicAdvertisingData(advertisingHandle: 0, advertisingData: [UInt8](repeating: 7, count: 300)[...])
        #expect(long.encoded().count == 3 + 252, "the encoder sends at most one fragment")
    }

    @Test("Set Periodic Advertising Enable: bit 0 enable, bit 1 include ADI, other bits reserved (OCF 0x0040)")
    func enable() throws {
        let value = try command([0x40, 0x20, 0x02, 0x03, 0x04], as: HCI.LESetPeriodicAdvertisingEnable.self)
        #expect(value == HCI.LESetPeriodicAdvertisingEnable(enable: true, includeADI: true, advertisingHandle: 4))
        #expect(throws: WireError(field: "HCI.LESetPeriodicAdvertisingEnable.enable", reason: .invalidValue(0x04))) {
            try HCI.LESetPeriodicAdvertisingEnable(decoding: [0x04, 0x01])
        }
    }

    @Test("Periodic Advertising Create Sync: options, SID, address, skip, timeout, CTE type (OCF 0x0044)")
    func createSync() throws {
        let bytes: [UInt8] = [0x44, 0x20, 0x0E, 0x04, 0x03, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0xC1,
                              0x02, 0x00, 0x64, 0x00, 0x00]
        let value = try command(bytes, as: HCI.LEPeriodicAdvertisingCreateSync.self)
        #expect(value.options == .duplicateFilteringInitiallyEnabled)
        #expect(value.advertisingSID == 3)
        #expect(value.advertiserAddressType == .random)
        #expect(value.advertiserAddress == BluetoothAddress(0xC1_22_33_44_55_66, kind: .random))
        #expect(value.skip == 2 && value.syncTimeout == 100 && value.syncCTEType == 0)
        #expect(HCI.LEPeriodicAdvertisingCreateSync.completion == .commandStatus)
        #expect(throws: WireError.self) { try HCI.LEPeriodicAdvertisingCreateSync(decoding: Array(bytes.dropFirst(3).dropLast())) }
    }

    @Test("Create Sync Cancel has no parameters; Terminate Sync carries a 12-bit handle (OCF 0x0045, 0x0046)")
    func cancelAndTerminate() throws {
        _ = try command([0x45, 0x20, 0x00], as: HCI.LEPeriodicAdvertisingCreateSyncCancel.self)
        #expect(try command([0x46, 0x20, 0x02, 0x01, 0x0E], as: HCI.LEPeriodicAdvertisingTerminateSync.self).syncHandle == 0x0E01)
        #expect(throws: WireError.self) { try HCI.LEPeriodicAdvertisingTerminateSync(decoding: [0x00, 0x0F]) }
        #expect(HCI.Opcode.lePeriodicAdvertisingCreateSyncCancel.name == "LE Periodic Advertising Create Sync Cancel")
    }

    @Test("Supported Commands: the periodic commands are octet 37 bits 2–4 and octet 38 bits 0–2")
    func supportedCommandBits() {
        typealias Entry = HCI.SupportedCommands.Entry
        #expect(Entry.leSetPeriodicAdvertisingParameters == Entry(octet: 37, bit: 2))
        #expect(Entry.leSetPeriodicAdvertisingEnable == Entry(octet: 37, bit: 4))
        #expect(Entry.lePeriodicAdvertisingCreateSync == Entry(octet: 38, bit: 0))
        #expect(Entry.lePeriodicAdvertisingTerminateSync == Entry(octet: 38, bit: 2))
    }

    @Test("Sync Established is 15 octets; a report's data status 0b11 and length 248 are rejected")
    func events() throws {
        let established: [UInt8] = [0x0E, 0x00, 0x01, 0x00, 0x03, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0xC1, 0x01, 0x50, 0x00, 0x05]
        let event = try HCI.LEMetaEvent(decoding: established)
        guard case let .periodicAdvertisingSyncEstablished(value) = event else {
            Issue.record("not Sync Established: \(event)")
            return
        }
        #expect(value.status == .success && value.syncHandle == 1 && value.advertisingSID == 3)
        #expect(value.advertiserPHY == .le1M && value.periodicAdvertisingInterval == 0x50 && value.advertiserClockAccuracy == .ppm50)
        let report: [UInt8] = [0x0F, 0x01, 0x00, 0x7F, 0xC4, 0xFF, 0x00, 0x02, 0xAA, 0xBB]
        guard case let .periodicAdvertisingReport(parsed) = try HCI.LEMetaEvent(decoding: report) else {
            Issue.record("not a periodic report")
            return
        }
        #expect(parsed.rssi == -60 && parsed.dataStatus == .complete && parsed.data == [0xAA, 0xBB])
        #expect(throws: WireError.self) { try HCI.LEPeriodicAdvertisingReport(decoding: [0x01, 0x00, 0x7F, 0xC4, 0xFF, 0x03, 0x00]) }
        #expect(throws: WireError.self) {
            try HCI.LEPeriodicAdvertisingReport(decoding: [0x01, 0x00, 0x7F, 0xC4, 0xFF, 0x00, 248] + [UInt8](repeating: 0, count: 248))
        }
        #expect(try HCI.LEMetaEvent(decoding: [0x10, 0x01, 0x00]) == .periodicAdvertisingSyncLost(.init(syncHandle: 1)))
    }
}
