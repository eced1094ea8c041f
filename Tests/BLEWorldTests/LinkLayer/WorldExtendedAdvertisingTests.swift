import BLEController
import BLEWire
import BLEWorld
import Testing

/// Extended advertising between real controllers in the world: path loss, collisions and
/// the world's receiver rules apply to the auxiliary packets as to every other.
@Suite("Extended advertising in the world")
struct WorldExtendedAdvertisingTests {
    static let data: [UInt8] = (0 ..< 1650).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }

    @Test("1,650 octets reach an extended scanner 3 m away through the AUX chain, byte for byte; a legacy scanner hears none of it")
    func longDataInTheWorld() {
        let hosted = HostedWorld(seed: 11)
        let advertiser = hosted.add("advertiser", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1)
        let scanner = hosted.add("extended scanner", at: Vector3(x: 3, y: 0), address: 0xF0_00_00_00_00_02, seed: 2)
        let legacy = hosted.add("legacy scanner", at: Vector3(x: 0, y: 3), address: 0xF0_00_00_00_00_03, seed: 3)
        hosted.command(scanner, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(.extendedAdvertisingReport)))
        hosted.command(scanner, HCI.LESetExtendedScanParameters(
            ownAddressType: .public, le1M: .init(scanType: .passive, scanInterval: 0x00A0, scanWindow: 0x00A0)))
        hosted.command(scanner, HCI.LESetExtendedScanEnable(enable: true))
        hosted.scan(legacy)
        hosted.command(advertiser, HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: [], primaryAdvertisingIntervalMin: 0x00A0,
            primaryAdvertisingIntervalMax: 0x00A0, ownAddressType: .public, secondaryAdvertisingPHY: .le2M, advertisingSID: 9))
        let size = HCI.maximumExtendedAdvertisingDataFragmentLength
        let starts = Array(stride(from: 0, to: Self.data.count, by: size))
        for (number, start) in starts.enumerated() {
            let operation: HCI.AdvertisingDataOperation = number == 0 ? .firstFragment
                : number == starts.count - 1 ? .lastFragment : .intermediateFragment
            let answer = hosted.command(advertiser, HCI.LESetExtendedAdvertisingData(
                advertisingHandle: 0, operation: operation, advertisingData: Self.data[start ..< min(start + size, Self.data.count)]))
            #expect(answer.flatMap(Self.status) == 0x00)
        }
        let enabled = hosted.command(advertiser, HCI.LESetExtendedAdvertisingEnable(enable: true, sets: [.init(advertisingHandle: 0)]))
        #expect(enabled.flatMap(Self.status) == 0x00)
        hosted.world.run(until: hosted.world.now + 2_000_000)

        var messages: [[UInt8]] = []
        var pending: [UInt8] = []
        for item in hosted.events[scanner.rawValue] {
            guard case let .leMeta(.extendedAdvertisingReport(event)) = item.event else { continue }
            for report in event.reports {
                #expect(report.address == BluetoothAddress(0xF0_00_00_00_00_01) && report.advertisingSID == 9 && report.secondaryPHY == .le2M)
                pending += report.data
                if report.eventType.dataStatus == .complete {
                    messages.append(pending)
                    pending = []
                }
            }
        }
        // About one event in three starts on the channel the scanner listens to over 2 s of 100 ms events.
        #expect(messages.count >= 3)
        #expect(messages.allSatisfy { $0 == Self.data })
        #expect(hosted.reports(legacy).isEmpty)
    }

    static func status(_ event: HCI.Event) -> UInt8? {
        if case let .commandComplete(done) = event { return done.returnParameters.first }
        return nil
    }
}
