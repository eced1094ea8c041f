import BLEWire

/// Apple's rules for the connection parameters an accessory may ask an iPhone for, from the
/// Accessory Design Guidelines for Apple Devices (revisions up to R17) and Technical Q&A
/// QA1931: an L2CAP Connection Parameter Update Request (Core 5.4, Vol 3, Part A, §4.20)
/// that breaks one of them is refused.
///
/// - Interval Min ≥ 15 ms and a multiple of 15 ms (11.25 ms is allowed for HID accessories);
/// - Interval Max ≥ Interval Min + 15 ms, or Min = Max = 15 ms;
/// - Peripheral Latency ≤ 30;
/// - Interval Max × (Latency + 1) ≤ 2 s;
/// - 2 s ≤ Supervision Timeout ≤ 6 s;
/// - Supervision Timeout > Interval Max × (Latency + 1) × 3.
public enum AccessoryDesignGuidelines {
    /// The first rule `parameters` break, as a sentence; `nil` when they keep them all.
    /// - Parameters:
    ///   - parameters: the request's values (intervals in 1.25 ms units, timeout in 10 ms
    ///     units, as the L2CAP request and HCI carry them).
    ///   - hid: whether the accessory is a HID device, which may ask for 11.25 ms.
    public static func violation(of parameters: HCI.LEConnectionParameters, hid: Bool = false) -> String? {
        // Microseconds, to compare without rounding.
        let minimum = Int(parameters.connectionIntervalMin) * 1250
        let maximum = Int(parameters.connectionIntervalMax) * 1250
        let latency = Int(parameters.maxLatency)
        let timeout = Int(parameters.supervisionTimeout) * 10_000
        let hidInterval = hid && minimum == 11_250
        if !hidInterval, minimum < 15_000 || minimum % 15_000 != 0 {
            return "Interval Min \(minimum / 1000).\(minimum % 1000 / 10) ms is not a multiple of 15 ms of at least 15 ms"
        }
        if maximum < minimum + 15_000, !(minimum == 15_000 && maximum == 15_000), !hidInterval {
            return "Interval Max must be at least Interval Min + 15 ms (or both 15 ms)"
        }
        if latency > 30 { return "Peripheral Latency \(latency) is over 30" }
        let effective = maximum * (latency + 1)
        if effective > 2_000_000 { return "Interval Max × (Latency + 1) is over 2 s" }
        if timeout < 2_000_000 || timeout > 6_000_000 { return "Supervision Timeout \(timeout / 1000) ms is outside 2 s to 6 s" }
        if timeout <= effective * 3 { return "Supervision Timeout is not over 3 × Interval Max × (Latency + 1)" }
        return nil
    }
}
