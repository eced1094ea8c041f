/// Time as the host's sans-IO cores see it: microseconds on whatever clock drives them
/// (the world's virtual clock, or a monotonic wall clock for real controllers). The cores
/// never read a clock themselves; every input carries `now`.
public typealias HostTime = Int64
