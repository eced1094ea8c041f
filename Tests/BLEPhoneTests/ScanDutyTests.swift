import BLEPhone
import Testing

/// The duty of a phone's one shared scan (research §9, rules 8 and 9), from the policy alone.
@Suite("The simulated iPhone's scan duty")
struct ScanDutyTests {
    @Test("Rules 8 and 9: 30 ms every 40 ms, active, with a scanner on screen; 30 ms every 300 ms, passive, without")
    func defaults() {
        let policy = PhonePolicy()
        #expect(policy.scanDuty(foregroundScanner: true) == ScanDuty(window: 30_000, interval: 40_000, active: true))
        #expect(policy.scanDuty(foregroundScanner: false) == ScanDuty(window: 30_000, interval: 300_000, active: false))
    }

    @Test("Rules 8 and 9: the background duty and its scan requests follow the policy")
    func configured() {
        var policy = PhonePolicy()
        policy.backgroundScanInterval = 1_000_000
        policy.backgroundActiveScan = true
        #expect(policy.scanDuty(foregroundScanner: false) == ScanDuty(window: 30_000, interval: 1_000_000, active: true))
        #expect(policy.scanDuty(foregroundScanner: true).interval == 40_000)
    }
}
