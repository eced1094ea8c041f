import BLEController
import BLEWire
import Testing

/// Advertising sets with legacy PDUs (Core 5.4, Vol 4, Part E, §7.8.53 Table 7.2): the
/// extended commands drive ADV_IND and its kin, as BlueZ and Android advertise.
@Suite("Legacy-PDU advertising sets")
struct LegacyAdvertisingSetTests {
    static let adv = HCI.AdvertisingEventProperties(rawValue: 0b0001_0011)
    static let nonConnectable = HCI.AdvertisingEventProperties(rawValue: 0b0001_0000)
    static let directed = HCI.AdvertisingEventProperties(rawValue: 0b0001_0101)

    static func events(_ air: TestAir, _ device: Int) -> [HCI.Event] { air.devices[device].events.map(\.event) }

    @Test("An ADV_IND set sends its data in ADV_IND and its scan response to an active legacy scanner")
    func advertisesLegacyPDUs() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        let scanner = air.add(address: 0xB2, seed: 2)
        #expect(air.createSet(advertiser, handle: 2, properties: Self.adv) == 0x00)
        #expect(air.setExtendedData(advertiser, handle: 2, TestAir.advertisingData) == [0x00])
        #expect(air.command(advertiser, HCI.LESetExtendedScanResponseData(
            advertisingHandle: 2, scanResponseData: TestAir.scanResponseData[...])).first?.commandResult?.status == 0x00)
        air.startScanning(scanner, active: true)
        #expect(air.enableSets(advertiser, [.init(advertisingHandle: 2)]) == 0x00)
        air.run(until: 500_000)
        let pdus = air.advertisingPDUs(from: advertiser)
        #expect(!pdus.isEmpty && pdus.allSatisfy { $0.pdu.pduType == .advInd || $0.pdu.pduType == .scanRsp })
        let reports = air.reports(scanner)
        #expect(reports.contains { $0.eventType == .advInd && Array($0.data) == TestAir.advertisingData })
        #expect(reports.contains { $0.eventType == .scanRsp && Array($0.data) == TestAir.scanResponseData })
    }

    @Test("A connection to a legacy-PDU set ends it with LE Advertising Set Terminated naming the connection")
    func connectionTerminatesSet() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        let central = air.add(address: 0xB2, seed: 2)
        air.command(advertiser, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(.advertisingSetTerminated)))
        air.createSet(advertiser, handle: 4, properties: Self.adv)
        air.enableSets(advertiser, [.init(advertisingHandle: 4)])
        air.command(central, TestAir.createConnection(to: air.address(advertiser)))
        air.run(until: 1_000_000)
        guard let complete = air.connectionCompletes(advertiser).first else {
            Issue.record("no connection")
            return
        }
        let events = Self.events(air, advertiser)
        let terminatedIndex = events.firstIndex {
            if case .leMeta(.advertisingSetTerminated) = $0 { return true }
            return false
        }
        let completeIndex = events.firstIndex {
            if case .leMeta(.connectionComplete) = $0 { return true }
            return false
        }
        guard let terminatedIndex, let completeIndex, case let .leMeta(.advertisingSetTerminated(terminated)) = events[terminatedIndex] else {
            Issue.record("no LE Advertising Set Terminated")
            return
        }
        #expect(completeIndex < terminatedIndex)
        #expect(terminated.status == .success && terminated.advertisingHandle == 4)
        #expect(terminated.connectionHandle == complete.connectionHandle && terminated.numCompletedExtendedAdvertisingEvents >= 1)
        #expect(!air.devices[advertiser].controller.isAdvertising)
        #expect(air.command(advertiser, HCI.LERemoveAdvertisingSet(advertisingHandle: 4)).first?.commandResult?.status == 0x00)
    }

    @Test("A legacy-PDU set with an event limit stops with Limit Reached after that many events")
    func eventLimit() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        air.command(advertiser, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(.advertisingSetTerminated)))
        air.createSet(advertiser, handle: 0, properties: Self.nonConnectable)
        air.enableSets(advertiser, [.init(advertisingHandle: 0, maxExtendedAdvertisingEvents: 2)])
        air.run(until: 1_000_000)
        let terminated = Self.events(air, advertiser).compactMap { event -> HCI.LEAdvertisingSetTerminated? in
            if case let .leMeta(.advertisingSetTerminated(done)) = event { return done }
            return nil
        }
        #expect(terminated.map(\.status) == [.limitReached])
        #expect(terminated.first?.numCompletedExtendedAdvertisingEvents == 2)
        #expect(air.advertisingPDUs(from: advertiser).count == 6, "two events on three channels")
    }

    @Test("Legacy-PDU sets refuse fragments, data over 31 octets, data for directed types and a second running set")
    func refusals() {
        var air = TestAir()
        let device = air.add(address: 0xA1, seed: 1)
        #expect(air.createSet(device, handle: 0, properties: HCI.AdvertisingEventProperties(rawValue: 0b0001_0111)) == 0x12)
        #expect(air.createSet(device, handle: 0, properties: Self.adv) == 0x00)
        #expect(air.setExtendedData(device, handle: 0, [UInt8](repeating: 1, count: 32)) == [0x12])
        let fragment = air.command(device, HCI.LESetExtendedAdvertisingData(advertisingHandle: 0, operation: .firstFragment, advertisingData: [1]))
        #expect(fragment.first?.commandResult?.status == 0x12)
        #expect(air.createSet(device, handle: 1, properties: Self.directed) == 0x00)
        #expect(air.setExtendedData(device, handle: 1, [1]) == [0x12])
        // An extended set holding 40 octets cannot become a legacy one.
        #expect(air.createSet(device, handle: 2) == 0x00)
        air.setExtendedData(device, handle: 2, [UInt8](repeating: 2, count: 40))
        #expect(air.createSet(device, handle: 2, properties: Self.nonConnectable) == 0x12)
        #expect(air.createSet(device, handle: 3, properties: Self.nonConnectable) == 0x00)
        #expect(air.enableSets(device, [.init(advertisingHandle: 0), .init(advertisingHandle: 3)]) == 0x07)
        #expect(air.enableSets(device, [.init(advertisingHandle: 0)]) == 0x00)
        #expect(air.enableSets(device, [.init(advertisingHandle: 3)]) == 0x07)
        // The running legacy set takes new data at once, and an extended set runs beside it.
        #expect(air.setExtendedData(device, handle: 0, [2, 1, 6]) == [0x00])
        #expect(air.enableSets(device, [.init(advertisingHandle: 2)]) == 0x00)
    }

    @Test("A legacy-PDU set and an extended set take turns on the radio, and an extended scanner hears both")
    func legacyBesideExtended() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        let scanner = air.add(address: 0xB2, seed: 2)
        air.startExtendedScanning(scanner)
        let long = (0 ..< 900).map { UInt8(truncatingIfNeeded: $0) }
        air.createSet(advertiser, handle: 0, interval: 0x30, properties: Self.nonConnectable)
        air.setExtendedData(advertiser, handle: 0, TestAir.advertisingData)
        air.createSet(advertiser, handle: 1, sid: 4, interval: 0x30)
        air.setExtendedData(advertiser, handle: 1, long)
        #expect(air.enableSets(advertiser, [.init(advertisingHandle: 0), .init(advertisingHandle: 1)]) == 0x00)
        air.run(until: 3_000_000)
        let sent = air.log.filter { $0.device == advertiser }.map(\.transmission).sorted { $0.start < $1.start }
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.end <= $1.start }, "no two of the advertiser's packets overlap")
        let reports = air.extendedReports(scanner)
        #expect(reports.contains { $0.eventType.isLegacy && Array($0.data) == TestAir.advertisingData })
        #expect(air.reassembled(scanner).contains { $0.sid == 4 && $0.status == .complete && $0.data == long })
    }
}
