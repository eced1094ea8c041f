import BLEController
import BLEWire
import Testing

/// Periodic advertising of an extended set (Core 5.4, Vol 4, Part E, §7.8.61–§7.8.63; Vol 6,
/// Part B, §2.3.4.6 SyncInfo, §4.4.2.12 the train, §4.5.8.3 its channels).
@Suite("Periodic advertising")
struct PeriodicAdvertisingTests {
    /// One controller with set 0 (SID 3) whose train has `interval` and `data`, both enabled at time 0.
    static func world(interval: UInt16 = 0x50, data: [UInt8] = [0x02, 0x01, 0x06], includeADI: Bool = false) -> TestAir {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        air.createSet(advertiser, handle: 0, sid: 3)
        #expect(air.setPeriodicParameters(advertiser, handle: 0, interval: interval) == 0x00)
        #expect(air.setPeriodicData(advertiser, handle: 0, data).allSatisfy { $0 == 0x00 })
        #expect(air.enablePeriodic(advertiser, handle: 0, includeADI: includeADI) == 0x00)
        #expect(air.enableSets(advertiser, [.init(advertisingHandle: 0)]) == 0x00)
        return air
    }

    @Test("AUX_SYNC_INDs start exactly one periodic interval apart, on CSA #2's channel for the train's access address and counter")
    func trainTiming() throws {
        var air = Self.world(interval: 0x50)
        air.run(until: 1_050_000)
        let starts = air.periodicPDUs(from: 0)
        // 0x50 × 1.25 ms = 100 ms; the first goes one interval after the enable.
        #expect(starts.count == 10)
        #expect(starts.map(\.transmission.start) == (1 ... 10).map { Microseconds($0) * 100_000 })
        let accessAddress = try #require(starts.first?.transmission.accessAddress)
        #expect(starts.allSatisfy { $0.transmission.accessAddress == accessAddress })
        let csa2 = ChannelSelectionAlgorithm2(accessAddress: accessAddress, channelMap: 0x1F_FFFF_FFFF)
        #expect(starts.enumerated().allSatisfy { $0.element.transmission.channel == csa2.channel(counter: UInt16($0.offset)) })
        // No AdvA in an AUX_SYNC_IND; the data in one PDU; no ADI unless asked.
        #expect(starts.allSatisfy { $0.payload.advertiserAddress == nil && $0.payload.dataInfo == nil && Array($0.payload.data) == [0x02, 0x01, 0x06] })
    }

    @Test("The AUX_ADV_IND's SyncInfo points at the next AUX_SYNC_IND within one offset unit, with the train's AA, interval and counter")
    func syncInfoPointsAtTheTrain() throws {
        var air = Self.world(interval: 0x50)
        air.run(until: 1_050_000)
        let train = air.periodicPDUs(from: 0)
        let auxiliary = air.extendedPDUs(from: 0).filter {
            $0.transmission.channel < 37 && $0.transmission.accessAddress == RadioTransmission.advertisingAccessAddress
        }
        #expect(auxiliary.count >= 5)
        for (transmission, payload) in auxiliary {
            let info = try LL.SyncInfo(decoding: try #require(payload.syncInfo))
            #expect(info.interval == 0x50 && info.channelMap == 0x1F_FFFF_FFFF)
            #expect(info.accessAddress == train[0].transmission.accessAddress)
            let target = train.first { $0.transmission.start > transmission.start }
            guard let target, let counter = train.firstIndex(where: { $0.transmission.start == target.transmission.start }) else { continue }
            #expect(Int(info.eventCounter) == counter)
            let pointed = transmission.start + info.offsetMicroseconds
            #expect(pointed <= target.transmission.start && target.transmission.start < pointed + info.offsetUnit.microseconds)
        }
        // The primary PDUs carry no SyncInfo (§2.3.4.6: AUX_ADV_IND only).
        #expect(air.extendedPDUs(from: 0).filter { $0.transmission.channel >= 37 }.allSatisfy { $0.payload.syncInfo == nil })
    }

    @Test("1,650 octets of periodic data go whole into each event: an AUX_SYNC_IND and AUX_CHAIN_INDs, each AuxPtr exact")
    func longDataChains() throws {
        let data = ExtendedAdvertisingAirTests.longData
        var air = Self.world(interval: 0x50, data: data, includeADI: true)
        air.run(until: 250_000)
        let event = air.periodicPDUs(from: 0).filter { $0.transmission.start >= 100_000 && $0.transmission.start < 200_000 }
        #expect(event.count == 7)
        #expect(event.flatMap { Array($0.payload.data) } == data)
        #expect(event.allSatisfy { $0.payload.dataInfo?.setID == 3 && $0.transmission.pdu.count <= 257 })
        for (item, next) in zip(event, event.dropFirst()) {
            let pointer = try #require(item.payload.auxiliaryPointer)
            #expect(item.transmission.start + pointer.offsetMicroseconds == next.transmission.start)
            #expect(pointer.channelIndex == next.transmission.channel)
            #expect(next.transmission.start - item.transmission.end >= 300, "T_MAFS")
        }
        #expect(event.last?.payload.auxiliaryPointer == nil)
    }

    @Test("No train before extended advertising is enabled; it outlives extended advertising and stops when disabled")
    func trainLifetime() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        air.createSet(advertiser, handle: 0)
        air.setPeriodicParameters(advertiser, handle: 0, interval: 0x28)
        air.enablePeriodic(advertiser, handle: 0)
        air.run(until: 200_000)
        #expect(air.periodicPDUs(from: 0).isEmpty)
        air.enableSets(advertiser, [.init(advertisingHandle: 0)])
        air.run(until: 400_000)
        air.command(advertiser, HCI.LESetExtendedAdvertisingEnable(enable: false, sets: []))
        let before = air.periodicPDUs(from: 0).count
        air.run(until: 600_000)
        #expect(air.periodicPDUs(from: 0).count == before + 4, "50 ms apart for another 200 ms")
        air.enablePeriodic(advertiser, handle: 0, false)
        let stopped = air.periodicPDUs(from: 0).count
        air.run(until: 800_000)
        #expect(air.periodicPDUs(from: 0).count == stopped)
    }

