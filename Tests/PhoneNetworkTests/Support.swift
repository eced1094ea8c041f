import BLE
import BLETime
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimulatedTesting
import Synchronization
import Testing

/// A server that answers every request with `status` and echoes the body, and records when
/// (virtual time) each request reached it.
final class RecordingServer: NetworkServer {
    let status: Int
    private let clock: any StackClock
    private let log = Mutex<[(time: Int64, request: NetworkRequest)]>([])

    /// A server whose times are `clock`'s (the test's, by default).
    init(status: Int = 200, clock: any StackClock = testClock) {
        self.status = status
        self.clock = clock
    }

    /// What arrived, in order, with the virtual time of arrival.
    var arrivals: [(time: Int64, request: NetworkRequest)] { log.withLock { $0 } }

    func respond(to request: NetworkRequest) async -> NetworkResponse {
        let now = clock.microseconds
        log.withLock { $0.append((now, request)) }
        return NetworkResponse(status: status, headers: ["Content-Type": "text/plain", "X-Path": request.path],
                               body: Data("\(request.method) \(request.path) \(request.query ?? "") \(String(decoding: request.body, as: UTF8.self))".utf8))
    }
}

/// A host name no other test uses, since the phone that serves a host is process-wide.
func uniqueHost(_ name: String) -> String {
    "\(name)-\(UInt32.random(in: 0 ... .max)).sim"
}

/// A phone on the test's clock with `app` installed and launched in the foreground, and
/// `server` registered as `host`.
@MainActor
func phoneWithApp(_ app: String = "Rides", server: any NetworkServer, host: String, seed: UInt64 = 1,
                  link: CellularLinkPolicy = CellularLinkPolicy()) throws -> SimulatedPhone {
    let phone = SimulatedPhone(clock: testClock, link: link, seed: seed)
    phone.register(server: server, host: host)
    try #require(SimulatedNetworkProtocol.sharedSessionReachesPhones,
                 "URLSession.shared was made before any phone registered: a test in this process used it for real HTTP first")
    try phone.install(AppDescription(name: app)) { _ in }
    try phone.perform(.launch(app))
    return phone
}

/// Waits on the test's clock, one `step` at a time, until `condition` holds: for up to
/// `seconds` of virtual time, and in any case for up to four minutes of wall-clock time.
///
/// The wall-clock bound is for conditions that work outside the simulation makes true:
/// Foundation hands a request to the phone on a thread of its own, and on a loaded machine
/// that thread may not run before the test's clock has stepped through many virtual seconds.
@MainActor
func wait(upTo seconds: Double = 60, step: Duration = .milliseconds(1), until condition: () -> Bool) async throws {
    let deadline = testClock.microseconds + Int64(seconds * 1e6)
    // The wall-clock edge: how long outside threads get to make the condition true.
    let wallDeadline = ContinuousClock.now + .seconds(240)
    while !condition(), testClock.microseconds < deadline || ContinuousClock.now < wallDeadline {
        try await testClock.sleep(for: step)
    }
}

/// The network lines of `phone`'s timeline, without their times.
func networkLines(_ phone: SimulatedPhone) -> [String] {
    phone.timeline.compactMap { entry in
        if case let .network(app, exchange) = entry.output { "\(app): \(exchange)" } else { nil }
    }
}

/// Waits until a network line containing `words` is on the timeline (a request was taken
/// in: Foundation hands it to the phone on its own thread).
@MainActor
func waitForLine(_ phone: SimulatedPhone, containing words: String) async throws {
    try await wait { networkLines(phone).contains { $0.contains(words) } }
}

/// The outcome of a completion-handler request.
final class Outcome: Sendable {
    private struct Value {
        var status: Int?
        var body: String?
        var error: URLError?
        var done = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let value = Mutex(Value())

    var done: Bool { value.withLock { $0.done } }
    var status: Int? { value.withLock { $0.status } }
    var body: String? { value.withLock { $0.body } }
    var error: URLError? { value.withLock { $0.error } }

    func settle(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let waiters = value.withLock { value in
            value.status = (response as? HTTPURLResponse)?.statusCode
            value.body = data.map { String(decoding: $0, as: UTF8.self) }
            value.error = error as? URLError
            value.done = true
            defer { value.waiters = [] }
            return value.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the handler ran, without sleeping on the test's clock: Foundation runs
    /// the handler on its own threads, which a sleeping test would let the clock run past.
    func finished() async {
        await withCheckedContinuation { continuation in
            let now = value.withLock { value in
                if !value.done { value.waiters.append(continuation) }
                return value.done
            }
            if now { continuation.resume() }
        }
    }
}
