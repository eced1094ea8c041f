@testable import BLEController
import BLEWire
import Testing

/// Duplicate filtering of legacy scanning (LE Set Scan Enable, Core 5.4, Vol 4, Part E,
/// §7.8.11): the scanner remembers what it reported only while filtering is on.
@Suite("Legacy scanning's duplicate filtering")
struct LegacyScannerDuplicateTests {
    @Test("Duplicate filtering turned on mid-scan reports each advertiser once more, then never again")
    func filteringTurnedOnMidScan() {
        var air = TestAir()
        let early = air.add(address: 1, seed: 1)
        let late = air.add(address: 4, seed: 4)
        let scanner = air.add(address: 2, seed: 2)
        air.startScanning(scanner, active: false, filterDuplicates: false)
        air.startAdvertising(early)
        air.run(until: 1_000_000)
        let unfiltered = air.reports(scanner).count
        #expect(unfiltered > 2, "reported over and over while filtering is off")
        let enable = air.command(scanner, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: true))
        #expect(enable.first?.commandResult?.status == 0x00)
        air.startAdvertising(late, interval: 0x00B0)
        air.run(until: 2_000_000)
        let filtered = air.reports(scanner).dropFirst(unfiltered)
        #expect(filtered.count == 2)
        #expect(Set(filtered.map(\.address)) == [air.address(early), air.address(late)])
        #expect(filtered.allSatisfy { $0.eventType == .advInd })
        // Off again: everything is reported, and nothing is remembered for the next time on.
        #expect(air.command(scanner, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false)).first?.commandResult?.status == 0x00)
        air.run(until: 3_000_000)
        let unfilteredAgain = air.reports(scanner).count - unfiltered - 2
        #expect(unfilteredAgain > 4)
        #expect(air.command(scanner, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: true)).first?.commandResult?.status == 0x00)
        air.run(until: 4_000_000)
        #expect(air.reports(scanner).count - unfiltered - 2 - unfilteredAgain == 2)
    }

    @Test("The duplicate key tells kinds of address and event types apart")
    func keysAreDistinct() {
        let value: UInt64 = 0xFFFF_FFFF_FFFF
        var keys: Set<UInt64> = []
        for kind in [BluetoothAddress.Kind.public, .random] {
            for eventType in HCI.LEAdvertisingReport.EventType.allCases {
                keys.insert(LegacyScanner.duplicateKey(BluetoothAddress(value, kind: kind), eventType))
                keys.insert(LegacyScanner.duplicateKey(BluetoothAddress(0, kind: kind), eventType))
            }
        }
        #expect(keys.count == 2 * 2 * HCI.LEAdvertisingReport.EventType.allCases.count)
    }
}
