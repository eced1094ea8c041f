import BLEHost
import BLEProfiles
import BLEStorage
import BLEWire
import Foundation

/// What `ble serve` does while it runs: answers the dynamic values' reads and writes from
/// its own store, notifies or indicates written values to subscribers, streams values on
/// `--stream`, and logs every event as one JSON line.
struct ServeRuntime: Sendable {
    let host: BLEHost.Host
    let file: ServeFile
    let database: GATTDatabase
    let streams: [ServeStream]
    /// How the server advertises, to advertise again while and after clients are connected.
    let advertising: GAPAdvertisingParameters
    /// The bonds, when `ble serve` was given pairing options: told of each connection so a
    /// bonded client gets Insufficient Encryption (Core 5.4, Vol 3, Part C, §10.3.1).
    let keeper: BondKeeper?
    /// When the run began on the host's clock (``BLEHost/Host/clock``): the log's time zero.
    private let start: Int64

    init(host: BLEHost.Host, file: ServeFile, database: GATTDatabase, streams: [ServeStream],
         advertising: GAPAdvertisingParameters, keeper: BondKeeper? = nil) {
        self.keeper = keeper
        self.host = host
        self.file = file
        self.database = database
        self.streams = streams
        self.advertising = advertising
        start = host.clock.microseconds
    }

    /// One input of the run loop.
    private enum Input: Sendable {
        case gatt(HostGATTEvent)
        case gap(GAPEvent)
        case pairing(BondKeeper.Event)
        case stop
    }

    /// Prints `{"time": seconds, "event": event, …fields}`, `time` in seconds on the host's
    /// clock since the run began.
    func log(_ event: String, _ fields: JSONText = .object([])) {
        let seconds = host.clock.seconds(since: start)
        var entries: [(String, JSONText)] = [("time", .number(seconds)), ("event", .string(event))]
        if case let .object(more) = fields { entries += more }
        FileHandle.standardOutput.write(Data((JSONText.object(entries).rendered + "\n").utf8))
    }

