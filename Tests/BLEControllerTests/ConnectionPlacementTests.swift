@testable import BLEController
import Testing

/// Where a central puts a new link's anchors among its existing links (Core 5.4, Vol 6,
/// Part B, §4.5.3: the initiator picks windowOffset).
@Suite("Placing a new link between existing ones")
struct ConnectionPlacementTests {
    @Test("Without other links the transmit window starts at once (windowOffset 0)")
    func alone() {
        #expect(Initiator.windowOffset(firstWindow: 5_000, interval: 40, existingLinks: []) == 0)
    }

    @Test("A link of the same interval is placed half an interval from the existing one")
    func halfwayAcrossOne() {
        // Existing anchors at 10 ms + n·50 ms; the new window starts at 12 ms. Offset 18
        // (22.5 ms) puts the new anchors 24.5 ms after the existing ones, the best in 1.25 ms steps.
        let existing = [LinkSchedule(start: 10_000, interval: 50_000)]
        #expect(Initiator.windowOffset(firstWindow: 12_000, interval: 40, existingLinks: existing) == 18)
    }

    @Test("A third link goes into the middle of the larger gaps between two")
    func betweenTwo() {
        let existing = [LinkSchedule(start: 0, interval: 50_000), LinkSchedule(start: 25_000, interval: 50_000)]
        let offset = Initiator.windowOffset(firstWindow: 1_250, interval: 40, existingLinks: existing)
        let phase = (1_250 + Int64(offset) * 1_250) % 25_000
        #expect(abs(phase - 12_500) <= 625, "offset \(offset) gives phase \(phase)")
    }

    @Test("A link of a shorter interval keeps clear of a longer one over its first second")
    func differentIntervals() {
        // 7.5 ms link next to a 30 ms one: every fourth 7.5 ms anchor meets the same 30 ms
        // phase, so the best is 3.75 ms away.
        let existing = [LinkSchedule(start: 0, interval: 30_000)]
        let offset = Initiator.windowOffset(firstWindow: 1_250, interval: 6, existingLinks: existing)
        let phase = (1_250 + Int64(offset) * 1_250) % 7_500
        #expect(phase == 3_750, "offset \(offset) gives phase \(phase)")
    }
}
