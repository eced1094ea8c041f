import BLEHost
import Synchronization

/// What a ranging or monitoring session produces, as an `AsyncSequence` (see
/// ``Central/rangeBeacons(satisfying:configuration:)`` and
/// ``Central/monitorBeacons(_:configuration:)``).
///
/// The session — its scan and its once-a-second timer — ends when the loop over it ends
/// (a `break`, the task's cancellation), with ``stop()``, or when the device closes; it is
/// read once, and a second iterator ends at once.
public struct BeaconUpdates<Element: Sendable>: AsyncSequence, Sendable {
    /// Iteration never throws: it ends instead.
    public typealias Failure = Never
    let stream: AsyncStream<Element>
    let session: BeaconSession
    /// Ends the session if the updates are dropped without being iterated.
    private let unread: BeaconSessionToken

    init(stream: AsyncStream<Element>, session: BeaconSession) {
        self.stream = stream
        self.session = session
        unread = BeaconSessionToken(session: session)
    }

    /// The iterator; the first one made reads the session, later ones end at once.
    public func makeAsyncIterator() -> Iterator {
        guard unread.take() else { return Iterator(base: nil, lifetime: nil) }
        return Iterator(base: stream.makeAsyncIterator(), lifetime: BeaconSessionToken(session: session))
    }

    /// Ends the session and returns once its scan stopped.
    public func stop() async { await session.endAndWait() }

    /// Reads the session's updates; dropping it (leaving the loop) ends the session.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator?
        let lifetime: BeaconSessionToken?

        /// The next update, or `nil` once the session ended.
        public mutating func next() async -> Element? {
            guard let update = await base?.next() else {
                base = nil
                lifetime?.session.end()
                return nil
            }
            return update
        }
    }
}

/// One ranging or monitoring session: the task that drives its core, ended once.
final class BeaconSession: Sendable {
    private let driver = Mutex<Task<Void, Never>?>(nil)
    private let sightings: BeaconSightings

    init(sightings: BeaconSightings) {
        self.sightings = sightings
    }

    /// Hands the session its driving task (once, right after creation).
    func run(_ task: Task<Void, Never>) {
        driver.withLock { $0 = task }
    }

    /// Cancels the driving task; its scan then ends.
    func end() {
        driver.withLock { $0 }?.cancel()
    }

    /// Ends the session and waits until the scan stopped.
    func endAndWait() async {
        end()
        await sightings.stop()
    }
}

/// Held by an iterator (ends the session when the loop ends) or by the sequence (ends it
/// if it is never iterated).
final class BeaconSessionToken: Sendable {
    let session: BeaconSession
    private let taken = Mutex(false)

    init(session: BeaconSession) { self.session = session }

    /// `true` the first time.
    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }

    deinit {
        if !taken.withLock({ $0 }) { session.end() }
    }
}

/// What a session's core is fed, in order: sightings as they arrive and the timer's ticks.
enum BeaconInput: Sendable {
    case sighting(BeaconSighting)
    /// The timer fired; the time since the scan started, in microseconds.
    case tick(BeaconTime)
}

extension BeaconSightings {
    /// The sightings merged with a tick once a second since the scan started, on the
    /// host's clock (a simulated world's virtual clock, or the wall clock). The stream
    /// ends when the scan ends; when it is dropped, the scan and the timer stop.
    func withTicks(host: BLEHost.Host) -> AsyncStream<BeaconInput> {
        let (stream, output) = AsyncStream.makeStream(of: BeaconInput.self, bufferingPolicy: .unbounded)
        let start = results.start
        let reader = Task {
            for await sighting in self { output.yield(.sighting(sighting)) }
            output.finish()
        }
        let ticker = Task {
            let clock = host.clock
            let origin = clock.microseconds
            var second: Int64 = 1
            while !Task.isCancelled {
                // The ranging timer: Core Location reports once a second.
                do { try await clock.sleep(untilMicroseconds: origin + second * 1_000_000) } catch { return }
                output.yield(.tick(host.now - start))
                second += 1
            }
        }
        output.onTermination = { _ in
            reader.cancel()
            ticker.cancel()
        }
        return stream
    }
}
