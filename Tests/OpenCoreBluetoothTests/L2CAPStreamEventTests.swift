import Dispatch
import Foundation
@testable import OpenCoreBluetooth
import Synchronization
import Testing

/// A stream delegate that hands each event, and whether it came where it should, to the
/// test in order.
final class StreamEventRecorder: NSObject, StreamDelegate, Sendable {
    let events: AsyncStream<(Stream.Event, Bool)>
    private let continuation: AsyncStream<(Stream.Event, Bool)>.Continuation
    private let isHome: @Sendable () -> Bool

    init(isHome: @escaping @Sendable () -> Bool) {
        (events, continuation) = AsyncStream.makeStream()
        self.isHome = isHome
    }

    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
        continuation.yield((eventCode, isHome()))
    }
}

/// A thread running its own run loop until ``stop()``, for streams scheduled off the main
/// queue.
final class RunLoopThread: @unchecked Sendable {
    // @unchecked Sendable: `runLoop` and `keepAlive` are written once on the thread before
    // `start()` returns and only read afterwards; RunLoop.add is safe from any thread.
    private(set) var runLoop: RunLoop!
    private var keepAlive: Timer!
    private(set) var thread: Thread!

    /// Starts the thread; returns once its run loop is running.
    func start() async {
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            thread = Thread { [self] in
                runLoop = RunLoop.current
                keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
                runLoop.add(keepAlive, forMode: .default)
                runLoop.add(Timer(timeInterval: 0, repeats: false) { _ in started.resume() }, forMode: .default)
                runLoop.run()
            }
            thread.start()
        }
    }

    /// Lets the run loop run out of timers, so the thread ends.
    func stop() {
        runLoop.add(Timer(timeInterval: 0, repeats: false) { [self] _ in keepAlive.invalidate() }, forMode: .default)
    }
}

@Suite("L2CAP channel streams tell their delegates")
struct L2CAPStreamEventTests {
    @Test("Unscheduled: open, bytes on arrival into an empty stream and after a partial read, end after the last byte, on the manager's queue")
    func inputEventsOnManagerQueue() async throws {
        let home = NamedQueue("stream-events")
        let inbox = L2CAPInbox(events: StreamEventPoster(managerQueue: DelegateQueue(home.queue)))
        let stream = L2CAPInputStream(inbox: inbox)
        let recorder = StreamEventRecorder { home.isCurrent }
        stream.delegate = recorder
        var events = recorder.events.makeAsyncIterator()

        await inbox.receive([1, 2, 3])  // before open: no event yet
        stream.open()
        #expect(await events.next()?.0 == .openCompleted)
        #expect(await events.next()?.0 == .hasBytesAvailable)
        await inbox.receive([4])  // the stream was not empty: no second event
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(stream.read(&buffer, maxLength: 2) == 2)
        // Bytes remain after the read: told again.
        #expect(await events.next()?.0 == .hasBytesAvailable)
        #expect(stream.read(&buffer, maxLength: 8) == 2)
        #expect(Array(buffer.prefix(2)) == [3, 4])
        #expect(stream.streamStatus == .open, "not at the end while the channel is open")
        inbox.finish()
        let end = await events.next()
        #expect(end?.0 == .endEncountered)
        #expect(end?.1 == true, "delivered on the manager's queue")
        #expect(stream.streamStatus == .atEnd)
        #expect(stream.read(&buffer, maxLength: 8) == 0)
        stream.close()
        #expect(stream.read(&buffer, maxLength: 8) == -1)
    }

    @Test("Scheduled on a thread's run loop: events are delivered on that thread")
    func inputEventsOnRunLoop() async throws {
        let loop = RunLoopThread()
        await loop.start()
        let inbox = L2CAPInbox(events: StreamEventPoster(managerQueue: MainActor.shared))
        let stream = L2CAPInputStream(inbox: inbox)
        let recorder = StreamEventRecorder { Thread.current === loop.thread }
        stream.delegate = recorder
        stream.schedule(in: loop.runLoop, forMode: .default)
        var events = recorder.events.makeAsyncIterator()
        stream.open()
        await inbox.receive(Array("ping".utf8))
        inbox.finish()
        let opened = await events.next()
        let bytes = await events.next()
        #expect(opened?.0 == .openCompleted)
        #expect(bytes?.0 == .hasBytesAvailable)
        #expect(opened?.1 == true && bytes?.1 == true, "delivered on the run loop's thread")
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(stream.read(&buffer, maxLength: 8) == 4)
        #expect(await events.next()?.0 == .endEncountered)
        loop.stop()
    }

    @Test("A full inbox holds the channel's reader until the app reads; nothing is dropped")
    func inboxCapacityHoldsTheReader() async throws {
        let inbox = L2CAPInbox(events: StreamEventPoster(managerQueue: MainActor.shared), capacity: 4)
        let stream = L2CAPInputStream(inbox: inbox)
        let recorder = StreamEventRecorder { true }
        stream.delegate = recorder
        var events = recorder.events.makeAsyncIterator()
        stream.open()
        #expect(await events.next()?.0 == .openCompleted)
        let returned = Mutex(false)
        let reader = Task {
            await inbox.receive([1, 2, 3, 4, 5])
            returned.withLock { $0 = true }
            await inbox.receive([6])
        }
        #expect(await events.next()?.0 == .hasBytesAvailable)
        #expect(!returned.withLock { $0 }, "the reader goes on before the app read")
        var buffer = [UInt8](repeating: 0, count: 3)
        #expect(stream.read(&buffer, maxLength: 3) == 3)
        await reader.value
        var rest: [UInt8] = []
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: 3)
            rest += buffer.prefix(count)
        }
        #expect(rest == [4, 5, 6])
    }
}
