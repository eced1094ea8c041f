// The time constants Apple's platforms bring in with Foundation (Darwin's <sys/time.h> and
// Dispatch's <dispatch/time.h>), which Glibc and swift-corelibs-libdispatch do not: code
// written for Apple platforms uses them with `DispatchTime` and `Task.sleep(nanoseconds:)`.
// OpenCoreLocation and OpenCoreBluetooth re-export them, so such code compiles unchanged.

/// Nanoseconds per second, as Darwin defines it.
public let NSEC_PER_SEC: UInt64 = 1_000_000_000
/// Nanoseconds per millisecond, as Darwin defines it.
public let NSEC_PER_MSEC: UInt64 = 1_000_000
/// Nanoseconds per microsecond, as Darwin defines it.
public let NSEC_PER_USEC: UInt64 = 1_000
/// Microseconds per second, as Darwin defines it.
public let USEC_PER_SEC: UInt64 = 1_000_000
