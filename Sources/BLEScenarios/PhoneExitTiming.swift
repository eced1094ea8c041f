import BLEBeacons
import BLEPhone

extension ExitTiming {
    /// The late and missed exits of a simulated iPhone's region monitoring under `policy`
    /// (``PhonePolicy/lateExitProbability``, ``PhonePolicy/lateExitDelay``,
    /// ``PhonePolicy/exitMissProbability``; iOS research §7 and §9, rule 21), drawn from
    /// `seed`: what a scenario phone's `observe:` monitoring reports, as the
    /// `CLLocationManager`s of its apps do.
    package init(phone policy: PhonePolicy, seed: UInt64) {
        self.init(lateProbability: policy.lateExitProbability,
                  lateBy: .microseconds(policy.lateExitDelay.lowerBound) ... .microseconds(policy.lateExitDelay.upperBound),
                  missProbability: policy.exitMissProbability, seed: seed)
    }

    /// The seed of scenario device `index`'s exits in a scenario of seed `scenarioSeed`,
    /// apart from its phone's other draws ("exits" mixed in).
    package static func scenarioSeed(_ scenarioSeed: UInt64, device index: Int) -> UInt64 {
        (scenarioSeed &+ UInt64(index)) ^ 0x6578_6974_7300_0000
    }
}
