/// Which iOS era's background scanning a simulated phone follows (research §9, rule 8).
/// On both, the phone's one shared scan takes the background duty
/// (``PhonePolicy/backgroundScanWindow`` every ``PhonePolicy/backgroundScanInterval``) when
/// no app scanning is in the foreground; they differ in whether that duty runs all the time.
public enum ScanProfile: String, Hashable, Sendable, CaseIterable {
    /// Current iPhones: the background duty runs continuously, so a background scan finds
    /// an advertiser within seconds (research §3 and §7: beacon tests on modern iPhones).
    case modern
    /// iOS 5 to 7: with every scanning app off screen, the phone scans only in bursts,
    /// ``PhonePolicy/backgroundScanBurst`` every ``PhonePolicy/backgroundScanBurstPeriod``,
    /// and hears nothing in between. Research §3 ("Duty cycle") and §9, rule 8: a commenter
    /// on google/eddystone #125 (2016) saw the radio woken "once every ~10 minutes" for
    /// 20–30 s, our seeds say about once per 12 minutes; both second-hand, none measured
    /// (research §10).
    case legacyIOS5to7
}

/// Whether the phone's background scan listens at a moment, and until when: the bursts of
/// ``ScanProfile/legacyIOS5to7`` (research §9, rule 8).
public struct ScanBurstPhase: Hashable, Sendable {
    /// Whether the scan listens now.
    public var listening: Bool
    /// When that changes, in microseconds of the phone's clock; `nil` when it never does
    /// (the ``ScanProfile/modern`` profile, or bursts as long as their period).
    public var changesAt: Int64?

    /// A phase with every value given.
    public init(listening: Bool, changesAt: Int64?) {
        self.listening = listening
        self.changesAt = changesAt
    }
}

extension PhonePolicy {
    /// Where the background scan is in its bursts at `time` (microseconds of the phone's
    /// clock), for a phone whose scanning apps are all off screen. Bursts start at time 0
    /// and every ``backgroundScanBurstPeriod`` after it (our choice: nothing public says
    /// when iOS started them), each lasting ``backgroundScanBurst``. On the
    /// ``ScanProfile/modern`` profile the scan always listens.
    public func backgroundScanPhase(at time: Int64) -> ScanBurstPhase {
        guard scanProfile == .legacyIOS5to7, backgroundScanBurstPeriod > 0,
              backgroundScanBurst < backgroundScanBurstPeriod else { return ScanBurstPhase(listening: true, changesAt: nil) }
        let burst = max(0, backgroundScanBurst)
        let periodStart = time - ((time % backgroundScanBurstPeriod) + backgroundScanBurstPeriod) % backgroundScanBurstPeriod
        let burstEnd = periodStart + burst
        return time < burstEnd
            ? ScanBurstPhase(listening: true, changesAt: burstEnd)
            : ScanBurstPhase(listening: false, changesAt: periodStart + backgroundScanBurstPeriod)
    }

    /// The duty of the phone's shared scan at `time`: ``scanDuty(foregroundScanner:)``, or
    /// `nil` while the radio does not scan at all because every scanning app is off screen
    /// and the ``ScanProfile/legacyIOS5to7`` profile is between bursts (rule 8).
    /// - Parameters:
    ///   - foregroundScanner: whether an app scanning is in the foreground.
    ///   - time: the phone's clock, in microseconds.
    public func scanDuty(foregroundScanner: Bool, at time: Int64) -> ScanDuty? {
        guard foregroundScanner || backgroundScanPhase(at: time).listening else { return nil }
        return scanDuty(foregroundScanner: foregroundScanner)
    }
}
