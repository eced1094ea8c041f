/// How a phone's one shared scan uses the radio: the scan window and interval the
/// controller gets (LE Set Scan Parameters, Core 5.4, Vol 4, Part E, §7.8.10) and whether it
/// sends scan requests. All apps of a phone share one scan, so the duty is the phone's, not
/// an app's (research §9, rules 8 and 9).
public struct ScanDuty: Hashable, Sendable {
    /// How long the controller listens each interval, in microseconds.
    public var window: Int64
    /// How often it starts listening, in microseconds.
    public var interval: Int64
    /// Whether it asks scannable advertisers for their scan response (an active scan).
    public var active: Bool

    /// A duty with every value given.
    public init(window: Int64, interval: Int64, active: Bool) {
        self.window = window
        self.interval = interval
        self.active = active
    }
}

extension PhonePolicy {
    /// The duty of the phone's shared scan: the foreground duty, active, while any app
    /// scanning is in the foreground (one foreground scanner restores it for all, rule 8);
    /// otherwise the slower background duty, passive unless ``backgroundActiveScan`` (rules
    /// 8 and 9).
    /// - Parameter foregroundScanner: whether an app scanning is in the foreground.
    public func scanDuty(foregroundScanner: Bool) -> ScanDuty {
        foregroundScanner
            ? ScanDuty(window: foregroundScanWindow, interval: foregroundScanInterval, active: true)
            : ScanDuty(window: backgroundScanWindow, interval: backgroundScanInterval, active: backgroundActiveScan)
    }
}
