import BLEBench
import BLEWire
import Testing

/// The analytic ATT ceiling `ble bench notify` reports, against figures worked out by hand
/// from Core 5.4, Vol 6, Part B, §2.1 (airtimes) and §4.1.1 (T_IFS = 150 µs).
@Suite("ATT notification ceiling from airtimes")
struct ATTCeilingTests {
    @Test("244-octet values, 251-octet PDUs, LE 2M, 7.5 ms: five 1392 µs exchanges per event")
    func fullPDUs() {
        let ceiling = ATTCeiling(size: 244, dataLength: 251, phy: .le2M, intervalMicroseconds: 7_500)
        #expect(ceiling.pdusPerEvent == 5)
        #expect(abs(ceiling.notificationsPerSecond - 2000.0 / 3) < 1e-9)
        #expect(abs(ceiling.bytesPerSecond * 8 - 1_301_333.33) < 1)
    }

    @Test("20-octet values in 27-octet PDUs, LE 2M: fifteen 496 µs exchanges; LE 1M: 80 + 150 + 296 + 150 µs, eleven")
    func shortPDUs() {
        let fast = ATTCeiling(size: 20, dataLength: 251, phy: .le2M, intervalMicroseconds: 7_500)
        #expect(fast.pdusPerEvent == 15)
        #expect(fast.notificationsPerSecond == 2000)
        let slow = ATTCeiling(size: 20, dataLength: 27, phy: .le1M, intervalMicroseconds: 7_500)
        #expect(slow.pdusPerEvent == 11)
        #expect(abs(slow.notificationsPerSecond - 11 / 0.0075) < 1e-9)
    }

    @Test("a value in two PDUs (407-octet frame: 251 + 156) walks events until the pattern repeats")
    func fragmented() {
        // Exchanges of 1392 µs and 44 + 150 + 4·(2+4+2+156+3) + 150 = 1012 µs: the
        // event ends after 251,156,251,156,251,156 at 7212 µs (one more 1392 would pass
        // 7500), three whole values, and the next event starts with a new value again.
        let ceiling = ATTCeiling(size: 400, dataLength: 251, phy: .le2M, intervalMicroseconds: 7_500)
        #expect(abs(ceiling.notificationsPerSecond - 3 / 0.0075) < 1e-9)
        #expect(ceiling.pdusPerEvent == 6)
    }
}
