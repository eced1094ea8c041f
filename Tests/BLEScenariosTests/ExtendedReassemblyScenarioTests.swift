import BLEController
import BLEScenarios
import BLEWire
import BLEWorld
import Testing

/// A scenario observer reading extended advertising data longer than one LE Extended
/// Advertising Report (Core 5.4, Vol 4, Part E, §7.7.65.13): the fragments are joined per
/// advertiser and set, a train cut short by a lost AUX_CHAIN_IND is reported truncated and
/// counted, and neither is read as a whole advertisement.
@Suite("Scenario observers reassemble extended advertising data")
struct ExtendedReassemblyScenarioTests {
    static let uuid = "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51"

    /// 780 octets: the iBeacon structure first (so that only the first fragment carries it),
    /// then three Manufacturer Specific Data structures of 250 octets (company 0xFFFF).
    static let data: [UInt8] = {
        let frame = ScenarioAdvertisingContent.IBeacon(uuid: 0x8A6E_3C2D_5B1F_4E07_9C44_2F1D_0B7A_3E51, major: 1, minor: 2)
        let iBeacon: [UInt8] = [26, 0xFF, 0x4C, 0x00] + ScenarioAdvertisingContent.iBeaconPayload(frame)
        let filler = (0 ..< 3).flatMap { part -> [UInt8] in [249, 0xFF, 0xFF, 0xFF] + (0 ..< 246).map { UInt8(truncatingIfNeeded: part * 7 + $0) } }
        return iBeacon + filler
    }()

    /// A beacon 3 m from a gateway scanning extended on LE 1M, the beacon's 780 octets in an
    /// AUX_ADV_IND and AUX_CHAIN_INDs (four reports of at most 229 octets).
    static let yaml = """
        name: long extended advertising
        seed: 11
        devices:
          - name: beacon
            address: "C0:00:00:00:00:01"
            addressType: random
            position: [0, 0, 1]
            txPower: 0
            advertise: {type: nonconn_ind, interval: 100, extended: true, raw: "\(data.map { String(format: "%02x", $0) }.joined())"}
          - name: gateway
            address: "C0:00:00:00:00:02"
            addressType: random
            position: [3, 0, 1]
            scan: {interval: 100, window: 100, extended: true}
            observe:
              monitor: [{identifier: stop, uuid: \(uuid)}]
        """

    /// Runs the scenario for `seconds` with `loss` of the packets between beacon and gateway,
    /// returning the runner and every advertisement the gateway's scan completed.
    static func run(seconds: Double, loss: Double = 0) throws -> (ScenarioRunner, ScenarioTimeline, [ScannedAdvertisement]) {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "long.yaml")
        let runner = try ScenarioRunner(scenario: scenario)
        let beacon = try #require(runner.built.id(of: "beacon"))
        let gateway = try #require(runner.built.id(of: "gateway"))
        if loss > 0 { runner.world.setPacketLoss(loss, between: beacon, and: gateway) }
        var heard: [ScannedAdvertisement] = []
        runner.onAdvertisement = { observer, advertisement in
            if observer == "gateway" { heard.append(advertisement) }
        }
        let timeline = runner.run(until: seconds)
        return (runner, timeline, heard)
    }

    @Test("A 780-octet advertisement in four reports reaches the observer whole, byte for byte, and its iBeacon is read")
    func wholeTrain() throws {
        let (runner, timeline, heard) = try Self.run(seconds: 3)
        #expect(Self.data.count > 3 * HCI.LEExtendedAdvertisingReport.maximumDataLength)
        let whole = heard.filter { !$0.truncated }
        #expect(whole.count >= 20)
        #expect(whole.allSatisfy { $0.data == Self.data && $0.address == BluetoothAddress(0xC0_00_00_00_00_01, kind: .random) })
        // Each whole advertisement is one reception of the beacon; the iBeacon is only in the
        // first fragment, so without reassembly none would be.
        #expect(timeline.receptions(of: "gateway").count == whole.count)
        #expect(!timeline.events(of: "gateway", "enter").isEmpty)
        let counts = runner.advertisementCounts(of: "gateway")
        #expect(counts.whole == whole.count && counts.truncated == heard.count - whole.count)
    }

    @Test("A lost AUX_CHAIN_IND gives a truncated advertisement: reported and counted, its part only, never read as whole")
    func lostChainPacket() throws {
        let (runner, timeline, heard) = try Self.run(seconds: 20, loss: 0.3)
        let truncated = heard.filter(\.truncated)
        let whole = heard.filter { !$0.truncated }
        #expect(!truncated.isEmpty && !whole.isEmpty)
        #expect(whole.allSatisfy { $0.data == Self.data })
        // What arrived of a truncated train is the start of the data, never all of it.
        #expect(truncated.allSatisfy { $0.data.count < Self.data.count && Array(Self.data.prefix($0.data.count)) == $0.data })
        // Truncated ones carrying the whole iBeacon structure are not read as beacons.
        #expect(truncated.contains { $0.data.count >= 30 })
        #expect(timeline.receptions(of: "gateway").count == whole.count)
        let counts = runner.advertisementCounts(of: "gateway")
        #expect(counts == ScannedAdvertisement.Counts(whole: whole.count, truncated: truncated.count, dropped: 0))
    }

    /// An LE Extended Advertising Report event of one fragment.
    static func event(_ data: [UInt8], from address: UInt64,
                      status: HCI.LEExtendedAdvertisingReport.EventType.DataStatus) -> HCI.Event {
        .leMeta(.extendedAdvertisingReport(HCI.LEExtendedAdvertisingReport(reports: [HCI.LEExtendedAdvertisingReport.Report(
            eventType: .init(dataStatus: status), addressType: .random, address: BluetoothAddress(address, kind: .random),
            primaryPHY: .le1M, secondaryPHY: .le1M, advertisingSID: 3, txPower: 127, rssi: -70, periodicAdvertisingInterval: 0,
            directAddressType: .public, directAddress: BluetoothAddress(0, kind: .public), data: data[...])])))
    }

    @Test("Interleaved trains from two advertisers come out as two advertisements, each whole")
    func interleavedTrains() {
        var reassembly = ScannedAdvertisement.Reassembly()
        #expect(reassembly.advertisements(in: Self.event([1, 2], from: 1, status: .incompleteMoreToCome)) == [])
        #expect(reassembly.advertisements(in: Self.event([7, 8], from: 2, status: .incompleteMoreToCome)) == [])
        let second = reassembly.advertisements(in: Self.event([9], from: 2, status: .complete))
        let first = reassembly.advertisements(in: Self.event([3], from: 1, status: .complete))
        #expect(second?.map(\.data) == [[7, 8, 9]] && second?.first?.address == BluetoothAddress(2, kind: .random))
        #expect(first?.map(\.data) == [[1, 2, 3]] && first?.first?.truncated == false)
        #expect(reassembly.advertisements(in: Self.event([4], from: 1, status: .incompleteMoreToCome)) == [])
        let cut = reassembly.advertisements(in: Self.event([], from: 1, status: .incompleteTruncated))
        #expect(cut?.map(\.data) == [[4]] && cut?.first?.truncated == true)
        #expect(reassembly.counts == ScannedAdvertisement.Counts(whole: 2, truncated: 1))
        #expect(reassembly.advertisements(in: .leMeta(.advertisingSetTerminated(HCI.LEAdvertisingSetTerminated(
            status: .success, advertisingHandle: 0, connectionHandle: 0, numCompletedExtendedAdvertisingEvents: 0)))) == nil)
    }
}
