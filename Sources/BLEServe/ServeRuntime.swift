import BLEHost
import BLEProfiles
import BLEStorage
import BLEWire

/// A serve file's server while it runs (what `ble serve` does, and a program can too):
/// answers the dynamic values' reads and writes from its own store, notifies or indicates
/// written values to subscribers, streams values to subscribers (``ServeStream``), and
/// reports every event to `onEvent` with the time it happened.
public struct ServeRuntime: Sendable {
    /// The host serving, with ``file``'s services published as ``database``.
    public let host: BLEHost.Host
    /// The file served.
    public let file: ServeFile
    /// The database the host publishes, ``file``'s services after GAP's and GATT's.
    public let database: GATTDatabase
    /// The values streamed to a client that subscribes to their characteristic.
    public let streams: [ServeStream]
    /// How the server advertises, to advertise again while and after clients are connected.
    public let advertising: GAPAdvertisingParameters
    /// The bonds, when pairing is offered: told of each connection so a bonded client gets
    /// Insufficient Encryption (Core 5.4, Vol 3, Part C, §10.3.1).
    public let keeper: BondKeeper?
    /// Told of each event, with the seconds since the run began (``elapsedSeconds``).
    private let onEvent: @Sendable (_ seconds: Double, _ event: ServeEvent) -> Void
    /// When the run began on the host's clock (``BLEHost/Host/clock``): the events' time zero.
    private let start: Int64

    /// A runtime for `file` published on `host` as `database`, advertising with
    /// `advertising`; the run begins now on the host's clock.
    public init(host: BLEHost.Host, file: ServeFile, database: GATTDatabase, streams: [ServeStream],
                advertising: GAPAdvertisingParameters, keeper: BondKeeper? = nil,
                onEvent: @escaping @Sendable (_ seconds: Double, _ event: ServeEvent) -> Void) {
        self.keeper = keeper
        self.host = host
        self.file = file
        self.database = database
        self.streams = streams
        self.advertising = advertising
        self.onEvent = onEvent
        start = host.clock.microseconds
    }

    /// Seconds on the host's clock since the run began: the time of an event.
    public var elapsedSeconds: Double { host.clock.seconds(since: start) }

    /// One input of the run loop.
    private enum Input: Sendable {
        case gatt(HostGATTEvent)
        case gap(GAPEvent)
        case pairing(BondKeeper.Event)
        case stop
    }

    /// Reports `event`, now.
    private func log(_ event: ServeEvent) {
        onEvent(elapsedSeconds, event)
    }

    /// Serves until `seconds` passed on the host's clock (or forever) or the transport closes.
    public func run(seconds: Double?) async {
        let (inputs, output) = AsyncStream.makeStream(of: Input.self)
        let gattEvents = host.gattEvents, gapEvents = host.events
        var feeders = [
            Task {
                for await event in gattEvents { output.yield(.gatt(event)) }
                output.yield(.stop)
            },
            Task {
                for await event in gapEvents { output.yield(.gap(event)) }
            },
        ]
        if let keeper {
            let pairings = await keeper.events()
            feeders.append(Task {
                for await event in pairings { output.yield(.pairing(event)) }
            })
        }
        if let seconds {
            // --seconds: how long the user asked to serve, on the host's clock.
            let clock = host.clock
            feeders.append(Task {
                try? await clock.sleep(seconds: seconds)
                output.yield(.stop)
            })
        }
        var state = State()
        for await input in inputs {
            switch input {
            case .stop:
                for task in feeders { task.cancel() }
                for task in state.streaming.values.joined() { task.cancel() }
                return
            case let .gap(event): await handle(event, &state)
            case let .gatt(event): await handle(event, &state)
            case let .pairing(event): log(.pairing(event))
            }
        }
    }

    private struct State {
        /// The dynamic values as last written.
        var values: [ATT.Handle: [UInt8]] = [:]
        /// Streams running, by connection.
        var streaming: [UInt16: [Task<Void, Never>]] = [:]
    }

    /// Logs links coming and going. Legacy advertising stops when a client connects (Core
    /// 5.4, Vol 6, Part B, §4.4.2): it is started again at once so more clients can connect
    /// where the controller allows it, and again after a disconnection otherwise.
    private func handle(_ event: GAPEvent, _ state: inout State) async {
        switch event {
        case let .connected(link):
            log(.connected(link))
            await keeper?.noteConnection(link, on: host)
            if link.role == .peripheral { try? await host.startAdvertising(advertising) }
        case let .disconnected(handle, reason):
            for task in state.streaming.removeValue(forKey: handle) ?? [] { task.cancel() }
            log(.disconnected(connection: handle, reason: reason))
            try? await host.startAdvertising(advertising)  // already advertising: refused, nothing to do
        case let .encryptionChanged(handle, encryption), let .encryptionKeyRefreshed(handle, encryption):
            log(.encrypted(connection: handle, encryption))
        default:
            break
        }
    }

