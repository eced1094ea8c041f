import BLEHost
import Synchronization
import Testing

/// ``SingleThreadExecutor``: a task executor (SE-0417) whose jobs all run on one thread
/// of its own, in the order they were enqueued.
@Suite("One thread as a task executor", .timeLimit(.minutes(1)))
struct SingleThreadExecutorTests {
    /// What the jobs saw: their order and whether they ran on the executor's thread.
    final class Record: Sendable {
        private let state = Mutex((order: [Int](), offThread: 0))
        func note(_ index: Int, onThread: Bool) {
            state.withLock {
                $0.order.append(index)
                if !onThread { $0.offThread += 1 }
            }
        }
        var order: [Int] { state.withLock { $0.order } }
        var offThread: Int { state.withLock { $0.offThread } }
    }

    actor Counter {
        private(set) var value = 0
        func increment(checking executor: SingleThreadExecutor, into record: Record) {
            value += 1
            record.note(value, onThread: executor.isCurrentThread)
        }
    }

    @Test("200 tasks that prefer it run on its thread, in the order they were made (sleeping when idle; looking 1,000 times first)",
          arguments: [0, 1_000])
    func tasksRunInOrderOnTheThread(spins: Int) async throws {
        let executor = try SingleThreadExecutor(name: "order", spinsBeforeSleeping: spins)
        let record = Record()
        var tasks: [Task<Void, Never>] = []
        for index in 0 ..< 200 {
            tasks.append(Task(executorPreference: executor) { record.note(index, onThread: executor.isCurrentThread) })
        }
        for task in tasks { await task.value }
        #expect(record.order == Array(0 ..< 200))
        #expect(record.offThread == 0)
        #expect(!executor.isCurrentThread, "the test itself runs elsewhere")
        executor.shutdown()
    }

    @Test("a default actor called from a task that prefers it runs on its thread, across suspensions")
    func defaultActorRunsOnTheThread() async throws {
        let executor = try SingleThreadExecutor(name: "actor")
        let record = Record()
        let counter = Counter()
        await withTaskExecutorPreference(executor) {
            for _ in 0 ..< 100 {
                await counter.increment(checking: executor, into: record)
                await Task.yield()
            }
        }
        #expect(await counter.value == 100)
        #expect(record.offThread == 0)
        executor.shutdown()
    }

    @Test("shutdown waits for the jobs already queued and may be called twice, from any thread")
    func shutdownDrainsAndRepeats() async throws {
        let executor = try SingleThreadExecutor(name: "drain")
        let record = Record()
        let tasks = (0 ..< 50).map { index in
            Task(executorPreference: executor) { record.note(index, onThread: executor.isCurrentThread) }
        }
        executor.shutdown()
        #expect(record.order == Array(0 ..< 50), "the queued jobs ran before shutdown returned")
        executor.shutdown()
        for task in tasks { await task.value }
    }

    @Test("a task sleeping on the thread is woken there by the timer")
    func sleeperWakesOnTheThread() async throws {
        let executor = try SingleThreadExecutor(name: "sleeper")
        let onThread = try await Task(executorPreference: executor) { () async throws -> Bool in
            try await Task.sleep(for: .milliseconds(5))  // the timer's wake-up is what is tested
            return executor.isCurrentThread
        }.value
        #expect(onThread)
        executor.shutdown()
    }
}
