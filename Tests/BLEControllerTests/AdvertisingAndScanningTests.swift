import BLEController
import BLEWire
import Testing

@Suite("Controller advertising and scanning")
struct AdvertisingAndScanningTests {
    @Test("An advertising event sends ADV_IND with the host's data on channels 37, 38, 39 in order")
    func threeChannels() throws {
        var air = TestAir()
        let advertiser = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        air.startAdvertising(advertiser)
        air.run(until: 50_000)
        let sent = air.advertisingPDUs(from: advertiser)
        #expect(sent.map(\.transmission.channel) == [37, 38, 39])
        for (transmission, pdu) in sent {
            #expect(transmission.accessAddress == RadioTransmission.advertisingAccessAddress)
            #expect(transmission.txPowerDBm == 0)
            guard case let .advInd(address, data) = pdu.payload else {
                Issue.record("expected ADV_IND, got \(pdu.payload)")
                continue
            }
            #expect(address == air.address(advertiser))
            #expect(Array(data) == TestAir.advertisingData)
        }
        #expect(sent[1].transmission.start > sent[0].transmission.end)
    }

    @Test("Each advertising type sends its own PDU")
    func advertisingTypes() {
        let cases: [(HCI.LESetAdvertisingParameters.AdvertisingType, LL.AdvertisingPDUType)] = [
            (.scannableUndirected, .advScanInd), (.nonConnectableUndirected, .advNonconnInd),
            (.connectableDirectedLowDutyCycle, .advDirectInd),
        ]
        for (type, expected) in cases {
            var air = TestAir()
            let advertiser = air.add(address: 1, seed: 1)
            air.startAdvertising(advertiser, type: type, peer: BluetoothAddress(0x22))
            air.run(until: 50_000)
            let types = air.advertisingPDUs(from: advertiser).map(\.pdu.pduType)
            #expect(types == [expected, expected, expected], "\(type)")
        }
    }

