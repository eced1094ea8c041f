extension SimulatedPhone {
    /// A seed for the next region monitor of one of the phone's apps, drawn from the phone's
    /// seed (`PhoneCore.nextMonitorSeed()`): a `CLLocationManager` of an app draws its late
    /// and missed exits with it (iOS research §9, rule 21), so a run repeats.
    public func nextMonitorSeed() -> UInt64 {
        state.withLock { $0.core.nextMonitorSeed() }
    }

    /// A seed for the next advertising dropout schedule of one of the phone's apps
    /// (`PhoneCore.nextAdvertisingDropoutSeed()`, `PhonePolicy.backgroundAdvertisingDropouts`,
    /// iOS research §9, rule 12), so a run repeats.
    public func nextAdvertisingDropoutSeed() -> UInt64 {
        state.withLock { $0.core.nextAdvertisingDropoutSeed() }
    }
}
