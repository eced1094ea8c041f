extension PhoneCore {
    /// A seed for the next region monitor an app of the phone makes (a `CLLocationManager`'s),
    /// from the phone's own seed, so that its late and missed exits (§9, rule 21;
    /// ``PhonePolicy/lateExitProbability``, ``PhonePolicy/exitMissProbability``) repeat from
    /// run to run and differ from one monitor to the next.
    public mutating func nextMonitorSeed() -> UInt64 {
        monitorSeeds &+= 0x9E37_79B9_7F4A_7C15
        var z = monitorSeeds
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for the next advertising dropout schedule of an app going off screen
    /// (``AdvertisingDropoutSchedule``, §9 rule 12), from the phone's own seed, so that the
    /// pauses repeat from run to run.
    public mutating func nextAdvertisingDropoutSeed() -> UInt64 {
        dropoutSeeds &+= 0x9E37_79B9_7F4A_7C15
        var z = dropoutSeeds
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether the system skips the `peripheralManagerIsReady(toUpdateSubscribers:)` it owes
    /// now: drawn with ``PhonePolicy/readyToUpdateSubscribersSkipRate`` from the phone's
    /// seed; never when the rate is 0 (no draw is made then, so nothing else moves).
    public mutating func skipsReadyToUpdateSubscribers() -> Bool {
        guard policy.readyToUpdateSubscribersSkipRate > 0 else { return false }
        faultSeeds &+= 0x9E37_79B9_7F4A_7C15
        var z = faultSeeds
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53) < policy.readyToUpdateSubscribersSkipRate
    }
}
