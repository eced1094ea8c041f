extension PhonePolicy {
    /// The iOS 7 era of the field reports: background scans in bursts about every 11 minutes
    /// (``ScanProfile/legacyIOS5to7``), no Bluetooth relaunch after a restart or a force-quit
    /// (the oldest documented rules, iOS 10's ``RelaunchProfile/iOS10``, stand in: which
    /// restarts iOS 7 relaunched for is not documented), and no relaunch for a beacon region
    /// after a force-quit (before iOS 7.1).
    public static let iOS7: PhonePolicy = {
        var policy = PhonePolicy()
        policy.scanProfile = .legacyIOS5to7
        policy.relaunchProfile = .iOS10
        policy.beaconRelaunchAfterForceQuit = false
        return policy
    }()

    /// The names of the iOS profiles a scenario's `phone: {profile}` may give.
    public static let profileNames = ["today", "iOS7"]

    /// The rules of the iOS profile `name` (``profileNames``): today's defaults, or
    /// ``iOS7``; `nil` for any other name.
    public static func profile(named name: String) -> PhonePolicy? {
        switch name {
        case "today": PhonePolicy()
        case "iOS7": .iOS7
        default: nil
        }
    }
}
