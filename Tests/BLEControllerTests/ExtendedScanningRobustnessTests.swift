import BLEController
import BLEWire
import Testing

/// Extended advertising PDUs from a peer that breaks the rules: the scanner neither traps
/// nor follows them where they may not lead.
@Suite("Extended scanning against bad PDUs")
struct ExtendedScanningRobustnessTests {
    typealias Payload = LL.ExtendedAdvertisingPayload
    static let adi = Payload.AdvertisingDataInfo(dataID: 1, setID: 2)
    static let advertiser = BluetoothAddress(0xA1)

    /// Hands device 0 a packet of `payload` that starts at the air's current time, then moves time to its end.
    static func deliver(_ payload: Payload, channel: UInt8, to air: inout TestAir) {
        let transmission = RadioTransmission(
            channel: channel, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: payload.pdu.encoded(), start: air.now, txPowerDBm: 0)
        air.run(until: transmission.end)
        air.input(0, .radio(RadioReception(transmission: transmission, rssi: -50)))
    }

    static func pointer(channel: UInt8) -> Payload.AuxiliaryPointer {
        Payload.AuxiliaryPointer(channelIndex: channel, offsetUnit: .thirty, offset: 100, phy: .le1M)
    }

    @Test("An ADV_EXT_IND whose AuxPtr names channel 50, or a reserved AdvMode, is counted as malformed and not followed")
    func badPointer() {
        var air = TestAir()
        air.add(address: 0xB2, seed: 2)
        air.startExtendedScanning(0)
        air.run(until: 1000)
        Self.deliver(Payload(dataInfo: Self.adi, auxiliaryPointer: Self.pointer(channel: 50)), channel: 37, to: &air)
        let reserved = RadioTransmission(
            channel: 37, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: [0x07, 0x01, 0xC0], start: air.now, txPowerDBm: 0)
        air.run(until: reserved.end)
        air.input(0, .radio(RadioReception(transmission: reserved, rssi: -50)))
        air.run(until: 200_000)
        #expect(air.devices[0].controller.counters.malformedAirPDUs == 2)
        #expect(air.extendedReports(0).isEmpty)
        #expect(air.devices[0].windows.allSatisfy { ($0.window?.channel ?? 37) >= 37 }, "the receiver never left the primary channels")
    }

    @Test("A chain that goes on past 1,650 octets is cut and reported truncated")
    func endlessChain() {
        var air = TestAir()
        air.add(address: 0xB2, seed: 2)
        air.startExtendedScanning(0)
        air.run(until: 1000)
        Self.deliver(Payload(dataInfo: Self.adi, auxiliaryPointer: Self.pointer(channel: 5)), channel: 37, to: &air)
        var sent = 0
        var start: Microseconds = 1000
        for index in 0 ..< 10 {
            // Each packet starts where the previous one's AuxPtr points: 100 × 30 µs after its start.
            start += 3000
            air.run(until: start)
            let data = [UInt8](repeating: UInt8(index), count: index == 0 ? 240 : 248)
            sent += data.count
            Self.deliver(Payload(
                advertiserAddress: index == 0 ? Self.advertiser : nil, dataInfo: Self.adi, auxiliaryPointer: Self.pointer(channel: 5),
                data: data[...]), channel: 5, to: &air)
        }
        let reports = air.extendedReports(0)
        let statuses = reports.compactMap(\.eventType.dataStatus)
        #expect(statuses.last == .incompleteTruncated)
        #expect(statuses.dropLast().allSatisfy { $0 == .incompleteMoreToCome })
        #expect(statuses.filter { $0 == .incompleteTruncated }.count == 1)
        let reported = reports.reduce(0) { $0 + $1.data.count }
        #expect(reported <= 1650 && reported > 1400 && sent > 1650)
    }

    @Test("A packet in a chain's window that names another advertiser is another set's AUX_ADV_IND, not the chain's AUX_CHAIN_IND: it is not joined on, and the chain ends truncated")
    func otherAdvertisersPacketInWindow() {
        var air = TestAir()
        air.add(address: 0xB2, seed: 2)
        air.startExtendedScanning(0)
        air.run(until: 1000)
        Self.deliver(Payload(dataInfo: Self.adi, auxiliaryPointer: Self.pointer(channel: 5)), channel: 37, to: &air)
        air.run(until: 4000)
        let own = [UInt8](repeating: 0x11, count: 100)
        Self.deliver(Payload(advertiserAddress: Self.advertiser, dataInfo: Self.adi, auxiliaryPointer: Self.pointer(channel: 5),
                             data: own[...]), channel: 5, to: &air)
        // Where the chain's next packet is due, another advertiser's AUX_ADV_IND with the same ADI.
        air.run(until: 7000)
        let other = [UInt8](repeating: 0x22, count: 50)
        Self.deliver(Payload(advertiserAddress: BluetoothAddress(0xC3), dataInfo: Self.adi, data: other[...]), channel: 5, to: &air)
        air.run(until: 200_000)
        let reports = air.extendedReports(0)
        #expect(reports.map(\.eventType.dataStatus) == [.incompleteMoreToCome, .incompleteTruncated])
        #expect(reports.allSatisfy { $0.address == Self.advertiser })
        #expect(reports.flatMap(\.data) == own)
    }
}
