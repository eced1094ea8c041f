import BLETime
import Dispatch
import Foundation
import Synchronization

/// The phone's cellular link and the servers its apps reach through it, inside a
/// simulation (docs/network.md): a request leaves at the time the app makes it, reaches
/// its server one link latency later, and the answer comes back one latency after the
/// server gives it, all on the phone's clock. Apps make their requests with Foundation's
/// `URLSession`; ``SimulatedNetworkProtocol`` hands those for a registered host to the phone.
///
/// iOS's rules for an app's in-process session:
/// - an app that is not running (suspended, terminated) runs no code, so it makes no
///   request: a request made on its behalf waits until the app next runs (a wake for an
///   event, a background task, the foreground);
/// - an answer that arrives while the app is suspended is kept and delivered when the app
///   next runs, as iOS resumes a suspended app's session with the answers it got;
/// - when the app ends, its requests end with it: nothing is delivered.
extension SimulatedPhone {
    /// One request of an app, from the moment it is made to its answer or failure.
    struct NetworkExchange {
        let app: String
        let request: NetworkRequest
        /// Its timeout, in microseconds.
        let timeout: Int64
        /// When it left the phone; `nil` while it waits for its app to run.
        var sentAt: Int64?
        /// The server's answer, once given.
        var response: NetworkResponse?
        /// Hands the outcome to the app's session.
        let finish: @Sendable (Result<NetworkResponse, NetworkFailure>) -> Void
    }

    /// The network part of the phone's system.
    struct NetworkState {
        var link: CellularLink
        /// The in-simulation servers, by host name (lower case).
        var servers: [String: any NetworkServer] = [:]
        var exchanges: [UInt64: NetworkExchange] = [:]
        var nextID: UInt64 = 1
        /// Requests made while their app did not run, in order: sent when it runs.
        var waiting: [String: [UInt64]] = [:]
        /// Outcomes that arrived while their app did not run: delivered when it runs.
        var held: [String: [@Sendable () -> Void]] = [:]
        /// The app whose launch entry point ran last: the one whose requests the phone sees.
        var currentApp: String?

        init(link: CellularLink) {
            self.link = link
        }
    }

    // MARK: Servers and the link

    /// Makes `server` reachable from the phone's apps as `host` ("backend.sim"): their
    /// `URLSession` requests for that host go over the phone's cellular link to it instead of
    /// the real network. Registers ``SimulatedNetworkProtocol`` with `URLProtocol`, for
    /// sessions made from now on (and `URLSession.shared`, when first used after this).
    public func register(server: any NetworkServer, host: String) {
        state.withLock { $0.network.servers[host.lowercased()] = server }
        SimulatedNetworkProtocol.serve(host: host, on: self)
    }

    /// Whether `host` is a server the phone's apps reach through the simulated link.
    public func serves(host: String) -> Bool {
        state.withLock { $0.network.servers[host.lowercased()] != nil }
    }

    /// Whether the cellular link is up.
    public var isNetworkOn: Bool { state.withLock { $0.network.link.isOn } }

    /// How many requests of the phone's apps are made and have not ended: waiting for
    /// their app to run, or on the link (an answer kept for a suspended app has ended).
    public var requestsInFlight: Int { state.withLock { $0.network.exchanges.count } }

    /// The numbers of the phone's cellular link.
    public var cellularLinkPolicy: CellularLinkPolicy { state.withLock { $0.network.link.policy } }

    /// Switches the cellular link on or off (an outage, a tunnel, airplane mode); switching
    /// it off fails every request in flight with ``NetworkFailure/networkConnectionLost``.
    public func setNetwork(on: Bool) {
        let now = clock.microseconds
        let effects = state.withLock { state -> [Effect] in
            state.timeline.append(PhoneTimelineEntry(time: now, output: .network(app: "cellular", exchange: "link \(on ? "up" : "down")")))
            return state.linkOutputs(state.network.link.set(on: on, at: now), at: now)
        }
        carryOut(effects, inline: nil)
        rearm()
    }