    private func handle(_ event: HostGATTEvent, _ state: inout State) async {
        switch event {
        case let .readRequest(request):
            let value = state.values[request.handle] ?? []
            guard request.offset <= value.count else {
                log(.read(ServeAccess(request, value: nil, error: .invalidOffset)))
                await host.respond(to: request.id, with: .failure(.invalidOffset))
                return
            }
            let answer = Array(value[request.offset...])
            log(.read(ServeAccess(request, value: answer)))
            await host.respond(to: request.id, with: .success(answer))
        case let .writeRequest(request):
            let result = write(request, &state)
            if case let .failure(code) = result {
                log(.write(ServeAccess(request, value: request.value, error: code)))
            } else {
                log(.write(ServeAccess(request, value: request.value)))
            }
            if request.expectsResponse { await host.respond(to: request.id, with: result) }
            if case .success = result, let value = state.values[request.handle] { publish(value, of: request.handle) }
        case let .valueWritten(connection, handle, value):
            log(.write(ServeAccess(connection: connection, handle: handle, uuid: database.attribute(at: handle)?.type, offset: 0,
                                   value: value)))
        case let .subscriptionChanged(subscription):
            log(.subscribed(subscription, uuid: database.attribute(at: subscription.valueHandle)?.type))
            startStreams(subscription, &state)
        case let .mtuChanged(connection, mtu):
            log(.mtuChanged(connection: connection, mtu: mtu))
        case let .bearerClosed(connection, reason) where reason != .disconnected:  // a disconnection is logged as such
            log(.bearerClosed(connection: connection, reason: reason))
        case .notification, .indication, .serviceChanged, .bearerClosed:
            break
        }
    }

    /// Stores a write at its offset (Core 5.4, Vol 3, Part F, §3.4.6.1: a part past the
    /// end is Invalid Offset), after a standard service's own checks.
    private func write(_ request: GATTAppRequest, _ state: inout State) -> Result<[UInt8], ATT.ErrorCode> {
        if let profile = profile(of: request.handle), let characteristic = database.characteristic(valueHandle: request.handle),
           case let .failure(code) = profile.validateWrite(to: characteristic.uuid, value: request.value) {
            return .failure(code)
        }
        let current = state.values[request.handle] ?? []
        guard request.offset <= current.count else { return .failure(.invalidOffset) }
        state.values[request.handle] = Array(current[..<request.offset]) + request.value
        return .success([])
    }

    /// Notifies or indicates a written value to every client subscribed to it.
    private func publish(_ value: [UInt8], of handle: ATT.Handle) {
        guard database.characteristic(valueHandle: handle) != nil else { return }
        Task {
            for subscription in await host.subscriptions(of: handle) {
                if subscription.notify {
                    try? await host.notify(value, valueHandle: handle, on: subscription.connection)
                } else if subscription.indicate {
                    try? await host.indicate(value, valueHandle: handle, on: subscription.connection)
                }
            }
        }
    }

    private func startStreams(_ subscription: GATTSubscription, _ state: inout State) {
        guard subscription.notify || subscription.indicate,
              let characteristic = database.characteristic(valueHandle: subscription.valueHandle) else { return }
        for stream in streams where stream.uuid == characteristic.uuid {
            let host = self.host, runtime = self
            let connection = subscription.connection, handle = subscription.valueHandle, indicate = !subscription.notify
            state.streaming[connection, default: []].append(Task {
                let started = host.clock.microseconds
                let sent = await stream.send(host, valueHandle: handle, connection: connection, indicate: indicate)
                let seconds = host.clock.seconds(since: started)
                runtime.log(.streamed(connection: connection, valueHandle: handle, indications: indicate, count: sent, size: stream.size,
                                      seconds: seconds))
            })
        }
    }

    /// The standard service of the file that holds `handle`, if any.
    private func profile(of handle: ATT.Handle) -> StandardService? {
        let offset = database.services.count - file.services.count
        guard let index = database.services.firstIndex(where: { $0.handles.contains(handle) }), index >= offset else { return nil }
        return file.profiles[index - offset]
    }
}
