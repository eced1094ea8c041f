@testable import BLE
import Dispatch
import Foundation
import Testing

/// The executor that simulated phones' in-process servers run on (Sources/BLE/Phone/ServerTaskExecutor.swift).
@Suite("Simulated servers' tasks run while the cooperative pool is blocked")
struct ServerTaskExecutorTests {
    @Test("A task that prefers the server executor finishes while every thread of the cooperative pool waits on a semaphore")
    func runsBesideABlockedPool() async {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            // Everything here runs on a Dispatch thread: the test's own task must not need
            // the pool while the blockers hold it.
            DispatchQueue.global().async {
                let holding = DispatchSemaphore(value: 0)
                let release = DispatchSemaphore(value: 0)
                for _ in 0 ..< width {
                    Task.detached {
                        holding.signal()
                        release.wait()
                    }
                }
                // Other tests may hold pool threads for a while; the blockers start as they finish.
                let deadline = DispatchTime.now() + .seconds(120)
                for _ in 0 ..< width { _ = holding.wait(timeout: deadline) }
                let ran = DispatchSemaphore(value: 0)
                Task.detached(executorPreference: ServerTaskExecutor.shared) { ran.signal() }
                let result = ran.wait(timeout: .now() + .seconds(60)) == .success
                for _ in 0 ..< width { release.signal() }
                continuation.resume(returning: result)
            }
        }
        #expect(finished, "the task did not run within 60 s while the pool's \(width) threads were blocked")
    }
}