    /// The app the phone attributes a `URLSession` request to: the one launched last (from
    /// the moment it is launched, before its entry point has run), as
    /// `UNUserNotificationCenter.current()` is that app's centre.
    public var currentNetworkApp: String? { state.withLock { $0.network.currentApp } }

    // MARK: Requests

    /// Sends `request` for `app` over the cellular link, to be answered within `timeout`
    /// microseconds; `finish` gets the answer or the failure, once, when the app runs.
    /// Returns the request's number, for ``cancelRequest(_:)``.
    @discardableResult
    public func send(_ request: NetworkRequest, timeout: Int64, for app: String,
                     finish: @escaping @Sendable (Result<NetworkResponse, NetworkFailure>) -> Void) -> UInt64 {
        let now = clock.microseconds
        let (id, effects) = state.withLock { state -> (UInt64, [Effect]) in
            let id = state.network.nextID
            state.network.nextID += 1
            state.network.exchanges[id] = NetworkExchange(app: app, request: request, timeout: timeout, finish: finish)
            guard (try? state.core.state(of: app))?.isRunning ?? true else {
                state.network.waiting[app, default: []].append(id)
                state.note(app, "→ \(request.method) \(request.host)\(request.path) waits: \(app) is not running", at: now)
                return (id, [])
            }
            return (id, state.start(id, at: now))
        }
        carryOut(effects, inline: nil)
        rearm()
        return id
    }

    /// The app's session cancelled request `id`: nothing more comes of it.
    public func cancelRequest(_ id: UInt64) {
        state.withLock { state in
            guard let exchange = state.network.exchanges.removeValue(forKey: id) else { return }
            state.network.link.cancel(id)
            state.network.waiting[exchange.app]?.removeAll { $0 == id }
        }
        rearm()
    }

    /// The server answered request `id`: the answer travels back over the link.
    func serverAnswered(_ id: UInt64, _ response: NetworkResponse) {
        let now = clock.microseconds
        state.withLock { state in
            guard state.network.exchanges[id] != nil else { return }
            state.network.exchanges[id]?.response = response
            state.network.link.serverAnswered(id, at: now)
        }
        rearm()
    }

    /// Hands request `id` to `server` and the answer back to the link. In a simulation,
    /// time stands still while the server works (it may use real I/O, a database), so its
    /// answer leaves at the virtual time the request arrived.
    func serve(_ id: UInt64, _ request: NetworkRequest, with server: any NetworkServer) {
        guard let simulation else {
            Task { [self] in serverAnswered(id, await server.respond(to: request)) }
            return
        }
        simulation.dispatch(to: SimulatedPhone.serverQueue) { [self] in
            let answer = ServerAnswer()
            let done = DispatchSemaphore(value: 0)
            // A block on another thread starts the server's task outside the simulation,
            // whose thread waits for this one: on it, the task would never run. The task
            // runs on Dispatch's threads, which a blocked cooperative pool cannot starve.
            DispatchQueue.global().async {
                Task.detached(executorPreference: ServerTaskExecutor.shared) {
                    let response = await server.respond(to: request)
                    answer.value.withLock { $0 = response }
                    done.signal()
                }
            }
            let response: NetworkResponse
            if done.wait(timeout: .now() + SimulatedPhone.serverPatience) == .success, let given = answer.value.withLock({ $0 }) {
                response = given
            } else {
                response = NetworkResponse(status: 504, headers: ["Content-Type": "text/plain"],
                                           body: Data("the simulated server gave no answer within \(SimulatedPhone.serverPatience)".utf8))
            }
            serverAnswered(id, response)
        }
    }

    /// A server's answer, handed from the task that asked for it to the thread waiting for it.
    final class ServerAnswer: Sendable {
        let value = Mutex<NetworkResponse?>(nil)
    }

