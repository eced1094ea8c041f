#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable on the monotonic clock: what a ``Simulation``'s thread
/// waits on for work, and for the wall clock when it paces time.
final class ConditionLock: @unchecked Sendable {
    // @unchecked: the pthread objects are allocated once, never moved, and used only through
    // the pthread calls that synchronise them.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
        // The condition variable takes CLOCK_MONOTONIC (not CLOCK_BOOTTIME, which glibc refuses
        // here); ``wait(untilMonotonicMicroseconds:)`` converts.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; the mutex must be held.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a signal or until the monotonic clock (``WallClock``) reads `deadline`; the
    /// mutex must be held.
    func wait(untilMonotonicMicroseconds deadline: Int64) {
        let remaining = max(deadline - WallClock.monotonicMicroseconds(), 0)
        var time = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC, &time)
        #else
        clock_gettime(CLOCK_REALTIME, &time)
        #endif
        let target = Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000 + remaining
        time.tv_sec = Int(target / 1_000_000)
        time.tv_nsec = Int(target % 1_000_000) * 1_000
        pthread_cond_timedwait(condition, mutex, &time)
    }

    /// Wakes one waiter; call with the mutex held.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter; call with the mutex held.
    func broadcast() { pthread_cond_broadcast(condition) }
}
