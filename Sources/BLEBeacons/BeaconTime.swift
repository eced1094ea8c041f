/// Time as the beacon cores see it: microseconds on whatever clock drives them — a world's
/// virtual clock or a monotonic wall clock. The same unit as BLEHost's `HostTime`, so an
/// advertisement's `time` can be passed in unchanged. The cores never read a clock
/// themselves; every input carries its time.
public typealias BeaconTime = Int64

extension Duration {
    /// The duration in whole microseconds (rounded towards zero), the unit of ``BeaconTime``.
    var beaconMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000 &+ attoseconds / 1_000_000_000_000
    }
}
