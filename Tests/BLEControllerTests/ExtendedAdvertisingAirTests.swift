import BLEController
import BLEWire
import Testing

/// Extended advertising on the air (Core 5.4, Vol 6, Part B, §2.3.4, §4.4.2) and extended
/// scanning's reports of it (Vol 4, Part E, §7.7.65.13).
@Suite("Extended advertising on the air")
struct ExtendedAdvertisingAirTests {
    /// 1,650 octets that are not all alike, so that a misplaced fragment shows.
    static let longData: [UInt8] = (0 ..< 1650).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 256) }

    /// Airtime on LE 1M (§2.1): preamble 1, access address 4, PDU, CRC 3 octets at 8 µs.
    static func airtime1M(_ pduOctets: Int) -> Microseconds { Microseconds(1 + 4 + pduOctets + 3) * 8 }
    /// Airtime on LE 2M: preamble 2 octets, 4 µs per octet.
    static func airtime2M(_ pduOctets: Int) -> Microseconds { Microseconds(2 + 4 + pduOctets + 3) * 4 }

    /// One controller advertising `data` in set 0 from time 0 (and optionally one scanning first).
    static func world(data: [UInt8], secondaryPHY: HCI.PHY = .le1M, scanner: Bool = true) -> TestAir {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        if scanner {
            let listener = air.add(address: 0xB2, seed: 2)
            air.startExtendedScanning(listener)
        }
        air.createSet(advertiser, handle: 0, sid: 5, secondaryPHY: secondaryPHY)
        air.setExtendedData(advertiser, handle: 0, data)
        air.enableSets(advertiser, [.init(advertisingHandle: 0)])
        return air
    }

    @Test("ADV_EXT_IND takes 136 µs on LE 1M; full AUX PDUs take 2,120 µs on LE 1M and 1,064 µs on LE 2M")
    func airtimes() {
        for phy in [HCI.PHY.le1M, .le2M] {
            var air = Self.world(data: Self.longData, secondaryPHY: phy, scanner: false)
            air.run(until: 50_000)
            let pdus = air.extendedPDUs(from: 0)
            let primary = pdus.filter { $0.transmission.channel >= 37 }
            let auxiliary = pdus.filter { $0.transmission.channel < 37 }
            #expect(!primary.isEmpty && !auxiliary.isEmpty)
            for (transmission, payload) in primary {
                // Header 2 + Extended Header Length 1 + flags 1 + ADI 2 + AuxPtr 3.
                #expect(transmission.pdu.count == 9 && payload.advertiserAddress == nil)
                #expect(transmission.duration == 136 && transmission.duration == Self.airtime1M(9))
                #expect(transmission.phy == .le1M)
            }
            for (transmission, _) in auxiliary {
                let expected = phy == .le1M ? Self.airtime1M(transmission.pdu.count) : Self.airtime2M(transmission.pdu.count)
                #expect(transmission.duration == expected)
                #expect(transmission.phy == (phy == .le1M ? .le1M : .le2M))
            }
            let full = auxiliary.filter { $0.transmission.pdu.count == 257 }
            #expect(!full.isEmpty)
            #expect(full.allSatisfy { $0.transmission.duration == (phy == .le1M ? 2120 : 1064) })
        }
    }

    @Test("Every AuxPtr points exactly at the next packet, at least T_MAFS after the end of the one that carries it")
    func auxiliaryOffsets() {
        var air = Self.world(data: Self.longData, scanner: false)
        air.run(until: 50_000)
        let pdus = air.extendedPDUs(from: 0).filter { $0.transmission.start < 20_000 }
        let primary = pdus.filter { $0.transmission.channel >= 37 }
        let auxiliary = pdus.filter { $0.transmission.channel < 37 }
        #expect(primary.map(\.transmission.channel) == [37, 38, 39])
        // 242 octets in the AUX_ADV_IND, 248 in each full AUX_CHAIN_IND, 168 in the last.
        #expect(auxiliary.map(\.payload.data.count) == [242, 248, 248, 248, 248, 248, 168])
        #expect(auxiliary.first?.payload.advertiserAddress == BluetoothAddress(0xA1))
        #expect(auxiliary.dropFirst().allSatisfy { $0.payload.advertiserAddress == nil })
        let chain = primary + auxiliary
        for (index, item) in chain.enumerated() {
            guard let pointer = item.payload.auxiliaryPointer else {
                #expect(index == chain.count - 1, "only the last packet has no AuxPtr")
                continue
            }
            let target = index < primary.count ? auxiliary[0] : chain[index + 1]
            #expect(pointer.offsetUnit == .thirty)
            #expect(item.transmission.start + Microseconds(pointer.offset) * 30 == target.transmission.start)
            #expect(pointer.channelIndex == target.transmission.channel)
            let gap = target.transmission.start - item.transmission.end
            #expect(gap >= 300, "T_MAFS is 300 µs")
            if index >= primary.count - 1 { #expect(gap < 330, "the shortest offset, rounded up to 30 µs") }
        }
        // The whole event: ADV_EXT_INDs 300 µs apart, 450 µs on to the AUX_ADV_IND, 6 × 2,430 µs, the last 174-octet PDU (1,456 µs).
        #expect((auxiliary.last?.transmission.end ?? 0) - (primary.first?.transmission.start ?? 0) == 17_086)
        #expect(Set(chain.map { $0.payload.dataInfo }).count == 1)
        #expect(chain.first?.payload.dataInfo?.setID == 5)
    }

    @Test("1,650 octets reach an extended scanner through the AUX chain, byte for byte, in reports of at most 229 octets")
    func longDataArrives() {
        var air = Self.world(data: Self.longData)
        air.run(until: 1_000_000)
        let messages = air.reassembled(1)
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { $0.status == .complete && $0.data == Self.longData && $0.sid == 5 })
        let reports = air.extendedReports(1)
        #expect(reports.allSatisfy { $0.data.count <= 229 && $0.address == BluetoothAddress(0xA1) && $0.secondaryPHY == .le1M })
        #expect(reports.allSatisfy { !$0.eventType.isConnectable && !$0.eventType.isScannable && !$0.eventType.isLegacy })
        // 1,650 = 7 × 229 + 47 would be 8 reports; per AUX PDU, 242, 248 × 5 and 168 make 2 + 5 × 2 + 1.
        #expect(reports.count == messages.count * 13)
    }

    @Test("A lost AUX_CHAIN_IND ends the report with data status incomplete, truncated")
    func lostChainIsTruncated() {
        var air = Self.world(data: Self.longData)
        // Every AUX_CHAIN_IND of the first event (they carry no AdvA) is lost.
        air.loses = { transmission in
            guard transmission.channel < 37, transmission.start < 20_000,
                  case let .extended(_, bytes)? = try? LL.AdvertisingPDU(decoding: transmission.pdu).payload,
                  let payload = try? LL.ExtendedAdvertisingPayload(decoding: bytes, txKind: .public, rxKind: .public)
            else { return false }
            return payload.advertiserAddress == nil
        }
        air.run(until: 1_000_000)
        let messages = air.reassembled(1)
        guard let first = messages.first else {
            Issue.record("nothing reported")
            return
        }
        #expect(first.status == .incompleteTruncated)
        #expect(first.data == Array(Self.longData.prefix(242)))
        #expect(messages.dropFirst().allSatisfy { $0.status == .complete && $0.data == Self.longData })
        #expect(messages.count > 1)
    }

    @Test("Two sets advertise at once, each event whole, and the scanner hears both")
    func twoSets() {
        var air = TestAir()
        let listener = air.add(address: 0xB2, seed: 2)
        let advertiser = air.add(address: 0xA1, seed: 1)
        air.startExtendedScanning(listener)
        air.createSet(advertiser, handle: 1, sid: 1)
        air.createSet(advertiser, handle: 2, sid: 2)
        air.setExtendedData(advertiser, handle: 1, Array(Self.longData.prefix(300)))
        air.setExtendedData(advertiser, handle: 2, Array(Self.longData.suffix(40)))
        #expect(air.enableSets(advertiser, [.init(advertisingHandle: 1), .init(advertisingHandle: 2)]) == 0x00)
        air.run(until: 2_000_000)
        let heard = air.reassembled(listener)
        #expect(heard.contains { $0.sid == 1 && $0.data == Array(Self.longData.prefix(300)) })
        #expect(heard.contains { $0.sid == 2 && $0.data == Array(Self.longData.suffix(40)) })
        // The advertiser's packets never overlap one another.
        let sent = air.log.filter { $0.device == advertiser }.map(\.transmission).sorted { $0.start < $1.start }
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    @Test("Duration and event limits end a set with LE Advertising Set Terminated")
    func terminated() {
        var air = TestAir()
        let device = air.add(address: 0xA1, seed: 1)
        air.command(device, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(.advertisingSetTerminated)))
        air.createSet(device, handle: 3)
        air.createSet(device, handle: 4)
        air.setExtendedData(device, handle: 3, [1, 2, 3])
        air.enableSets(device, [.init(advertisingHandle: 3, maxExtendedAdvertisingEvents: 3), .init(advertisingHandle: 4, duration: 50)])
        air.run(until: 1_000_000)
        let ended = air.devices[device].events.compactMap { item -> (Microseconds, HCI.LEAdvertisingSetTerminated)? in
            if case let .leMeta(.advertisingSetTerminated(event)) = item.event { return (item.at, event) }
            return nil
        }
        let limited = ended.first { $0.1.advertisingHandle == 3 }
        #expect(limited?.1.status == .limitReached && limited?.1.numCompletedExtendedAdvertisingEvents == 3)
        let timed = ended.first { $0.1.advertisingHandle == 4 }
        #expect(timed?.1.status == .advertisingTimeout && (500_000 ..< 503_000).contains(timed?.0 ?? 0))
        // Events of 100 ms + advDelay: five start within the 500 ms duration or fewer, never more.
        #expect((4 ... 5).contains(Int(timed?.1.numCompletedExtendedAdvertisingEvents ?? 0)))
        let setThreeEvents = air.extendedPDUs(from: device).filter { $0.transmission.channel == 37 && $0.payload.dataInfo?.setID == 0 }
        #expect(setThreeEvents.count == 3 + Int(timed?.1.numCompletedExtendedAdvertisingEvents ?? 0))
        #expect(!air.devices[device].controller.isAdvertising)
    }

    @Test("An extended scanner reports legacy advertising with the legacy bit and its data")
    func legacyReportedInExtendedForm() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        let listener = air.add(address: 0xB2, seed: 2)
        air.startExtendedScanning(listener)
        air.startAdvertising(advertiser, type: .nonConnectableUndirected)
        air.run(until: 500_000)
        let reports = air.extendedReports(listener)
        #expect(!reports.isEmpty)
        #expect(reports.allSatisfy {
            $0.eventType == HCI.LEExtendedAdvertisingReport.EventType(legacy: true) && Array($0.data) == TestAir.advertisingData
                && $0.advertisingSID == 0xFF && $0.secondaryPHY == nil && $0.address == BluetoothAddress(0xA1)
        })
        #expect(air.reports(listener).isEmpty, "no legacy LE Advertising Report while scanning the extended way")
    }

    @Test("With duplicate filtering each set's data is reported once complete (a truncated copy aside), and again when it changes")
    func duplicateFiltering() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1)
        let listener = air.add(address: 0xB2, seed: 2)
        air.startExtendedScanning(listener, filterDuplicates: true)
        // The first event's AUX_CHAIN_IND is lost: that copy is truncated and does not count as reported.
        air.loses = { $0.channel < 37 && $0.start > 1_500 && $0.start < 20_000 }
        air.createSet(advertiser, handle: 0, sid: 3)
        air.setExtendedData(advertiser, handle: 0, Array(Self.longData.prefix(500)))
        air.enableSets(advertiser, [.init(advertisingHandle: 0)])
        air.run(until: 1_000_000)
        let first = air.reassembled(listener)
        #expect(first.map(\.status) == [.incompleteTruncated, .complete])
        #expect(first.last?.data == Array(Self.longData.prefix(500)))
        air.setExtendedData(advertiser, handle: 0, Array(Self.longData.suffix(20)))
        air.run(until: 2_000_000)
        #expect(air.reassembled(listener).dropFirst(2).map(\.data) == [Array(Self.longData.suffix(20))])
    }

    @Test("The same seeds give the same extended advertising on the air and the same reports")
    func deterministic() {
        func run() -> (air: [RadioTransmission], reports: [ExtendedReportSummary]) {
            var air = Self.world(data: Self.longData)
            air.run(until: 1_000_000)
            return (air.log.map(\.transmission), air.extendedReports(1).map { ExtendedReportSummary(status: $0.eventType.rawValue, data: Array($0.data)) })
        }
        let first = run()
        let second = run()
        #expect(first.air == second.air)
        #expect(first.reports == second.reports)
        #expect(Set(first.air.filter { $0.channel < 37 }.map(\.channel)).count > 3, "the secondary channels vary")
    }

    struct ExtendedReportSummary: Equatable {
        var status: UInt16
        var data: [UInt8]
    }
}