    @Test("Advertising events are advInterval + advDelay apart: mean interval + 5 ms over 1000 events")
    func meanEventSpacing() {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 42)
        air.startAdvertising(advertiser, type: .nonConnectableUndirected, interval: 0x00A0) // 100 ms
        air.run(until: 1001 * 111_000)
        let starts = air.advertisingPDUs(from: advertiser).filter { $0.transmission.channel == 37 }.map(\.transmission.start)
        #expect(starts.count >= 1001)
        let events = Array(starts.prefix(1001))
        let gaps = zip(events.dropFirst(), events).map { $0 - $1 }
        let mean = Double(gaps.reduce(0, +)) / Double(gaps.count)
        #expect(abs(mean - 105_000) <= 1_000, "mean spacing \(mean) µs")
        #expect(gaps.allSatisfy { (100_000 ... 110_000).contains($0) })
        #expect(Set(gaps).count > 100, "advDelay varies")
    }

    @Test("A passive scanner reports ADV_IND with address, data and the reception's RSSI")
    func passiveScanner() throws {
        var air = TestAir()
        let advertiser = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        let scanner = air.add(address: 0xF0_00_00_00_00_02, seed: 2)
        air.startScanning(scanner, active: false)
        air.startAdvertising(advertiser)
        air.run(until: 30_000)
        let reports = air.reports(scanner)
        let report = try #require(reports.first)
        #expect(report.eventType == .advInd)
        #expect(report.addressType == .public)
        #expect(report.address == air.address(advertiser))
        #expect(Array(report.data) == TestAir.advertisingData)
        #expect(report.rssi == TestAir.rssi)
        #expect(reports.allSatisfy { $0.eventType == .advInd }, "a passive scanner sends no SCAN_REQ")
        #expect(air.advertisingPDUs(from: scanner).isEmpty)
    }

    @Test("An active scanner reports ADV_IND then SCAN_RSP, exchanged exactly T_IFS apart")
    func activeScanner() throws {
        var air = TestAir()
        let advertiser = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        let scanner = air.add(address: 0xF0_00_00_00_00_02, seed: 2)
        air.startScanning(scanner, active: true)
        air.startAdvertising(advertiser)
        air.run(until: 30_000)
        let reports = air.reports(scanner)
        #expect(reports.count >= 2)
        #expect(reports.prefix(2).map(\.eventType) == [.advInd, .scanRsp])
        let response = try #require(reports.first { $0.eventType == .scanRsp })
        #expect(Array(response.data) == TestAir.scanResponseData)
        #expect(response.address == air.address(advertiser))

        let advertisement = try #require(air.advertisingPDUs(from: advertiser).first)
        let request = try #require(air.advertisingPDUs(from: scanner).first)
        guard case let .scanReq(scanA, advA) = request.pdu.payload else {
            Issue.record("the scanner sent \(request.pdu.payload)")
            return
        }
        #expect(scanA == air.address(scanner))
        #expect(advA == air.address(advertiser))
        #expect(request.transmission.start == advertisement.transmission.end + 150)
        #expect(request.transmission.channel == advertisement.transmission.channel)
        let scanResponse = try #require(air.advertisingPDUs(from: advertiser).first { $0.pdu.pduType == .scanRsp })
        #expect(scanResponse.transmission.start == request.transmission.end + 150)
    }

    @Test("A non-scannable advertiser gets no SCAN_REQ and no scan response is reported")
    func nonScannable() {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 1)
        let scanner = air.add(address: 2, seed: 2)
        air.startScanning(scanner, active: true)
        air.startAdvertising(advertiser, type: .nonConnectableUndirected)
        air.run(until: 500_000)
        #expect(!air.reports(scanner).isEmpty)
        #expect(air.reports(scanner).allSatisfy { $0.eventType == .advNonconnInd })
        #expect(air.advertisingPDUs(from: scanner).isEmpty)
    }

    @Test("Duplicate filtering reports each advertiser and event type once")
    func duplicateFiltering() {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 1)
        let scanner = air.add(address: 2, seed: 2)
        let unfiltered = air.add(address: 3, seed: 3)
        air.startScanning(scanner, active: true, filterDuplicates: true)
        air.startScanning(unfiltered, active: false, filterDuplicates: false)
        air.startAdvertising(advertiser)
        air.run(until: 2_000_000)
        #expect(air.reports(scanner).map(\.eventType) == [.advInd, .scanRsp])
        #expect(air.reports(unfiltered).count > 10)
    }

    @Test("Scanning filter policy 0x01 reports only devices on the filter accept list")
    func filterAcceptList() {
        var air = TestAir()
        let listed = air.add(address: 0x11, seed: 1)
        let unlisted = air.add(address: 0x22, seed: 2)
        let scanner = air.add(address: 0x33, seed: 3)
        air.command(scanner, HCI.LEAddDeviceToFilterAcceptList(addressType: .public, address: air.address(listed)))
        air.startScanning(scanner, active: false, filterPolicy: .basicFiltered)
        let change = air.command(scanner, HCI.LEClearFilterAcceptList())
        #expect(change.first?.commandResult?.status == 0x0C, "the list is in use")
        air.startAdvertising(listed)
        air.startAdvertising(unlisted, interval: 0x00B0)
        air.run(until: 1_000_000)
        let addresses = Set(air.reports(scanner).map(\.address))
        #expect(addresses == [air.address(listed)])
    }

    @Test("Malformed air PDUs are ignored and counted, never trap")
    func malformedAirPDUs() throws {
        var air = TestAir()
        let scanner = air.add(address: 2, seed: 2)
        air.startScanning(scanner, active: true)
        let valid = LL.AdvertisingPDU(payload: .advInd(
            advertiserAddress: BluetoothAddress(0x0102_0304_0506), data: TestAir.advertisingData[...])).encoded()
        var mutations: [[UInt8]] = (0 ..< valid.count).map { Array(valid.prefix($0)) }
        mutations.append(valid + [0])
        for index in valid.indices {
            for bit in 0 ..< 8 {
                var flipped = valid
                flipped[index] ^= 1 << UInt8(bit)
                mutations.append(flipped)
            }
        }
        for (offset, pdu) in mutations.enumerated() {
            let transmission = RadioTransmission(
                channel: 37, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress, pdu: pdu,
                start: Microseconds(offset) * 10, txPowerDBm: 0)
            air.now = transmission.end
            air.input(scanner, .radio(RadioReception(transmission: transmission, rssi: -40)))
        }
        #expect(air.devices[scanner].controller.counters.malformedAirPDUs >= valid.count)
    }
}
