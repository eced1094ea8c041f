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
        var subscribers: [SubscriberKey: (values: AsyncStream<[UInt8]>.Continuation, dropped: GATTDroppedValues)] = [:]
        var handlers: [UInt16: GATTRequestHandlers] = [:]
        /// Values whose requests go to ``requests``.
        var appAnswered: Set<UInt16> = []
        /// Execute Write batches being collected, by their first request: how many parts
        /// came, and the app-answered ones.
        var batches: [GATTAppRequest.ID: (seen: Int, writes: [GATTAppRequest])] = [:]
        /// The value handles each connection is subscribed to.
        var subscriptions: [UInt16: Set<UInt16>] = [:]
    }

    private let host: BLEHost.Host
    private let bonds: DeviceBonds
    private let state = Mutex(State())
    /// What discovery found on each connection.
    let trees = DiscoveredTrees()
    /// Requests for app-answered values (``Peripheral/requests``).
    let requests = Mailbox<GATTServerRequest>()
    /// ``Peripheral/subscriptionChanges``.
    let subscriptionChanges: AsyncStream<GATTSubscriptionChange>
    private let subscriptionContinuation: AsyncStream<GATTSubscriptionChange>.Continuation
    /// The streams of ``Peripheral/watchSubscriptions()``, each a reader of its own.
    private let watchers = Mutex<(next: UInt64, streams: [UInt64: AsyncStream<GATTSubscriptionChange>.Continuation])>((0, [:]))

    init(host: BLEHost.Host, bonds: DeviceBonds) {
        self.host = host
        self.bonds = bonds
        (subscriptionChanges, subscriptionContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
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
    /// The stream keeps the newest ``GATTNotifications/backlog`` unread values.
    func subscribe(_ key: SubscriberKey) -> (AsyncStream<[UInt8]>, GATTDroppedValues) {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(GATTNotifications.backlog))
        let dropped = GATTDroppedValues()
        let old = state.withLock { state in
            defer { state.subscribers[key] = (continuation, dropped) }
            return state.subscribers[key]
        }
        old?.values.finish()
        return (stream, dropped)
    }

    /// Ends the stream for `key`.
    func unsubscribe(_ key: SubscriberKey) {
        state.withLock { $0.subscribers.removeValue(forKey: key) }?.values.finish()
    }

    /// Sets the handlers of our server's dynamic values, by value handle, and the values
    /// answered through ``requests``.
    func setHandlers(_ handlers: [UInt16: GATTRequestHandlers], appAnswered: Set<UInt16> = []) {
        state.withLock {
            $0.handlers = handlers
            $0.appAnswered = appAnswered
        }
    }

    /// A link went down: its streams end, its discovered tree is forgotten and its
    /// subscriptions are reported ended (a bonded client's are kept by the host for its
    /// return, Vol 3, Part G, §3.3.3.3, and reported again when it writes its configuration).
    func linkDown(_ connection: UInt16) {
        trees.linkDown(connection)
        let (ended, unsubscribed) = state.withLock { state -> ([AsyncStream<[UInt8]>.Continuation], Set<UInt16>) in
            let keys = state.subscribers.keys.filter { $0.connection == connection }
            let ended = keys.compactMap { state.subscribers.removeValue(forKey: $0)?.values }
            return (ended, state.subscriptions.removeValue(forKey: connection) ?? [])
        }
        for continuation in ended { continuation.finish() }
        for handle in unsubscribed.sorted() {
            publish(GATTSubscriptionChange(connection: connection, valueHandle: handle, isSubscribed: false))
        }
    }

    private func handle(_ event: HostGATTEvent) async {
        switch event {
        case let .notification(connection, handle, value), let .indication(connection, handle, value):
            guard let subscriber = state.withLock({ $0.subscribers[SubscriberKey(connection: connection, valueHandle: handle)] }),
                  case .dropped = subscriber.values.yield(value) else { return }
            let total = subscriber.dropped.add()
            if total == 1 || total.isMultiple(of: 1000) {
                deviceLog.warning("notifications of handle \(handle) on connection \(connection) unread: \(GATTNotifications.backlog) held, \(total) oldest dropped so far")
            }
        case let .readRequest(request):
            let (handler, answered) = state.withLock { ($0.handlers[request.handle]?.read, $0.appAnswered.contains(request.handle)) }
            if answered {
                if !requests.put(.read(GATTReadRequestToAnswer(request, host: host))) {
                    await host.respond(to: request.id, with: .failure(.unlikelyError))
                }
                return
            }
            guard let handler else {
                await host.respond(to: request.id, with: .failure(.readNotPermitted))
                return
            }
            let host = self.host
            Task { await host.respond(to: request.id, with: await handler(GATTReadRequest(request))) }
        case let .writeRequest(request):
            if let batch = request.batch {
                collect(request, of: batch)
                return
            }
            let (handler, answered) = state.withLock { ($0.handlers[request.handle]?.write, $0.appAnswered.contains(request.handle)) }
            if answered {
                deliver([request])
                return
            }
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
            subscriptionChanged(subscription)
            guard let peer = await host.connections.first(where: { $0.handle == subscription.connection })?.peer else { return }
            let bits: UInt16 = (subscription.notify ? 0x0001 : 0) | (subscription.indicate ? 0x0002 : 0)
            bonds.clientConfigurationChanged(peer, valueHandle: subscription.valueHandle, bits: bits)
        case let .serviceChanged(connection, handles):
            trees.serviceChanged(connection, range: handles)
        case .mtuChanged, .valueWritten, .bearerClosed:
            break
        }
    }

    /// Delivers app-answered writes as one request; refused if the device closed.
    private func deliver(_ writes: [GATTAppRequest]) {
        guard !writes.isEmpty else { return }
        let request = GATTWritesToAnswer(writes, host: host)
        if !requests.put(.write(request)) { Task { await request.respond(.failure(.unlikelyError)) } }
    }

    /// One part of an Execute Write: its app-answered parts go out together once all came;
    /// the others go to their handlers as single writes.
    private func collect(_ request: GATTAppRequest, of batch: GATTAppRequest.Batch) {
        let (answered, handler) = state.withLock { ($0.appAnswered.contains(request.handle), $0.handlers[request.handle]?.write) }
        let complete = state.withLock { state -> [GATTAppRequest]? in
            var entry = state.batches[batch.first] ?? (0, [])
            entry.seen += 1
            if answered { entry.writes.append(request) }
            guard entry.seen >= batch.count else {
                state.batches[batch.first] = entry
                return nil
            }
            state.batches[batch.first] = nil
            return entry.writes
        }
        if !answered {
            Task {
                let result: Result<Void, ATT.ErrorCode> = if let handler { await handler(GATTWriteRequest(request)) } else { .failure(.writeNotPermitted) }
                await self.host.respond(to: request.id, with: result.map { [] })
            }
        }
        if let complete { deliver(complete) }
    }

    /// Tracks which values each client is subscribed to and reports the changes.
    private func subscriptionChanged(_ subscription: GATTSubscription) {
        let subscribed = subscription.notify || subscription.indicate
        let changed = state.withLock { state -> Bool in
            var handles = state.subscriptions[subscription.connection] ?? []
            let changed = subscribed ? handles.insert(subscription.valueHandle).inserted : handles.remove(subscription.valueHandle) != nil
            state.subscriptions[subscription.connection] = handles.isEmpty ? nil : handles
            return changed
        }
        guard changed else { return }
        publish(GATTSubscriptionChange(
            connection: subscription.connection, valueHandle: subscription.valueHandle, isSubscribed: subscribed))
    }

    private func endAll() {
        let all = state.withLock { state in
            defer { state.subscribers = [:] }
            return state.subscribers.values.map(\.values)
        }
        for continuation in all { continuation.finish() }
        requests.finish()
        subscriptionContinuation.finish()
        for watcher in watchers.withLock({ $0.streams.values }) { watcher.finish() }
    }

    /// A stream of its own of every later subscription change.
    func watchSubscriptions() -> AsyncStream<GATTSubscriptionChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: GATTSubscriptionChange.self, bufferingPolicy: .unbounded)
        let id = watchers.withLock { watchers in
            defer { watchers.next += 1 }
            watchers.streams[watchers.next] = continuation
            return watchers.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.watchers.withLock { $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Hands `change` to ``subscriptionChanges`` and every watcher.
    private func publish(_ change: GATTSubscriptionChange) {
        subscriptionContinuation.yield(change)
        for watcher in watchers.withLock({ Array($0.streams.values) }) { watcher.yield(change) }
    }
}
