import BLEHost
import Synchronization

/// The one consumer of a host's ``BLEHost/Host/gattEvents``: routes notified values to
/// the ``GATTNotifications`` that asked for them, our server's requests to the handlers
/// of ``Peripheral/publish(_:)``, a peer's Service Changed to the discovered trees, and a
/// bonded client's CCCD writes to its bond (Core 5.4, Vol 3, Part G, §3.3.3.3).
final class GATTDispatcher: Sendable {
    /// Where a peer's values for one characteristic go.
    struct SubscriberKey: Hashable {
        var connection: UInt16
        var valueHandle: UInt16
    }

    private struct State {
        var subscribers: [SubscriberKey: AsyncStream<[UInt8]>.Continuation] = [:]
        var handlers: [UInt16: GATTRequestHandlers] = [:]
    }

    private let host: BLEHost.Host
    private let bonds: DeviceBonds
    private let state = Mutex(State())
    /// What discovery found on each connection.
    let trees = DiscoveredTrees()

    init(host: BLEHost.Host, bonds: DeviceBonds) {
        self.host = host
        self.bonds = bonds
    }

    /// Starts the task that reads the events until the host closes.
    func run() -> Task<Void, Never> {
        let events = host.gattEvents
        return Task {
            for await event in events { await self.handle(event) }
            self.endAll()
        }
    }

    /// Registers the stream for one characteristic on one connection, replacing an older one.
    func subscribe(_ key: SubscriberKey) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        let old = state.withLock { state in
            defer { state.subscribers[key] = continuation }
            return state.subscribers[key]
        }
        old?.finish()
        return stream
    }

    /// Ends the stream for `key`.
    func unsubscribe(_ key: SubscriberKey) {
        state.withLock { $0.subscribers.removeValue(forKey: key) }?.finish()
    }

    /// Sets the handlers of our server's dynamic values, by value handle.
    func setHandlers(_ handlers: [UInt16: GATTRequestHandlers]) {
        state.withLock { $0.handlers = handlers }
    }

    /// A link went down: its streams end and its discovered tree is forgotten.
    func linkDown(_ connection: UInt16) {
        trees.linkDown(connection)
        let ended = state.withLock { state -> [AsyncStream<[UInt8]>.Continuation] in
            let keys = state.subscribers.keys.filter { $0.connection == connection }
            return keys.compactMap { state.subscribers.removeValue(forKey: $0) }
        }
        for continuation in ended { continuation.finish() }
    }

    private func handle(_ event: HostGATTEvent) async {
        switch event {
        case let .notification(connection, handle, value), let .indication(connection, handle, value):
            let subscriber = state.withLock { $0.subscribers[SubscriberKey(connection: connection, valueHandle: handle)] }
            subscriber?.yield(value)
        case let .readRequest(request):
            let handler = state.withLock { $0.handlers[request.handle]?.read }
            guard let handler else {
                await host.respond(to: request.id, with: .failure(.readNotPermitted))
                return
            }
            let host = self.host
            Task { await host.respond(to: request.id, with: await handler(GATTReadRequest(request))) }
        case let .writeRequest(request):
            let handler = state.withLock { $0.handlers[request.handle]?.write }
            guard let handler else {
                if request.expectsResponse { await host.respond(to: request.id, with: .failure(.writeNotPermitted)) }
                return
            }
            let host = self.host
            Task {
                let result = await handler(GATTWriteRequest(request))
                if request.expectsResponse { await host.respond(to: request.id, with: result.map { [] }) }
            }
        case let .subscriptionChanged(subscription):
            guard let peer = await host.connections.first(where: { $0.handle == subscription.connection })?.peer else { return }
            let bits: UInt16 = (subscription.notify ? 0x0001 : 0) | (subscription.indicate ? 0x0002 : 0)
            bonds.clientConfigurationChanged(peer, valueHandle: subscription.valueHandle, bits: bits)
        case let .serviceChanged(connection, handles):
            trees.serviceChanged(connection, range: handles)
        case .mtuChanged, .valueWritten, .bearerClosed:
            break
        }
    }

    private func endAll() {
        let all = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }
}