    /// The queue the simulation waits on while a server works.
    static let serverQueue = DispatchQueue(label: "SwiftBLE.SimulatedPhone.server")
    /// How long, in real time, a simulation waits for an in-process server's answer.
    static let serverPatience = DispatchTimeInterval.seconds(60)
}

extension SimulatedPhone.State {
    /// Puts a line of `app`'s network activity on the timeline.
    mutating func note(_ app: String, _ words: String, at now: Int64) {
        timeline.append(PhoneTimelineEntry(time: now, output: .network(app: app, exchange: words)))
    }

    /// Sends request `id` over the link now.
    mutating func start(_ id: UInt64, at now: Int64) -> [SimulatedPhone.Effect] {
        guard let exchange = network.exchanges[id] else { return [] }
        network.exchanges[id]?.sentAt = now
        guard let failure = network.link.send(id, timeout: exchange.timeout, at: now) else { return [] }
        return finish(id, .failure(failure), at: now)
    }

    /// Carries out what the link did.
    mutating func linkOutputs(_ outputs: [CellularLink.Output], at now: Int64) -> [SimulatedPhone.Effect] {
        var effects: [SimulatedPhone.Effect] = []
        for output in outputs {
            switch output {
            case let .reachedServer(id):
                guard let exchange = network.exchanges[id] else { continue }
                // A host unregistered meanwhile answers nothing: the request times out.
                guard let server = network.servers[exchange.request.host.lowercased()] else { continue }
                effects.append(.serve(id, exchange.request, server))
            case let .answered(id):
                guard let response = network.exchanges[id]?.response else { continue }
                effects += finish(id, .success(response), at: now)
            case let .failed(id, failure):
                effects += finish(id, .failure(failure), at: now)
            }
        }
        return effects
    }

    /// Request `id` ended: on the timeline, and to its app now, or when the app next runs.
    mutating func finish(_ id: UInt64, _ result: Result<NetworkResponse, NetworkFailure>, at now: Int64) -> [SimulatedPhone.Effect] {
        guard let exchange = network.exchanges.removeValue(forKey: id) else { return [] }
        let request = exchange.request
        let took = exchange.sentAt.map { " (\((now - $0) / 1000) ms)" } ?? ""
        switch result {
        case let .success(response):
            note(exchange.app, "→ \(request.method) \(request.host)\(request.path) \(response.status)\(took)", at: now)
        case let .failure(failure):
            note(exchange.app, "→ \(request.method) \(request.host)\(request.path) failed: \(failure)\(took)", at: now)
        }
        let finish = exchange.finish
        let delivery: @Sendable () -> Void = { finish(result) }
        guard (try? core.state(of: exchange.app))?.isRunning ?? true else {
            network.held[exchange.app, default: []].append(delivery)
            note(exchange.app, "answer to \(request.method) \(request.path) kept until \(exchange.app) runs", at: now)
            return []
        }
        return [.call(delivery)]
    }

    /// `app` moved to `to`: a running app sends what waited and gets what was kept; an app
    /// that ended takes its requests with it.
    mutating func networkFollows(_ app: String, to: AppState, at now: Int64) -> [SimulatedPhone.Effect] {
        if case .terminated = to {
            let gone = network.exchanges.filter { $0.value.app == app }.keys.sorted()
            for id in gone {
                network.exchanges[id] = nil
                network.link.cancel(id)
            }
            network.waiting[app] = nil
            network.held[app] = nil
            if !gone.isEmpty { note(app, "\(gone.count) request(s) ended with the app", at: now) }
            return []
        }
        guard to.isRunning else { return [] }
        var effects: [SimulatedPhone.Effect] = (network.held.removeValue(forKey: app) ?? []).map { .call($0) }
        for id in network.waiting.removeValue(forKey: app) ?? [] {
            effects += start(id, at: now)
        }
        return effects
    }
}
