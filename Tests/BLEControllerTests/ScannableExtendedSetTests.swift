import BLEController
import BLEWire
import Testing

/// Scannable extended advertising sets (Core 5.4, Vol 4, Part E, §7.8.53–§7.8.56; Vol 6,
/// Part B, §2.3.2 and §4.4.2.7): AUX_SCAN_REQ T_IFS after the AUX_ADV_IND, AUX_SCAN_RSP T_IFS
/// after it, the scan response's AUX_CHAIN_INDs T_MAFS apart, reported with the scan response bit.
@Suite("Scannable extended sets")
struct ScannableExtendedSetTests {
    /// 1,000 octets that are not all alike.
    static let response: [UInt8] = (0 ..< 1000).map { UInt8(truncatingIfNeeded: $0 &* 11) }

    /// A scannable set with ``response`` as its scan response, and an extended scanner.
    static func air(active: Bool) -> (TestAir, advertiser: Int, scanner: Int) {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        let scanner = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        air.createSet(advertiser, handle: 0, sid: 3, properties: [.scannable])
        let size = HCI.maximumExtendedAdvertisingDataFragmentLength
        let starts = Array(stride(from: 0, to: response.count, by: size))
        for (number, start) in starts.enumerated() {
            let operation: HCI.AdvertisingDataOperation = number == 0 ? .firstFragment : number == starts.count - 1 ? .lastFragment : .intermediateFragment
            air.command(advertiser, HCI.LESetExtendedScanResponseData(
                advertisingHandle: 0, operation: operation, scanResponseData: response[start ..< min(start + size, response.count)]))
        }
        air.enableSets(advertiser, [.init(advertisingHandle: 0, duration: 0, maxExtendedAdvertisingEvents: 0)])
        air.startExtendedScanning(scanner, active: active)
        air.run(until: 400_000)
        return (air, advertiser, scanner)
    }

    @Test("Scannable and connectable at once is Invalid HCI Command Parameters, advertising data too; enabling without a scan response is Command Disallowed")
    func commands() {
        var air = TestAir()
        let device = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        #expect(air.createSet(device, handle: 0, properties: [.scannable, .connectable]) == 0x12)
        #expect(air.createSet(device, handle: 0, properties: [.scannable]) == 0x00)
        #expect(air.setExtendedData(device, handle: 0, [1, 2, 3]) == [0x12])
        #expect(air.enableSets(device, [.init(advertisingHandle: 0, duration: 0, maxExtendedAdvertisingEvents: 0)]) == 0x0C)
        air.createSet(device, handle: 1)
        #expect(air.setExtendedData(device, handle: 1, [1, 2, 3]) == [0x00])
        #expect(air.createSet(device, handle: 1, properties: [.scannable]) == 0x12, "a set holding data may not become scannable")
    }

    @Test("An active scan sends AUX_SCAN_REQ T_IFS after the AUX_ADV_IND; the AUX_SCAN_RSP follows T_IFS later and its chain T_MAFS-rounded apart")
    func exchangeTiming() throws {
        let (air, advertiser, scanner) = Self.air(active: true)
        let request = try #require(air.advertisingPDUs(from: scanner).first { $0.pdu.pduType == .scanReq })
        let sent = air.extendedPDUs(from: advertiser)
        let auxiliary = try #require(sent.last {
            $0.transmission.channel <= 36 && $0.transmission.end <= request.transmission.start && $0.payload.mode == .scannable
        })
        #expect(request.transmission.start == auxiliary.transmission.end + 150)
        #expect(request.transmission.channel == auxiliary.transmission.channel && request.transmission.duration == (1 + 4 + 14 + 3) * 8)
        let chain = sent.filter { $0.transmission.start > request.transmission.start }.prefix(5)
        #expect(chain.first?.transmission.start == request.transmission.end + 150)
        #expect(chain.first?.payload.advertiserAddress == air.address(advertiser))
        for (packet, next) in zip(chain, chain.dropFirst()) where packet.payload.auxiliaryPointer != nil {
            let pointer = try #require(packet.payload.auxiliaryPointer)
            #expect(next.transmission.start - packet.transmission.start == pointer.offsetMicroseconds)
            #expect(pointer.offsetMicroseconds == ExtendedAdvertisingTiming.minimumAuxiliaryOffset(after: packet.transmission.duration))
            #expect(next.transmission.channel == pointer.channelIndex)
        }
    }

    @Test("The active scanner's host gets the 1,000-octet scan response whole, with the scannable and scan response bits")
    func activeScanGetsResponse() throws {
        let (air, _, scanner) = Self.air(active: true)
        let responses = air.extendedReports(scanner).filter { $0.eventType.isScanResponse }
        #expect(!responses.isEmpty && responses.allSatisfy { $0.eventType.isScannable && $0.advertisingSID == 3 })
        var joined: [UInt8] = []
        for report in responses {
            joined += report.data
            if report.eventType.dataStatus == .complete { break }
        }
        #expect(joined == Self.response)
    }

    @Test("A passive scanner reports the scannable advertisement and asks for nothing")
    func passiveScan() {
        let (air, _, scanner) = Self.air(active: false)
        #expect(air.advertisingPDUs(from: scanner).isEmpty)
        let reports = air.extendedReports(scanner)
        #expect(!reports.isEmpty && reports.allSatisfy { $0.eventType.isScannable && !$0.eventType.isScanResponse && $0.data.isEmpty })
    }
}
