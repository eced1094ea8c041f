/// Time as the host's sans-IO cores see it: microseconds on whatever clock drives them
/// (a ``Simulation``'s virtual clock, or the monotonic wall clock for real controllers; see
/// ``StackClock``). The cores never read a clock themselves; every input carries `now`.
public typealias HostTime = Int64