    @Test("Refusals: unknown set 0x42, connectable/scannable/legacy 0x12, interval 0x12/0x11, no parameters 0x0C, too much data 0x07/0x45")
    func refusals() {
        var air = TestAir()
        let device = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        #expect(air.setPeriodicParameters(device, handle: 9, interval: 0x50) == 0x42)
        #expect(air.setPeriodicData(device, handle: 9, [1]) == [0x42])
        #expect(air.enablePeriodic(device, handle: 9) == 0x42)
        air.createSet(device, handle: 1, properties: [.connectable])
        air.createSet(device, handle: 2, properties: [.scannable])
        air.createSet(device, handle: 3, properties: [.legacy])
        for handle: UInt8 in 1 ... 3 { #expect(air.setPeriodicParameters(device, handle: handle, interval: 0x50) == 0x12) }
        air.createSet(device, handle: 0)
        #expect(air.enablePeriodic(device, handle: 0) == 0x0C, "no parameters yet")
        #expect(air.setPeriodicParameters(device, handle: 0, interval: 0x05) == 0x12, "below 7.5 ms")
        #expect(air.command(device, HCI.LESetPeriodicAdvertisingParameters(
            advertisingHandle: 0, periodicAdvertisingIntervalMin: 0x60, periodicAdvertisingIntervalMax: 0x50)).first?.commandResult?.status == 0x12)
        #expect(air.setPeriodicParameters(device, handle: 0, interval: 0x0F01) == 0x11, "beyond SyncInfo's reach")
        #expect(air.setPeriodicParameters(device, handle: 0, interval: 0x06) == 0x00)
        #expect(air.setPeriodicData(device, handle: 0, ExtendedAdvertisingAirTests.longData).last == 0x45, "1,650 octets do not fit 7.5 ms")
        #expect(air.setPeriodicParameters(device, handle: 0, interval: 0x50) == 0x00)
        #expect(air.setPeriodicData(device, handle: 0, ExtendedAdvertisingAirTests.longData + [0]).last == 0x07)
        #expect(air.setPeriodicData(device, handle: 0, [1, 2]) == [0x00])
        #expect(air.enablePeriodic(device, handle: 0) == 0x00)
        #expect(air.setPeriodicParameters(device, handle: 0, interval: 0x60) == 0x0C, "enabled")
        #expect(air.command(device, HCI.LESetPeriodicAdvertisingData(
            advertisingHandle: 0, operation: .firstFragment, advertisingData: [1])).first?.commandResult?.status == 0x0C)
        #expect(air.command(device, HCI.LERemoveAdvertisingSet(advertisingHandle: 0)).first?.commandResult?.status == 0x0C)
    }

    @Test("Without the extended advertising claim the periodic commands are unknown (0x01); after legacy ones, disallowed (0x0C)")
    func commandFamily() {
        var air = TestAir()
        let plain = air.add(address: 0xA1, seed: 1)
        #expect(air.setPeriodicParameters(plain, handle: 0, interval: 0x50) == 0x01)
        let claiming = air.add(address: 0xA2, seed: 2, claimsExtendedAdvertising: true)
        air.command(claiming, HCI.LESetAdvertisingEnable(advertisingEnable: false))
        #expect(air.setPeriodicParameters(claiming, handle: 0, interval: 0x50) == 0x0C)
    }
}
