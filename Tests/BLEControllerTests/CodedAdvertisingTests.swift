import BLEController
import BLEWire
import Testing

/// Extended advertising and scanning on LE Coded (Core 5.4, Vol 6, Part B, §2.2, §2.3.4.5,
/// §4.4.2–§4.4.3; Vol 4, Part E, §7.8.53, §7.8.64, §7.7.65.13), on controllers that claim
/// extended advertising and with it the LE Coded PHY feature.
@Suite("LE Coded advertising and scanning")
struct CodedAdvertisingTests {
    static let unsupportedValue: UInt8 = 0x11
    static let invalidParameters: UInt8 = 0x12
    /// 600 octets: an AUX_ADV_IND and two AUX_CHAIN_INDs.
    static let data: [UInt8] = (0 ..< 600).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }

    /// LE Coded airtime from §2.2's fields: 80 µs preamble, 37 bits at S=8 (AA, CI, TERM1),
    /// then PDU, CRC and TERM2 at 8 µs a bit.
    static func airtimeS8(_ pduOctets: Int) -> Microseconds { 80 + 37 * 8 + Microseconds(pduOctets * 8 + 24 + 3) * 8 }

    /// An advertiser (device 0) with set 0 on `primary` and `secondary`, and a scanner (device 1)
    /// on the PHYs asked for.
    static func world(primary: HCI.PHY = .leCoded, secondary: HCI.PHY = .leCoded, scanOneMegabit: Bool = false,
                      scanCoded: Bool = true) -> TestAir {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        let scanner = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        air.startExtendedScanning(scanner, oneMegabit: scanOneMegabit, coded: scanCoded)
        #expect(air.createSet(advertiser, handle: 0, sid: 3, primaryPHY: primary, secondaryPHY: secondary) == 0x00)
        air.setExtendedData(advertiser, handle: 0, data)
        #expect(air.enableSets(advertiser, [.init(advertisingHandle: 0)]) == 0x00)
        return air
    }

    @Test("A Coded set sends every PDU at S=8 with §2.2's airtimes, and each AuxPtr names LE Coded and points exactly")
    func codedEvent() {
        var air = Self.world()
        air.run(until: 200_000)
        let pdus = air.extendedPDUs(from: 0)
        let firstEvent = pdus.filter { $0.transmission.start < 100_000 }
        let primary = firstEvent.filter { $0.transmission.channel >= 37 }
        let auxiliary = firstEvent.filter { $0.transmission.channel < 37 }
        #expect(primary.map(\.transmission.channel) == [37, 38, 39])
        #expect(auxiliary.count == 3)
        for (transmission, _) in firstEvent {
            #expect(transmission.phy == .leCoded(.s8))
            #expect(transmission.duration == Self.airtimeS8(transmission.pdu.count))
        }
        // ADV_EXT_IND: 9 octets, 1,168 µs at S=8 (136 µs on 1M).
        #expect(primary.allSatisfy { $0.transmission.duration == 1168 })
        let chain = primary + auxiliary
        for (index, item) in chain.enumerated() {
            guard let pointer = item.payload.auxiliaryPointer else {
                #expect(index == chain.count - 1)
                continue
            }
            let target = index < primary.count ? auxiliary[0] : chain[index + 1]
            #expect(pointer.phy == .leCoded)
            #expect(pointer.offsetUnit == .thirty)
            #expect(item.transmission.start + pointer.offsetMicroseconds == target.transmission.start)
            #expect(target.transmission.start - item.transmission.end >= 300, "T_MAFS")
        }
        // A full 257-octet AUX PDU lasts 17,040 µs at S=8.
        #expect(auxiliary.first.map { $0.transmission.pdu.count == 257 && $0.transmission.duration == 17_040 } == true)
    }

    /// LE Coded airtime at S=2: FEC block 2 at 2 µs a bit.
    static func airtimeS2(_ pduOctets: Int) -> Microseconds { 80 + 37 * 8 + Microseconds(pduOctets * 8 + 24 + 3) * 2 }

    @Test("[v2]'s PHY options choose the coding: S=2 on the primary channels and S=8 on the secondary, each with its airtime")
    func codingChosen() {
        var air = TestAir()
        let advertiser = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        let scanner = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        air.startExtendedScanning(scanner, oneMegabit: false, coded: true)
        let parameters = HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: [], primaryAdvertisingIntervalMin: 0xA0, primaryAdvertisingIntervalMax: 0xA0,
            ownAddressType: .public, primaryAdvertisingPHY: .leCoded, secondaryAdvertisingPHY: .leCoded, advertisingSID: 4)
        let answer = air.command(advertiser, HCI.LESetExtendedAdvertisingParametersV2(
            parameters, primaryAdvertisingPHYOptions: .requireS2, secondaryAdvertisingPHYOptions: .preferS8))
        #expect(answer.first?.commandResult?.status == 0x00)
        air.setExtendedData(advertiser, handle: 0, Self.data)
        air.enableSets(advertiser, [.init(advertisingHandle: 0)])
        air.run(until: 1_000_000)
        let pdus = air.extendedPDUs(from: advertiser)
        let primary = pdus.filter { $0.transmission.channel >= 37 }
        let auxiliary = pdus.filter { $0.transmission.channel < 37 }
        #expect(!primary.isEmpty && primary.allSatisfy { $0.transmission.phy == .leCoded(.s2) && $0.transmission.duration == Self.airtimeS2(9) })
        #expect(primary.first?.transmission.duration == 574)
        #expect(!auxiliary.isEmpty && auxiliary.allSatisfy { $0.transmission.phy == .leCoded(.s8) })
        // The scanner takes either coding, and reports LE Coded.
        #expect(air.reassembled(scanner).contains { $0.status == .complete && $0.data == Self.data && $0.sid == 4 })
        #expect(air.extendedReports(scanner).allSatisfy { $0.primaryPHY == .leCoded && $0.secondaryPHY == .leCoded })
        // A controller without the LE Coded PHY feature refuses [v2] on Coded as it refuses [v1].
        let plain = air.add(address: 0xC3, seed: 3)
        #expect(air.command(plain, HCI.LESetExtendedAdvertisingParametersV2(parameters, primaryAdvertisingPHYOptions: .requireS2))
            .first?.commandResult?.status == Self.unsupportedValue)
    }

    @Test("A Coded scanner receives a Coded set's 600 octets, reported with Primary_PHY and Secondary_PHY LE Coded")
    func codedScan() {
        var air = Self.world()
        air.run(until: 1_000_000)
        let messages = air.reassembled(1)
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { $0.status == .complete && $0.data == Self.data && $0.sid == 3 })
        let reports = air.extendedReports(1)
        #expect(reports.allSatisfy { $0.primaryPHY == .leCoded && $0.secondaryPHY == .leCoded })
    }

    @Test("A Coded primary with an LE 1M or 2M secondary is reported so", arguments: [HCI.PHY.le1M, .le2M])
    func codedPrimaryOnly(secondary: HCI.PHY) {
        var air = Self.world(secondary: secondary)
        air.run(until: 1_000_000)
        #expect(air.reassembled(1).contains { $0.status == .complete && $0.data == Self.data })
        #expect(air.extendedReports(1).allSatisfy { $0.primaryPHY == .leCoded && $0.secondaryPHY == secondary })
    }

    @Test("A 1M scanner hears nothing of a Coded set; a Coded scanner nothing of a 1M set")
    func physDoNotMix() {
        var oneMegabit = Self.world(scanOneMegabit: true, scanCoded: false)
        oneMegabit.run(until: 1_000_000)
        #expect(oneMegabit.extendedReports(1).isEmpty)
        var coded = Self.world(primary: .le1M, secondary: .le1M)
        coded.run(until: 1_000_000)
        #expect(coded.extendedReports(1).isEmpty)
    }

    @Test("Scanning 1M and Coded in turn hears a 1M set and a Coded set, each on its own PHY")
    func bothPHYs() {
        var air = TestAir()
        let scanner = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        let oneMegabit = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        let coded = air.add(address: 0xA3, seed: 3, claimsExtendedAdvertising: true)
        air.startExtendedScanning(scanner, oneMegabit: true, coded: true)
        air.createSet(oneMegabit, handle: 0, sid: 1)
        air.createSet(coded, handle: 0, sid: 2, primaryPHY: .leCoded, secondaryPHY: .leCoded)
        for device in [oneMegabit, coded] {
            air.setExtendedData(device, handle: 0, Array(Self.data.prefix(100)))
            air.enableSets(device, [.init(advertisingHandle: 0)])
        }
        air.run(until: 3_000_000)
        let reports = air.extendedReports(scanner).filter { $0.eventType.dataStatus == .complete }
        let fromOneMegabit = reports.filter { $0.address == BluetoothAddress(0xA1) }
        let fromCoded = reports.filter { $0.address == BluetoothAddress(0xA3) }
        #expect(!fromOneMegabit.isEmpty && fromOneMegabit.allSatisfy { $0.primaryPHY == .le1M && $0.advertisingSID == 1 })
        #expect(!fromCoded.isEmpty && fromCoded.allSatisfy { $0.primaryPHY == .leCoded && $0.advertisingSID == 2 })
        // The receiver took the PHYs in turn: its windows alternate between 1M and Coded.
        let phys = air.devices[scanner].windows.compactMap { $0.window }.filter { $0.channel >= 37 }.map(\.phy)
        #expect(phys.contains(.le1M) && phys.contains(.leCoded(.s8)))
    }

    @Test("Only a controller that claims extended advertising reports the LE Coded PHY feature and accepts Coded")
    func featureAndRefusals() {
        var air = TestAir()
        let plain = air.add(address: 1, seed: 1)
        let extended = air.add(address: 2, seed: 2, claimsExtendedAdvertising: true)
        func features(_ device: Int) -> HCI.LEFeatures? {
            guard case let .commandComplete(complete)? = air.command(device, HCI.LEReadLocalSupportedFeatures()).first else { return nil }
            return try? complete.returnParameters(for: HCI.LEReadLocalSupportedFeatures.self).leFeatures
        }
        #expect(features(plain).map { !$0.contains(.leCodedPHY) } == true)
        #expect(features(extended).map { $0.contains(.leCodedPHY) } == true)
        // Without the feature: Unsupported Feature or Parameter Value for any Coded PHY.
        #expect(air.createSet(plain, handle: 0, primaryPHY: .leCoded) == Self.unsupportedValue)
        #expect(air.createSet(plain, handle: 0, secondaryPHY: .leCoded) == Self.unsupportedValue)
        let phy = HCI.LESetExtendedScanParameters.PHYParameters(scanType: .passive, scanInterval: 0x10, scanWindow: 0x10)
        #expect(air.command(plain, HCI.LESetExtendedScanParameters(ownAddressType: .public, le1M: nil, leCoded: phy))
            .first?.commandResult?.status == Self.unsupportedValue)
        // With it: Coded is accepted; LE 2M stays reserved on the primary channels; legacy PDUs are 1M only.
        #expect(air.createSet(extended, handle: 0, primaryPHY: .leCoded, secondaryPHY: .leCoded) == 0x00)
        #expect(air.createSet(extended, handle: 1, primaryPHY: .le2M) == Self.unsupportedValue)
        #expect(air.createSet(extended, handle: 1, primaryPHY: .leCoded, properties: [.legacy]) == Self.invalidParameters)
        #expect(air.command(extended, HCI.LESetExtendedScanParameters(ownAddressType: .public, le1M: phy, leCoded: phy))
            .first?.commandResult?.status == 0x00)
        let wide = HCI.LESetExtendedScanParameters.PHYParameters(scanType: .passive, scanInterval: 0x10, scanWindow: 0x20)
        #expect(air.command(extended, HCI.LESetExtendedScanParameters(ownAddressType: .public, le1M: phy, leCoded: wide))
            .first?.commandResult?.status == Self.invalidParameters)
        // Reserved Scanning_PHYs bits (here bit 1, LE 2M) do not decode: Invalid HCI Command Parameters.
        let reserved = HCI.CommandPacket(opcode: HCI.LESetExtendedScanParameters.opcode, parameters: [0x00, 0x00, 0x02, 0x00, 0x10, 0x00, 0x10, 0x00])
        #expect(air.raw(extended, reserved).first?.commandResult?.status == Self.invalidParameters)
    }
}
