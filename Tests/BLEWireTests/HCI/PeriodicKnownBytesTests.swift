import BLEWire
import Testing

/// The periodic advertising commands and events (Core 5.4, Vol 4, Part E, §7.8.61–§7.8.63,
/// §7.8.67–§7.8.69, §7.7.65.14–16) against bytes Bumble 0.0.236's own HCI encoder produced
/// (bumble/hci.py, `bytes(HCI_…(…))`), an independent implementation of the same layouts. Each
/// decodes to the fields given to Bumble and encodes back to the same octets.
@Suite("HCI periodic advertising: Bumble's bytes")
struct PeriodicKnownBytesTests {
    /// Decodes H4 command bytes into `Command` and checks they encode back the same.
    private func command<Command: HCICommand & Equatable>(_ hex: String, as type: Command.Type) throws -> Command {
        let bytes = try #require(Hex.decode(hex))
        #expect(bytes.first == 0x01)
        let packet = try HCI.CommandPacket(decoding: Array(bytes.dropFirst()))
        #expect(packet.opcode == Command.opcode)
        let typed = try #require(try HCI.decodeCommand(packet) as? Command)
        #expect(try HCI.CommandPacket(typed).encoded() == Array(bytes.dropFirst()))
        return typed
    }

    /// Decodes H4 LE meta event bytes: the typed event and the packet it came in.
    private func event(_ hex: String) throws -> (event: HCI.LEMetaEvent?, packet: HCI.EventPacket?) {
        let bytes = try #require(Hex.decode(hex))
        guard case let .event(packet) = try H4.Packet(decoding: bytes) else { return (nil, nil) }
        guard case let .leMeta(event) = try HCI.Event(decoding: packet) else { return (nil, packet) }
        return (event, packet)
    }

    @Test("Create Sync: SID 5, a random advertiser, Skip 2, Sync_Timeout 300; Cancel and Terminate Sync")
    func syncCommands() throws {
        // Bumble: HCI_LE_Periodic_Advertising_Create_Sync_Command(options=0, advertising_sid=5,
        // advertiser_address_type=1, advertiser_address=C0:FF:EE:00:00:01, skip=2, sync_timeout=300, sync_cte_type=0)
        let create = try command("0144200e000501010000eeffc002002c0100", as: HCI.LEPeriodicAdvertisingCreateSync.self)
        #expect(create.options == [] && create.advertisingSID == 5 && create.advertiserAddressType == .random)
        #expect(create.advertiserAddress.value == 0xC0FF_EE00_0001 && create.skip == 2 && create.syncTimeout == 300 && create.syncCTEType == 0)
        _ = try command("01452000", as: HCI.LEPeriodicAdvertisingCreateSyncCancel.self)
        // Bumble: HCI_LE_Periodic_Advertising_Terminate_Sync_Command(sync_handle=0x0102)
        #expect(try command("014620020201", as: HCI.LEPeriodicAdvertisingTerminateSync.self).syncHandle == 0x0102)
    }

    @Test("Set Periodic Advertising Parameters, Data and Enable for set 3")
    func advertisingCommands() throws {
        // Bumble: (advertising_handle=3, periodic_advertising_interval_min=0x50, _max=0x60, periodic_advertising_properties=0x40)
        let parameters = try command("013e200703500060004000", as: HCI.LESetPeriodicAdvertisingParameters.self)
        #expect(parameters.advertisingHandle == 3 && parameters.periodicAdvertisingIntervalMin == 0x50)
        #expect(parameters.periodicAdvertisingIntervalMax == 0x60 && parameters.periodicAdvertisingProperties == 0x40)
        // Bumble: (advertising_handle=3, operation=3 (complete), advertising_data=0aff0102030405060708)
        let data = try command("013f200d03030a0aff0102030405060708", as: HCI.LESetPeriodicAdvertisingData.self)
        #expect(data.advertisingHandle == 3 && data.operation == .complete)
        #expect(Array(data.advertisingData) == [0x0A, 0xFF, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        // Bumble: (enable=1, advertising_handle=3)
        let enable = try command("014020020103", as: HCI.LESetPeriodicAdvertisingEnable.self)
        #expect(enable.enable && !enable.includeADI && enable.advertisingHandle == 3)
    }

    @Test("Sync Established, a Periodic Advertising Report marked more to come, and Sync Lost")
    func syncEvents() throws {
        // Bumble: (status=0, sync_handle=1, advertising_sid=5, advertiser_address_type=0, advertiser_address=C0:FF:EE:00:00:01,
        // advertiser_phy=2, periodic_advertising_interval=0x50, advertiser_clock_accuracy=1)
        let established = try event("043e100e0001000500010000eeffc002500001")
        guard case let .periodicAdvertisingSyncEstablished(done)? = established.event else {
            Issue.record("not Sync Established")
            return
        }
        #expect(try HCI.EventPacket(leMeta: done) == established.packet)
        #expect(done.status == .success && done.syncHandle == 1 && done.advertisingSID == 5 && done.advertiserAddressType == .public)
        #expect(done.advertiserAddress.value == 0xC0FF_EE00_0001 && done.advertiserPHY == .le2M)
        #expect(done.periodicAdvertisingInterval == 0x50 && done.advertiserClockAccuracy == .ppm250)
        // Bumble: (sync_handle=1, tx_power=-6, rssi=-48, cte_type=0xFF, data_status=1, data=0aff01020304)
        let reported = try event("043e0e0f0100fad0ff01060aff01020304")
        guard case let .periodicAdvertisingReport(report)? = reported.event else {
            Issue.record("not a Periodic Advertising Report")
            return
        }
        #expect(try HCI.EventPacket(leMeta: report) == reported.packet)
        #expect(report.syncHandle == 1 && report.txPower == -6 && report.rssi == -48 && report.cteType == 0xFF)
        #expect(report.dataStatus == .incompleteMoreToCome && Array(report.data) == [0x0A, 0xFF, 0x01, 0x02, 0x03, 0x04])
        let lostEvent = try event("043e03100100")
        guard case let .periodicAdvertisingSyncLost(lost)? = lostEvent.event else {
            Issue.record("not Sync Lost")
            return
        }
        #expect(try HCI.EventPacket(leMeta: lost) == lostEvent.packet)
        #expect(lost.syncHandle == 1)
    }
}
