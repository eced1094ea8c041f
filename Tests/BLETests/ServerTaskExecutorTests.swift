@testable import BLE
import Testing

/// The executor that simulated phones' in-process servers run on (Sources/BLE/Phone/ServerTaskExecutor.swift).
@Suite("Simulated servers' tasks run on Dispatch's threads, not on the cooperative pool")
struct ServerTaskExecutorTests {
    @Test("A task that prefers the server executor runs on its Dispatch queue, before and after it suspends; a task that does not, does not")
    func runsOnItsQueue() async {
        let executor = ServerTaskExecutor.shared
        let (before, after) = await Task.detached(executorPreference: executor) {
            let before = executor.isCurrent
            await Task.yield()
            return (before, executor.isCurrent)
        }.value
        #expect(before && after)
        let plain = await Task.detached { executor.isCurrent }.value
        #expect(!plain)
    }
}
