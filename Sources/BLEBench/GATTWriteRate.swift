import BLEHost
import BLEWire

/// What one run of the write bench measured.
public struct GATTWriteResult: Sendable {
    /// Write Requests the central saw answered with a Write Response.
    public var acknowledged: Int
    /// Writes the peripheral's server stored, and those in sequence.
    public var stored: Int
    /// Stored values whose sequence number followed the previous one's, the first being 0.
    public var storedInOrder: Int
    /// From the first Write Request to the last Write Response.
    public var span: BenchSpan
    /// ATT_MTU after the exchange.
    public var mtu: Int
    /// The link the writes crossed.
    public var link: BenchLink
    /// Why the writes stopped before the count, if they did.
    public var failure: String?
}

/// Write Characteristic Value round trips (Core 5.4, Vol 3, Part G, §4.9.3): the central
/// sends each Write Request after the previous Write Response, the peripheral's server
/// stores the value and answers by itself.
public struct GATTWriteRate: Sendable {
    /// Octets in each value, the first four its sequence number.
    public let size: Int
    /// How many writes the central makes.
    public let count: Int
    /// The link the two hosts make first.
    public let request: BenchLinkRequest

    /// A run of `count` writes of `size` octets over the link `request` asks for.
    public init(size: Int, count: Int, request: BenchLinkRequest) {
        self.size = size
        self.count = count
        self.request = request
    }

    /// Publishes the bench service on the peripheral, connects and discovers it, then
    /// times the writes from the first Write Request to the last Write Response.
    public func run(in world: BenchWorld) async throws -> GATTWriteResult {
        let peripheral = world.hosts[0]
        let central = world.hosts[1]
        let database: GATTDatabase
        do {
            database = try await peripheral.publishGATT(BenchGATTService.definitions)
        } catch {
            throw BenchFailure("The bench service does not lay out: \(error).")
        }
        guard let serverHandle = database.valueHandle(of: BenchGATTService.written, inService: BenchGATTService.service) else {
            throw BenchFailure("The bench service has no written value.")
        }
        let link = try await BenchLink.establish(in: world, request)
        let remote = try await BenchGATTService.discover(from: central, on: link.centralHandle)
        guard remote.mtu >= size + 3 else {
            throw BenchFailure("ATT_MTU is \(remote.mtu), too small for \(size)-octet writes.")
        }

        let size = self.size
        let count = self.count
        let serverEvents = peripheral.gattEvents
        let watcher = Task(executorPreference: world.executors.first) { () -> (stored: Int, inOrder: Int) in
            var stored = 0, inOrder = 0, expected = 0
            for await event in serverEvents {
                guard case let .valueWritten(_, handle, value) = event, handle == serverHandle else { continue }
                stored += 1
                if let sequence = BenchGATTService.sequence(of: value, size: size) {
                    if sequence == expected { inOrder += 1 }
                    expected = sequence + 1
                }
                if stored == count { break }
            }
            return (stored, inOrder)
        }
        let filler = BenchGATTService.filler(size: size)
        let runner = world.runner
        let simulatedStart = await runner.now
        // The wall-clock edge: the bench measures what this machine's processor achieves.
        let start = ContinuousClock.now
        let written = remote.writtenValue
        let connection = link.centralHandle
        // The writes run on the central's thread, as its host's tasks do.
        // The loop runs on the central host's isolation (``Host/run(_:)``): each write is a
        // call within the actor, not a hop onto it and back.
        let (acknowledged, failure) = await withTaskExecutorPreference(world.executors.last) { () async -> (Int, String?) in
            await central.run { host -> (Int, String?) in
                var acknowledged = 0
                do {
                    for sequence in 0 ..< count {
                        let result = try await host.gatt(.write(written, BenchGATTService.value(sequence, size: size, filler: filler)),
                                                         on: connection)
                        guard case .written = result else { break }
                        acknowledged += 1
                    }
                } catch {
                    return (acknowledged, "\(error)")
                }
                return (acknowledged, nil)
            }
        }
        let span = await BenchSpan.since(start, simulated: simulatedStart, on: runner)
        let watchdog = BenchWatchdog.start(cancelling: watcher, on: runner, after: {})
        let seen = await watcher.value
        watchdog.cancel()
        if let failure, acknowledged == 0 { throw BenchFailure("The first write failed: \(failure).") }
        return GATTWriteResult(acknowledged: acknowledged, stored: seen.stored, storedInOrder: seen.inOrder, span: span,
                               mtu: remote.mtu, link: link, failure: failure)
    }
}
