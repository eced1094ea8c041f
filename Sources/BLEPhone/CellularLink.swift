/// The numbers of a phone's simulated cellular link.
public struct CellularLinkPolicy: Hashable, Sendable {
    /// The fixed part of the one-way latency, in microseconds. Default 50 ms, our choice
    /// (a good LTE link's round trip is 30 to 100 ms).
    public var baseLatency: Int64 = 50_000
    /// The extra one-way latency drawn uniformly from `0...jitter` for each direction of
    /// each request with the link's seeded sequence, in microseconds. Default 20 ms.
    public var jitter: Int64 = 20_000

    /// The defaults above.
    public init() {}
}

/// A phone's cellular link as a sans-IO state machine: requests go in with the time, and
/// out come the times they reach their server, the times their answers reach the phone,
/// and their failures. ``nextDeadline`` says when to call ``advance(to:)``.
///
/// The rules follow what iOS reports to an app's `URLSession`:
/// - a request made while the link is off fails at once with
///   ``NetworkFailure/notConnectedToInternet`` (-1009);
/// - a request in flight (travelling, at its server, or its answer travelling back) when the
///   link goes down fails with ``NetworkFailure/networkConnectionLost`` (-1005);
/// - a request with no answer back within its timeout (`URLRequest.timeoutInterval`, 60 s
///   by default) fails with ``NetworkFailure/timedOut`` (-1001).
///
/// Each direction takes ``CellularLinkPolicy/baseLatency`` plus a jitter drawn from a
/// seeded sequence, so the same seed gives the same times.
public struct CellularLink: Sendable {
    /// Where one request is.
    enum Stage: Sendable {
        /// On its way to the server, arriving at the time.
        case outbound(Int64)
        /// At the server, which has not answered.
        case atServer
        /// The answer on its way back, arriving at the time.
        case inbound(Int64)
    }

    struct Exchange: Sendable {
        var stage: Stage
        var deadline: Int64
    }

    /// What the link did, for the phone to carry out.
    public enum Output: Hashable, Sendable {
        /// The request reached its server: hand it over.
        case reachedServer(UInt64)
        /// The server's answer reached the phone: hand it to the app.
        case answered(UInt64)
        /// The request failed.
        case failed(UInt64, NetworkFailure)
    }

    /// The numbers in force.
    public let policy: CellularLinkPolicy
    /// Whether the link is up.
    public private(set) var isOn = true
    var exchanges: [UInt64: Exchange] = [:]
    /// The seeded sequence (SplitMix64) of the jitter.
    var random: UInt64

    /// A link that is up, with nothing in flight; `seed` makes its jitter repeat.
    public init(policy: CellularLinkPolicy = CellularLinkPolicy(), seed: UInt64 = 0) {
        self.policy = policy
        random = seed
    }

    /// The requests in flight, in order of their numbers.
    public var inFlight: [UInt64] { exchanges.keys.sorted() }

    /// Sends request `id` at `now`, to be answered within `timeout` microseconds. Returns
    /// the failure when the link is off; otherwise the request is on its way.
    public mutating func send(_ id: UInt64, timeout: Int64, at now: Int64) -> NetworkFailure? {
        guard isOn else { return .notConnectedToInternet }
        exchanges[id] = Exchange(stage: .outbound(now + latency()), deadline: now + max(0, timeout))
        return nil
    }

    /// The server answered request `id` at `now`: the answer travels back. Nothing happens
    /// for a request no longer in flight (it failed or was cancelled meanwhile).
    public mutating func serverAnswered(_ id: UInt64, at now: Int64) {
        guard var exchange = exchanges[id], case .atServer = exchange.stage else { return }
        exchange.stage = .inbound(now + latency())
        exchanges[id] = exchange
    }

    /// The app cancelled request `id`: nothing more comes of it.
    public mutating func cancel(_ id: UInt64) {
        exchanges[id] = nil
    }

    /// Switches the link on or off at `now`; switching it off fails every request in flight.
    public mutating func set(on: Bool, at now: Int64) -> [Output] {
        isOn = on
        guard !on else { return [] }
        let lost = inFlight.map { Output.failed($0, .networkConnectionLost) }
        exchanges = [:]
        return lost
    }

    /// The earliest time ``advance(to:)`` has something to do, if any.
    public var nextDeadline: Int64? {
        exchanges.values.map { exchange in
            switch exchange.stage {
            case let .outbound(at), let .inbound(at): min(at, exchange.deadline)
            case .atServer: exchange.deadline
            }
        }.min()
    }

    /// Carries out what is due by `now`, in order of the requests' numbers: arrivals at
    /// servers, answers back, and timeouts. An answer arriving at its deadline arrives.
    public mutating func advance(to now: Int64) -> [Output] {
        var outputs: [Output] = []
        for id in inFlight {
            guard var exchange = exchanges[id] else { continue }
            switch exchange.stage {
            case let .outbound(at) where at <= now && at <= exchange.deadline:
                exchange.stage = .atServer
                exchanges[id] = exchange
                outputs.append(.reachedServer(id))
                continue
            case let .inbound(at) where at <= now && at <= exchange.deadline:
                exchanges[id] = nil
                outputs.append(.answered(id))
                continue
            default:
                break
            }
            if exchange.deadline <= now {
                exchanges[id] = nil
                outputs.append(.failed(id, .timedOut))
            }
        }
        return outputs
    }

    /// One direction's latency: the base plus a seeded jitter.
    private mutating func latency() -> Int64 {
        policy.baseLatency + Int64(nextRandom() % UInt64(max(0, policy.jitter) + 1))
    }

    /// The next value of the link's seeded sequence.
    private mutating func nextRandom() -> UInt64 {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
