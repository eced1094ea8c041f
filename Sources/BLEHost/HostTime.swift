/// Time as the host's sans-IO cores see it: microseconds on whatever clock drives them
/// (the world's virtual clock, or a monotonic wall clock for real controllers). The cores
/// never read a clock themselves; every input carries `now`.
public typealias HostTime = Int64

#if canImport(Glibc)
import Glibc

/// The continuous clock in microseconds, read straight from the kernel: what
/// `ContinuousClock` reads on Linux (`CLOCK_BOOTTIME`), without the 128-bit arithmetic of
/// `Duration`, since the host reads it for every packet.
func continuousMicroseconds() -> HostTime {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return HostTime(time.tv_sec) * 1_000_000 + HostTime(time.tv_nsec) / 1_000
}
#else
/// The continuous clock in microseconds.
func continuousMicroseconds() -> HostTime {
    let components = (ContinuousClock.now - ContinuousClock.Instant.zeroReference).components
    return components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
}

private extension ContinuousClock.Instant {
    static let zeroReference = ContinuousClock.now
}
#endif
