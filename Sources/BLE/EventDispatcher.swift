import BLEHost
import Synchronization

/// The one consumer of a host's GAP events (``BLEHost/Host/events`` has one reader): a
/// single task per device reads them in order and fans them out — links up and down to
/// their ``Connection``s, peripheral-role links to the incoming-connection queue, and
/// central-role links to the ``Central/connect(to:parameters:timeout:)`` call that made
/// them.
final class EventDispatcher: Sendable {
    /// A ``Central/connect(to:parameters:timeout:)`` call waiting for its link's event.
    private struct Claim {
        var link: GAPConnection
        var continuation: CheckedContinuation<Connection, Never>
    }

    private struct State {
        /// Links up, by handle.
        var live: [UInt16: Connection] = [:]
        /// The newest connection seen for each handle, kept after it went down.
        var latest: [UInt16: Connection] = [:]
        /// Central-role links whose connect call has not taken them yet.
        var unclaimed: [Connection] = []
        var claims: [Claim] = []
        /// Lookups by handle waiting for that handle's link event.
        var handleWaiters: [UInt16: [CheckedContinuation<Connection?, Never>]] = [:]
        /// Set when the event stream ended: the reason every link is considered down.
        var ended: HCI.StatusCode?
    }

    private let core: DeviceCore
    private let state = Mutex(State())
    /// Peripheral-role links, for ``Peripheral/connections``.
    let incoming = Mailbox<Connection>()

    init(core: DeviceCore) {
        self.core = core
    }

    /// Starts the one task that reads the host's events until they end.
    /// - Parameter endReason: called when the stream ends, for the reason to give every
    ///   link still up.
    func run(endReason: @escaping @Sendable () -> HCI.StatusCode) -> Task<Void, Never> {
        let events = core.host.events
        return Task {
            for await event in events { self.handle(event) }
            self.end(reason: endReason())
        }
    }

    /// The links up now, by ascending handle.
    var connections: [Connection] {
        state.withLock { state in state.live.keys.sorted().compactMap { state.live[$0] } }
    }

    // MARK: Lookups

    /// The connection for the link ``BLEHost/Host/connect(_:)`` returned, once this
    /// dispatcher has read its event (it is on the event stream before the call returns).
    func claim(_ link: GAPConnection) async -> Connection {
        await withCheckedContinuation { continuation in
            let found: Connection? = state.withLock { state in
                if let index = state.unclaimed.firstIndex(where: { $0.link == link }) { return state.unclaimed.remove(at: index) }
                if let reason = state.ended {
                    let connection = Connection(link: link, core: core)
                    connection.wentDown(reason)
                    return connection
                }
                state.claims.append(Claim(link: link, continuation: continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// The newest connection with `handle`, waiting for its link event if it has not been
    /// read yet; `nil` if the events ended first. Used for channels a peer opens: a channel
    /// needs its link's signaling round trip, so its link event was read long before.
    func connection(handle: UInt16) async -> Connection? {
        await withCheckedContinuation { continuation in
            let found: Connection?? = state.withLock { state in
                if let connection = state.latest[handle] { return .some(connection) }
                if state.ended != nil { return .some(nil) }
                state.handleWaiters[handle, default: []].append(continuation)
                return .none
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    // MARK: Events

    private func handle(_ event: GAPEvent) {
        switch event {
        case let .connected(link):
            linkUp(link)
        case let .disconnected(handle, reason):
            let connection = state.withLock { $0.live.removeValue(forKey: handle) }
            connection?.wentDown(reason)
            core.gatt.linkDown(handle)
        case let .connectionParametersUpdated(handle, parameters):
            let connection = state.withLock { $0.live[handle] }
            connection?.parametersChanged(ConnectionParameters(parameters))
        case let .dataLengthChanged(handle, length):
            let connection = state.withLock { $0.live[handle] }
            connection?.dataLengthChanged(tx: Int(length.maxTxOctets), rx: Int(length.maxRxOctets))
        default:
            break
        }
    }

    private func linkUp(_ link: GAPConnection) {
        let connection = Connection(link: link, core: core)
        core.security.linkUp(link, host: core.host)
        let (claim, lookups) = state.withLock { state -> (Claim?, [CheckedContinuation<Connection?, Never>]) in
            state.live[link.handle] = connection
            state.latest[link.handle] = connection
            let lookups = state.handleWaiters.removeValue(forKey: link.handle) ?? []
            guard link.role == .central else { return (nil, lookups) }
            if let index = state.claims.firstIndex(where: { $0.link == link }) { return (state.claims.remove(at: index), lookups) }
            state.unclaimed.append(connection)
            return (nil, lookups)
        }
        for lookup in lookups { lookup.resume(returning: connection) }
        if link.role == .peripheral { incoming.put(connection) }
        claim?.continuation.resume(returning: connection)
    }

    /// The event stream ended (the host closed): every link is down and every wait ends.
    private func end(reason: HCI.StatusCode) {
        let (live, claims, lookups) = state.withLock { state in
            state.ended = reason
            let live = Array(state.live.values)
            state.live = [:]
            let claims = state.claims
            state.claims = []
            let lookups = state.handleWaiters.values.flatMap { $0 }
            state.handleWaiters = [:]
            return (live, claims, lookups)
        }
        for connection in live { connection.wentDown(reason) }
        for claim in claims {
            let connection = Connection(link: claim.link, core: core)
            connection.wentDown(reason)
            claim.continuation.resume(returning: connection)
        }
        for lookup in lookups { lookup.resume(returning: nil) }
        incoming.finish()
    }
}
