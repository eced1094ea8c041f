import BLEWire
import Testing

/// Joining the fragments of LE Extended Advertising Reports (Core 5.4, Vol 4, Part E,
/// §7.7.65.13): Data_Status 0b01 until 0b00 or 0b10, per advertiser, SID and kind.
@Suite("Extended advertising report reassembly")
struct LEExtendedAdvertisingReassemblyTests {
    typealias Report = HCI.LEExtendedAdvertisingReport.Report

    /// One fragment from `address` (random) in set `sid`.
    static func fragment(_ data: [UInt8], from address: UInt64, sid: UInt8 = 1,
                         status: HCI.LEExtendedAdvertisingReport.EventType.DataStatus, scanResponse: Bool = false) -> Report {
        Report(eventType: .init(scannable: scanResponse, scanResponse: scanResponse, dataStatus: status), addressType: .random,
               address: BluetoothAddress(address, kind: .random), primaryPHY: .le1M, secondaryPHY: .le2M, advertisingSID: sid,
               txPower: HCI.LEExtendedAdvertisingReport.notAvailable, rssi: -60, periodicAdvertisingInterval: 0,
               directAddressType: .public, directAddress: BluetoothAddress(0, kind: .public), data: data[...])
    }

    /// `count` octets numbered from `start`.
    static func octets(_ count: Int, from start: Int) -> [UInt8] { (0 ..< count).map { UInt8(truncatingIfNeeded: start + $0) } }

    @Test("Fragments \"more to come\" then \"complete\" come out as one advertisement, byte for byte")
    func joinsTrain() {
        var reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
        let parts = [Self.octets(229, from: 0), Self.octets(229, from: 229), Self.octets(100, from: 458)]
        #expect(reassembly.add(Self.fragment(parts[0], from: 1, status: .incompleteMoreToCome)) == nil)
        #expect(reassembly.add(Self.fragment(parts[1], from: 1, status: .incompleteMoreToCome)) == nil)
        #expect(reassembly.pendingCount == 1)
        let whole = reassembly.add(Self.fragment(parts[2], from: 1, status: .complete))
        #expect(whole?.truncated == false)
        #expect(whole.map { Array($0.entry.data) } == Self.octets(558, from: 0))
        #expect(reassembly.pendingCount == 0)
    }

    @Test("A train ended \"incomplete, truncated\" comes out marked truncated with the part that arrived")
    func truncatedTrain() {
        var reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
        #expect(reassembly.add(Self.fragment(Self.octets(229, from: 0), from: 1, status: .incompleteMoreToCome)) == nil)
        let cut = reassembly.add(Self.fragment([], from: 1, status: .incompleteTruncated))
        #expect(cut?.truncated == true)
        #expect(cut.map { Array($0.entry.data) } == Self.octets(229, from: 0))
        // The next advertisement from the same set starts afresh.
        let next = reassembly.add(Self.fragment([7], from: 1, status: .complete))
        #expect(next?.truncated == false)
        #expect(next.map { Array($0.entry.data) } == [7])
    }

    @Test("Interleaved trains of two advertisers, and of two sets and a scan response of one, stay apart")
    func interleaved() {
        var reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
        #expect(reassembly.add(Self.fragment([1, 1], from: 1, status: .incompleteMoreToCome)) == nil)
        #expect(reassembly.add(Self.fragment([2, 2], from: 2, status: .incompleteMoreToCome)) == nil)
        #expect(reassembly.add(Self.fragment([3], from: 1, sid: 2, status: .incompleteMoreToCome)) == nil)
        #expect(reassembly.add(Self.fragment([4], from: 1, status: .incompleteMoreToCome, scanResponse: true)) == nil)
        let second = reassembly.add(Self.fragment([2, 3], from: 2, status: .complete))
        let first = reassembly.add(Self.fragment([1, 2], from: 1, status: .complete))
        let otherSet = reassembly.add(Self.fragment([], from: 1, sid: 2, status: .incompleteTruncated))
        let response = reassembly.add(Self.fragment([5], from: 1, status: .complete, scanResponse: true))
        #expect(second.map { Array($0.entry.data) } == [2, 2, 2, 3])
        #expect(first.map { Array($0.entry.data) } == [1, 1, 1, 2])
        #expect(otherSet.map { Array($0.entry.data) } == [3] && otherSet?.truncated == true)
        #expect(response.map { Array($0.entry.data) } == [4, 5] && response?.entry.eventType.isScanResponse == true)
    }

    @Test("Data past 1,650 octets is cut there and reported truncated")
    func overlong() {
        var reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
        var result: HCI.LEExtendedAdvertisingReport.Reassembly.Advertisement?
        for index in 0 ..< 8 {
            result = reassembly.add(Self.fragment(Self.octets(229, from: index * 229), from: 1, status: .incompleteMoreToCome))
            if result != nil { break }
        }
        #expect(result?.truncated == true)
        #expect(result?.entry.data.count == HCI.LEExtendedAdvertisingReport.Reassembly.maximumLength)
    }

    @Test("Past the pending limit the oldest unfinished advertisement is dropped, counted, and its rest discarded")
    func pendingLimit() {
        var reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
        let limit = HCI.LEExtendedAdvertisingReport.Reassembly.pendingLimit
        for address in 0 ... UInt64(limit) {
            _ = reassembly.add(Self.fragment([UInt8(truncatingIfNeeded: address)], from: address + 1, status: .incompleteMoreToCome))
        }
        #expect(reassembly.dropped == 1)
        #expect(reassembly.pendingCount == limit)
        // The first advertiser's start was dropped: the rest of that advertisement is not
        // passed off as a whole one, and its next advertisement comes out whole.
        #expect(reassembly.add(Self.fragment([8], from: 1, status: .incompleteMoreToCome)) == nil)
        #expect(reassembly.add(Self.fragment([9], from: 1, status: .complete)) == nil)
        #expect(reassembly.add(Self.fragment([10], from: 1, status: .complete)).map { Array($0.entry.data) } == [10])
    }
}
