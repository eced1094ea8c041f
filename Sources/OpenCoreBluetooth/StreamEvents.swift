import BLETime
import Dispatch
import Foundation

/// Posts a stream's events (Foundation's `Stream.Event`) to its delegate, in order, one
/// delivery at a time, where Foundation's streams deliver them: on the run loop the stream is
/// scheduled on.
///
/// Where events go:
/// - **The main run loop** (or the current run loop, scheduled from code running on the main
///   queue): the main queue. On Linux `dispatchMain()` drains the main queue on a thread
///   other than the main thread, whose run loop nobody runs, so a stream an Apple-style
///   delegate schedules on `.current` from the main queue belongs to the main queue.
/// - **Any other run loop**, in the mode given: a timer on that run loop, so events arrive
///   when (and only when) a thread runs it, as on Apple platforms.
/// - **Not scheduled**: the channel's manager queue. Apple platforms send no events then;
///   here the delegate still hears, since a delegate set and never scheduled is a mistake
///   that otherwise shows only as silence.
///
/// `hasBytesAvailable` and `hasSpaceAvailable` are coalesced: one waiting to be delivered
/// is not posted again. After ``close()`` nothing more is delivered.
final class StreamEventPoster: @unchecked Sendable {
    // @unchecked Sendable: every stored var is read and written only under `lock`; the run
    // loops it holds are used only to add timers, which CFRunLoop does under its own lock
    // from any thread; the delegate is called only on the target chosen above.

    /// Where deliveries run.
    private enum Target {
        case queue(any Actor)
        case runLoop(RunLoop, RunLoop.Mode)
    }

    /// One `schedule(in:forMode:)` call, kept so `remove(from:forMode:)` can undo it.
    private struct Scheduling {
        let runLoop: RunLoop
        let mode: RunLoop.Mode
        let target: Target
    }

    private let lock = NSLock()
    private weak var stream: Stream?
    private weak var storedDelegate: (any StreamDelegate)?
    private var schedulings: [Scheduling] = []
    private var pending: [Stream.Event] = []
    private var delivering = false
    private var closed = false
    /// The queue of the channel's manager: where events go while the stream is not scheduled.
    private let managerQueue: any Actor

    init(managerQueue: any Actor) {
        self.managerQueue = managerQueue
    }

    /// Binds the poster to the stream it speaks for (held weakly: the stream owns the poster).
    func attach(to stream: Stream) {
        lock.withLock { self.stream = stream }
    }

    /// The stream's delegate (Foundation's `Stream.delegate`), held weakly as Foundation does.
    var delegate: (any StreamDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    /// Records `schedule(in:forMode:)`: later events are delivered there.
    func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        let target: Target
        if runLoop === RunLoop.main || (runLoop === RunLoop.current && Self.isOnMainQueue) {
            target = .queue(MainActor.shared)
        } else {
            target = .runLoop(runLoop, mode)
        }
        lock.withLock { schedulings.append(Scheduling(runLoop: runLoop, mode: mode, target: target)) }
    }

    /// Records `remove(from:forMode:)`.
    func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        lock.withLock { schedulings.removeAll { $0.runLoop === runLoop && $0.mode == mode } }
    }

    /// Queues `event` for the delegate; starts a delivery unless one is under way.
    func post(_ event: Stream.Event) {
        let target: Target? = lock.withLock {
            guard !closed else { return nil }
            if event == .hasBytesAvailable || event == .hasSpaceAvailable, pending.contains(event) { return nil }
            pending.append(event)
            guard !delivering else { return nil }
            delivering = true
            return currentTarget
        }
        if let target { start(on: target) }
    }

    /// Stops deliveries: the stream is closed.
    func close() {
        lock.withLock {
            closed = true
            pending.removeAll()
        }
    }

    /// Where the next delivery runs (called under `lock`).
    private var currentTarget: Target {
        schedulings.first?.target ?? .queue(managerQueue)
    }

    private func start(on target: Target) {
        switch target {
        case let .queue(isolation):
            Task { await hop(to: isolation) { self.deliverOne() } }
        case let .runLoop(runLoop, mode):
            runLoop.add(Timer(timeInterval: 0, repeats: false) { _ in self.deliverOne() }, forMode: mode)
        }
    }

    /// Delivers the oldest queued event, then starts the next delivery if more are queued:
    /// one event per turn of the target, as a run loop delivers them.
    private func deliverOne() {
        let next: (Stream.Event, Stream, (any StreamDelegate)?)? = lock.withLock {
            guard !closed, !pending.isEmpty, let stream else {
                delivering = false
                return nil
            }
            return (pending.removeFirst(), stream, storedDelegate)
        }
        guard let (event, stream, delegate) = next else { return }
        delegate?.stream(stream, handle: event)
        let target: Target? = lock.withLock {
            guard !closed, !pending.isEmpty else {
                delivering = false
                return nil
            }
            return currentTarget
        }
        if let target { start(on: target) }
    }

    /// Whether the caller runs on the main queue (whichever thread drains it).
    private static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: MainQueueMarker.key) == true
    }
}

/// Marks the main queue so ``StreamEventPoster`` can tell it runs there: on Linux the main
/// queue may be drained by a thread that is not the main thread.
private enum MainQueueMarker {
    /// Set on the main queue by the lazy initializer, which Swift runs exactly once.
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}
