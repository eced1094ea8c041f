@testable import BLEController
import BLEWire
import Testing

/// Duplicate filtering of legacy scanning (LE Set Scan Enable, Core 5.4, Vol 4, Part E,
/// §7.8.11): what the scanner notes while filtering is off counts once filtering is on.
@Suite("Legacy scanning's duplicate filtering")
struct LegacyScannerDuplicateTests {
    @Test("Turning duplicate filtering on mid-scan suppresses advertisers already reported while it was off")
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
        #expect(filtered.map(\.address) == [air.address(late)])
        #expect(filtered.map(\.eventType) == [.advInd])
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

    @Test("Reported keys noted in batches have the membership of a set, whether noted or inserted")
    func reportedKeysMatchASet() {
        var table = ReportedKeys()
        var reference: Set<UInt64> = []
        var generator: UInt64 = 0x1234_5678
        for step in 0 ..< 5_000 {
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Repeated advertisers (as a scanner hears them) and scattered ones, zero included.
            let address = step % 3 == 0 ? UInt64(step % 300) : generator >> 16
            let key = LegacyScanner.duplicateKey(BluetoothAddress(address, kind: step % 2 == 0 ? .public : .random),
                                                 HCI.LEAdvertisingReport.EventType.allCases[step % 5])
            if step % 7 == 0 {
                let new = table.insert(key)
                #expect(new == reference.insert(key).inserted)
            } else {
                table.note(key)
                reference.insert(key)
            }
            if step % 1_000 == 999 {
                let found = table.contains(key)
                #expect(found)
            }
        }
        let count = table.count()
        let allFound = reference.allSatisfy { table.contains($0) }
        #expect(count == reference.count)
        #expect(allFound)
        let absent = LegacyScanner.duplicateKey(BluetoothAddress(0xFFFF_FFFF_FFFF, kind: .random), .scanRsp)
        #expect(!reference.contains(absent))
        let foundAbsent = table.contains(absent)
        #expect(!foundAbsent)
        let zeroAgain = table.insert(LegacyScanner.duplicateKey(BluetoothAddress(0), .advInd))
        #expect(!zeroAgain, "zero is a key like any other")
    }
}
