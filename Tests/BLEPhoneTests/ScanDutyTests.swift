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

    @Test("Rule 8: on the legacyIOS5to7 profile, with every scanner off screen, the phone scans 25 s every 11 minutes and not in between")
    func legacyBursts() {
        var policy = PhonePolicy()
        policy.scanProfile = .legacyIOS5to7
        let background = policy.scanDuty(foregroundScanner: false)
        let minute: Int64 = 60_000_000
        for period in Int64(0)..<3 {
            let start = period * 11 * minute
            #expect(policy.scanDuty(foregroundScanner: false, at: start) == background)
            #expect(policy.scanDuty(foregroundScanner: false, at: start + 24_999_999) == background)
            #expect(policy.scanDuty(foregroundScanner: false, at: start + 25_000_000) == nil)
            #expect(policy.scanDuty(foregroundScanner: false, at: start + 11 * minute - 1) == nil)
            #expect(policy.backgroundScanPhase(at: start + 1_000_000) == ScanBurstPhase(listening: true, changesAt: start + 25_000_000))
            #expect(policy.backgroundScanPhase(at: start + 30_000_000) == ScanBurstPhase(listening: false, changesAt: start + 11 * minute))
        }
        // An app scanning on screen scans for all, bursts or not.
        #expect(policy.scanDuty(foregroundScanner: true, at: 5 * minute) == policy.scanDuty(foregroundScanner: true))
    }

    @Test("Rule 8: a slow advertiser heard by a legacyIOS5to7 phone off screen is heard only inside a burst; the modern profile within seconds")
    func legacyDiscoveryInsideBursts() {
        // Packets every 1285 ms from 40 s: the first one inside a scan window, on virtual time.
        func firstHeard(_ policy: PhonePolicy) -> Int64? {
            var time: Int64 = 40_000_000
            while time < 40 * 60_000_000 {
                if let duty = policy.scanDuty(foregroundScanner: false, at: time), time % duty.interval < duty.window { return time }
                time += 1_285_000
            }
            return nil
        }
        var legacy = PhonePolicy()
        legacy.scanProfile = .legacyIOS5to7
        let heard = firstHeard(legacy)
        #expect(heard.map { $0 >= 660_000_000 && $0 < 685_000_000 } == true, "\(String(describing: heard))")
        let modern = firstHeard(PhonePolicy())
        #expect(modern.map { $0 < 60_000_000 } == true, "\(String(describing: modern))")
        #expect(PhonePolicy().backgroundScanPhase(at: 100 * 60_000_000) == ScanBurstPhase(listening: true, changesAt: nil))
    }
}
