#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many simulated tests run at once: one fewer than the processor's cores (at least
/// one). A simulation runs as fast as a core allows, so more of them at once than there
/// are cores only queue for the processor, and they would starve the tests that must stay on
/// the wall clock (a Bumble peer, a `ble` subprocess) of the core those need. A test waits
/// for a slot before its simulation starts; waiting costs no processor time.
actor SimulationSlots {
    static let shared = SimulationSlots(count: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1))

    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    /// Waits for a free slot and takes it.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        if waiters.isEmpty {
            free += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
