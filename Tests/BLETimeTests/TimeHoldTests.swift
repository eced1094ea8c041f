import BLETime
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

/// ``TimeHold``: work outside the simulation's thread keeps the clock where it was started.
@Suite("Simulation: holding the clock for work outside its thread")
struct TimeHoldTests {
    @Test("While a hold is kept no sleeper wakes, though jobs still run; released, the clock moves on")
    func holdKeepsTheClock() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let outside = DispatchSemaphore(value: 0)
        let seen = try await simulation.run { () -> [String] in
            let log = Mutex<[String]>([])
            let hold = simulation.holdTime()
            let sleeper = Task {
                try await simulation.clock.sleep(untilMicroseconds: 1_000)
                log.withLock { $0.append("woke at \(simulation.now)") }
            }
            // Work on another thread, slow in wall-clock time, that reports at the held time.
            DispatchQueue.global().async {
                outside.wait()
                usleep(50_000)  // slow, so that an unheld clock would surely move first
                simulation.execute { log.withLock { $0.append("outside at \(simulation.now)") } }
                hold.release()
            }
            for _ in 0 ..< 100 { await Task.yield() }
            log.withLock { $0.append("jobs ran at \(simulation.now)") }
            outside.signal()
            try await sleeper.value
            return log.withLock { $0 }
        }
        #expect(seen == ["jobs ran at 0", "outside at 0", "woke at 1000"])
    }

    @Test("Releasing twice counts once, and a hold dropped unreleased lets the clock go")
    func releaseOnceAndDrop() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let reached = try await simulation.run { () -> Int64 in
            let kept = simulation.holdTime()
            do { _ = simulation.holdTime() }  // dropped at once
            kept.release()
            kept.release()
            try await simulation.clock.sleep(untilMicroseconds: 500)
            return simulation.now
        }
        #expect(reached == 500)
    }
}
