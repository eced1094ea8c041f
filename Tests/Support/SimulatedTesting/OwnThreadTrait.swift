import Dispatch
import Testing

/// Runs each test it is applied to (or each test of a suite) on a dispatch queue of
/// its own rather than on Swift's cooperative pool: for tests that block a thread while they
/// wait for something outside the process (a child process to exit, a line in its output).
///
/// The cooperative pool has one thread per core, two on the machines CI uses; a test that
/// blocks one of them stalls every other test for as long as it waits, and two such tests
/// stall the whole run. A queue of its own runs on a thread Dispatch adds when the pool is
/// busy, so a blocked test holds only that thread. Structured child tasks of the test follow
/// it onto the queue (task executor preference, SE-0417).
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        try await withTaskExecutorPreference(QueueExecutor(label: "test: \(test.name)")) {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs the test (or each test of the suite) on a thread of its own, off Swift's
    /// cooperative pool: for tests that block while waiting for a child process.
    public static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor that runs jobs on a concurrent dispatch queue of its own.
///
/// Concurrent, not serial: a default actor that a test calls into is scheduled on the
/// calling task's preferred executor, and may keep running there for other callers (other
/// tests) after the test has left it. On a serial queue those callers wait behind the test's
/// blocking wait for a child process; on a concurrent queue Dispatch runs them on another
/// thread. A task has at most one job enqueued at a time, and actors keep their own mutual
/// exclusion, so concurrency here never runs one task's or one actor's jobs in parallel.
final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label, attributes: .concurrent) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