    /// Serves until `seconds` passed (or forever) or the transport closes.
    func run(seconds: Double?) async {
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
            case let .pairing(event): logPairing(event)
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
            log("connected", .object([("connection", .integer(Int(link.handle))), ("peer", .string("\(link.peer)"))]))
            await keeper?.noteConnection(link, on: host)
            if link.role == .peripheral { try? await host.startAdvertising(advertising) }
        case let .disconnected(handle, reason):
            for task in state.streaming.removeValue(forKey: handle) ?? [] { task.cancel() }
            log("disconnected", .object([("connection", .integer(Int(handle))), ("reason", .integer(Int(reason.rawValue)))]))
            try? await host.startAdvertising(advertising)  // already advertising: refused, nothing to do
        case let .encryptionChanged(handle, encryption), let .encryptionKeyRefreshed(handle, encryption):
            log("encrypted", .object([("connection", .integer(Int(handle))), ("level", .integer(encryption.level.rawValue)),
                                      ("keySize", .integer(encryption.keySize))]))
        default:
            break
        }
    }

    /// Logs `paired` (method, level, key size, Secure Connections, bonded) and `pairingFailed` (reason).
    private func logPairing(_ event: BondKeeper.Event) {
        switch event {
        case let .paired(handle, peer, result, record):
            var fields: [(String, JSONText)] = [("connection", .integer(Int(handle))), ("peer", .string("\(peer)"))]
            fields.append(("method", .string(PairingOutcome.name(of: result.method))))
            fields.append(("level", .integer(result.level.rawValue)))
            fields.append(("keySize", .integer(Int(result.keySize))))
            fields.append(("sc", .bool(result.secureConnections)))
            fields.append(("bonded", .bool(result.bonded)))
            fields.append(("saved", .bool(record != nil)))
            log("paired", .object(fields))
        case let .pairingFailed(handle, peer, failure):
            var fields: [(String, JSONText)] = [("connection", .integer(Int(handle))), ("peer", .string("\(peer)"))]
            let reason: JSONText = failure.reason.map { JSONText.integer(Int($0.rawValue)) } ?? JSONText.null
            fields.append(("reason", reason))
            fields.append(("sent", .bool(Self.weSent(failure))))
            log("pairingFailed", .object(fields))
        case let .saveFailed(error):
            log("bondNotSaved", .object([("reason", .string(error.description))]))
        }
    }

    private static func weSent(_ failure: SMPPairingFailure) -> Bool {
        if case .sent = failure { return true } else { return false }
    }

    private func handle(_ event: HostGATTEvent, _ state: inout State) async {
        switch event {
        case let .readRequest(request):
            let value = state.values[request.handle] ?? []
            guard request.offset <= value.count else {
                log("read", fields(request, value: nil, error: .invalidOffset))
                await host.respond(to: request.id, with: .failure(.invalidOffset))
                return
            }
            let answer = Array(value[request.offset...])
            log("read", fields(request, value: answer))
            await host.respond(to: request.id, with: .success(answer))
        case let .writeRequest(request):
            let result = write(request, &state)
            if case let .failure(code) = result {
                log("write", fields(request, value: request.value, error: code))
            } else {
                log("write", fields(request, value: request.value))
            }
            if request.expectsResponse { await host.respond(to: request.id, with: result) }
            if case .success = result, let value = state.values[request.handle] { publish(value, of: request.handle) }
        case let .valueWritten(connection, handle, value):
            log("write", .object([("connection", .integer(Int(connection))), ("handle", .integer(Int(handle))),
                                  ("uuid", uuidField(handle)), ("offset", .integer(0)), ("value", .string(hexText(value)))]))
        case let .subscriptionChanged(subscription):
            log("subscribe", .object([("connection", .integer(Int(subscription.connection))),
                                      ("handle", .integer(Int(subscription.valueHandle))), ("uuid", uuidField(subscription.valueHandle)),
                                      ("notify", .bool(subscription.notify)), ("indicate", .bool(subscription.indicate))]))
            startStreams(subscription, &state)
        case let .mtuChanged(connection, mtu):
            log("mtu", .object([("connection", .integer(Int(connection))), ("mtu", .integer(mtu))]))
        case let .bearerClosed(connection, reason) where reason != .disconnected:  // a disconnection is logged as such
            log("bearerClosed", .object([("connection", .integer(Int(connection))), ("reason", .string(reason.description))]))
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
                runtime.log("streamed", .object([("connection", .integer(Int(connection))), ("handle", .integer(Int(handle))),
                                                 ("kind", .string(indicate ? "indication" : "notification")),
                                                 ("count", .integer(sent)), ("size", .integer(stream.size)),
                                                 ("seconds", .number(seconds))]))
            })
        }
    }

    /// The standard service of the file that holds `handle`, if any.
    private func profile(of handle: ATT.Handle) -> StandardService? {
        let offset = database.services.count - file.services.count
        guard let index = database.services.firstIndex(where: { $0.handles.contains(handle) }), index >= offset else { return nil }
        return file.profiles[index - offset]
    }

    private func uuidField(_ handle: ATT.Handle) -> JSONText {
        database.attribute(at: handle).map { .string(GATTDocument.text($0.type)) } ?? .null
    }

    /// A request's log fields: the value read or written, and the error answered, if any.
    private func fields(_ request: GATTAppRequest, value: [UInt8]?, error: ATT.ErrorCode? = nil) -> JSONText {
        var entries: [(String, JSONText)] = [
            ("connection", .integer(Int(request.connection))), ("handle", .integer(Int(request.handle))),
            ("uuid", .string(GATTDocument.text(request.attributeType))), ("offset", .integer(request.offset)),
            ("value", .hex(value)),
        ]
        if let error { entries.append(("error", .integer(Int(error.rawValue)))) }
        return .object(entries)
    }
}
