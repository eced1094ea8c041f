import BLEPhone
import BLETime
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A request the phone took in while its task resumed, until Foundation's loading system
/// starts its ``SimulatedNetworkProtocol`` object on a queue of its own, and then its answer.
///
/// swift-corelibs-foundation asks `canInit(with:)` once, on the thread that resumes the task
/// (in a simulation, the simulation's), and starts loading later on another thread. The
/// request leaves the phone at once, at the virtual time and in the order the app made it;
/// the clock is held (``TimeHold``) until the protocol object has taken it over, so an answer
/// or a failure reaches the app at the virtual time the link gives, however late that thread
/// runs.
final class NetworkHandOver: Sendable {
    /// The protocol object, once loading started. `@unchecked Sendable` is safe: the box is
    /// immutable, and through it only ``SimulatedNetworkProtocol/deliver(_:for:)`` runs, once
    /// per request (the phone finishes a request once), which only calls the loading system's
    /// client — documented as callable from any thread; swift-corelibs-foundation hops onto
    /// the task's own queue.
    private final class Loader: @unchecked Sendable {
        let value: SimulatedNetworkProtocol
        init(_ value: SimulatedNetworkProtocol) { self.value = value }
    }

    private struct State {
        var loader: Loader?
        /// An outcome that came before loading started (a failure at once: the link is down).
        var early: Result<NetworkResponse, NetworkFailure>?
        var id: UInt64?
    }

    let phone: SimulatedPhone
    let url: URL
    let method: String
    let body: Data?
    private let simulation: Simulation
    private let hold: TimeHold
    private let state = Mutex(State())

    /// A hand-over of `request` on `phone`, holding `simulation`'s clock until loading starts.
    init(phone: SimulatedPhone, request: URLRequest, url: URL, simulation: Simulation) {
        self.phone = phone
        self.url = url
        method = (request.httpMethod ?? "GET").uppercased()
        body = request.httpBody
        self.simulation = simulation
        hold = simulation.holdTime()
        // A task cancelled before it starts never comes for its request.
        hold.release(afterAtMost: 30)
    }

    /// The request's number on its phone, for cancelling.
    var id: UInt64? {
        get { state.withLock { $0.id } }
        set { state.withLock { $0.id = newValue } }
    }

    /// The phone's outcome: to the loading system if loading started, else kept for it.
    func finish(_ result: Result<NetworkResponse, NetworkFailure>) {
        let loader = state.withLock { state -> Loader? in
            if state.loader == nil { state.early = result }
            return state.loader
        }
        if let loader { deliver(result, to: loader.value) }
    }

    /// Loading started: `loader` takes over, gets an outcome that came early, and the clock
    /// moves again. The early outcome is handed over on the simulation's thread, as the
    /// phone hands over the others, so an async call resumes there and stays in the
    /// simulation's timeline.
    func attach(_ loader: SimulatedNetworkProtocol) {
        let early = state.withLock { state -> Result<NetworkResponse, NetworkFailure>? in
            state.loader = Loader(loader)
            defer { state.early = nil }
            return state.early
        }
        guard let early else { return Self.release(hold) }
        let taken = Loader(loader)
        simulation.execute { [self] in
            deliver(early, to: taken.value)
            Self.release(hold)
        }
    }

    /// Hands `result` to the loading system with the clock held until the session has run
    /// what it does with it: an async call's continuation is resumed inline; a completion
    /// handler runs on the session's delegate queue.
    private func deliver(_ result: Result<NetworkResponse, NetworkFailure>, to loader: SimulatedNetworkProtocol) {
        let delivery = simulation.holdTime()
        loader.deliver(result, for: url)
        Self.release(delivery)
    }

    /// Releases `hold` once the shared session's delegate queue has run what was queued on
    /// it so far (where `URLSession.shared` runs completion handlers), and within five
    /// seconds of wall-clock time in any case (a handler that blocks its queue).
    private static func release(_ hold: TimeHold) {
        URLSession.shared.delegateQueue.addOperation { hold.release() }
        hold.release(afterAtMost: 5)
    }
}

extension NetworkHandOver {
    /// The hand-overs waiting for their loading to start, by method and URL, oldest first.
    private static let waiting = Mutex<[String: [NetworkHandOver]]>([:])

    private static func key(_ method: String, _ url: URL) -> String {
        method + " " + url.absoluteString
    }

    /// Keeps `handOver` for the protocol object that will load its request.
    static func keep(_ handOver: NetworkHandOver) {
        waiting.withLock { $0[key(handOver.method, handOver.url), default: []].append(handOver) }
    }

    /// The hand-over of `request`, if the phone took it in: the oldest with the same method,
    /// URL and body, else the oldest with the same method and URL.
    static func take(for request: URLRequest) -> NetworkHandOver? {
        guard let url = request.url else { return nil }
        let key = key((request.httpMethod ?? "GET").uppercased(), url)
        return waiting.withLock { waiting -> NetworkHandOver? in
            guard var queue = waiting[key], !queue.isEmpty else { return nil }
            let index = queue.firstIndex { $0.body == request.httpBody } ?? queue.startIndex
            let handOver = queue.remove(at: index)
            waiting[key] = queue.isEmpty ? nil : queue
            return handOver
        }
    }
}
