import Testing

/// Runs each test it is applied to (or each test of a suite) only while no other test with
/// this trait runs anywhere in the test process: for tests that keep a core busy for
/// minutes (long simulated worlds, several `ble` processes pacing a world against the wall
/// clock).
///
/// CI has two cores. Alone, each such test leaves the other core to the rest of the run;
/// several at once take both, and then the tests that measure wall-clock patience (a chat
/// across processes, an HCI command's timeout, a Bumble peer's answer) see a machine many
/// times slower than it is and fail for it. Taking turns costs little in total time, since
/// the tests that wait are the ones that would have shared a core anyway. Apply it together
/// with ``OwnThreadTrait`` where the test also blocks a thread.
public struct TakesTurnsTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        await HeavyTestTurns.shared.enter()
        do {
            try await function()
        } catch {
            await HeavyTestTurns.shared.leave()
            throw error
        }
        await HeavyTestTurns.shared.leave()
    }
}

extension Trait where Self == TakesTurnsTrait {
    /// Runs the test (or each test of the suite) only while no other such test runs: for
    /// tests that keep a core busy for minutes.
    public static var takesTurns: Self { TakesTurnsTrait() }
}

/// The one turn the ``TakesTurnsTrait`` tests share, handed on in the order they asked.
actor HeavyTestTurns {
    static let shared = HeavyTestTurns()

    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until the turn is free, then takes it.
    func enter() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next test waiting, or frees it.
    func leave() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
