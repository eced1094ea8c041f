/// A deterministic stand-in for a wearer: each call to ``next()`` gives the measurement of
/// the next second — a rate wandering around a resting value, RR-intervals that add up to
/// the second, and energy expended that grows until the control point resets it. A runtime
/// calls it every ``HeartRateService/notificationInterval``.
public struct HeartRateSimulator: Hashable, Sendable {
    /// The rate the simulation wanders around, in beats per minute.
    public var restingRate: Int
    /// Energy expended so far, in kilojoules (saturates at 0xFFFF, HRS §3.1.1.3).
    public private(set) var energyExpended: UInt16 = 0
    /// Whether measurements carry Energy Expended.
    public var reportsEnergyExpended: Bool
    private var state: UInt64
    private var joules: Int = 0
    private var second: Int = 0

    /// A simulation; the same `seed` gives the same measurements.
    public init(restingRate: Int = 70, reportsEnergyExpended: Bool = true, seed: UInt64 = 1) {
        self.restingRate = restingRate
        self.reportsEnergyExpended = reportsEnergyExpended
        state = seed
    }

    /// Carries out a control point command.
    public mutating func apply(_ command: HeartRateControlPoint) {
        switch command {
        case .resetEnergyExpended:
            energyExpended = 0
            joules = 0
        }
    }

    /// The measurement of the next second.
    public mutating func next() -> HeartRateMeasurement {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let wobble = Int((state >> 33) % 7) - 3
        second += 1
        let rate = max(30, min(220, restingRate + wobble + (second / 10) % 5))
        let beatUnits = 60 * 1024 / rate
        let beats = max(1, (1024 + beatUnits / 2) / beatUnits)
        // About 6 J per beat at rest: a rough figure, enough to make the counter move.
        joules += 6 * beats
        energyExpended = UInt16(min(joules / 1000, Int(UInt16.max)))
        return HeartRateMeasurement(heartRate: UInt16(rate), sensorContact: .detected,
                                    energyExpended: reportsEnergyExpended ? energyExpended : nil,
                                    rrIntervals: Array(repeating: UInt16(beatUnits), count: beats))
    }
}
