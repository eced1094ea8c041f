import BLEHost
import BLEWire
import Synchronization

/// Where the notification bench's sender is, for a lock-stepped world: inside a notify
/// call (sending, or parked on the controller's full buffers) or finished.
final class NotifySenderState: Sendable {
    private let state = Mutex((inside: false, finished: false))

    func enter() { state.withLock { $0.inside = true } }
    func leave() { state.withLock { $0.inside = false } }
    func finish() { state.withLock { $0.finished = true } }
    var snapshot: (inside: Bool, finished: Bool) { state.withLock { $0 } }
}

/// What one run of the notification bench measured.
public struct GATTNotifyResult: Sendable {
    /// Notifications the central's host reported for the characteristic.
    public var received: Int
    /// Those whose sequence number followed the previous one's, the first being 0.
    public var inOrder: Int
    /// From the first notify call to the last notification received.
    public var span: BenchSpan
    /// ATT_MTU after the exchange.
    public var mtu: Int
    /// The link the notifications crossed.
    public var link: BenchLink
    /// Where the wall-clock time went, in a lock-stepped world.
    public var phases: BenchPhases?
}

/// Notifications from a peripheral's GATT server to a subscribed central (Core 5.4, Vol 3,
/// Part G, §4.10; Part F, §3.4.7.1), as fast as the peripheral's host takes them: it
/// suspends in ``Host/notify(_:valueHandle:on:)`` while the controller's buffers are
/// full, so the air sets the pace and nothing is dropped.
public struct GATTNotifyThroughput: Sendable {
    /// Octets in each value, the first four its sequence number.
    public let size: Int
    /// How many notifications the peripheral sends.
    public let count: Int
    /// The link the two hosts make first.
    public let request: BenchLinkRequest

    /// A run of `count` notifications of `size` octets over the link `request` asks for.
    public init(size: Int, count: Int, request: BenchLinkRequest) {
        self.size = size
        self.count = count
        self.request = request
    }

    /// Publishes the bench service on the peripheral, connects, subscribes, then times the
    /// notifications from the first notify call to the last value received.
    public func run(in world: BenchWorld) async throws -> GATTNotifyResult {
        let peripheral = world.hosts[0]
        let central = world.hosts[1]
        let database: GATTDatabase
        do {
            database = try await peripheral.publishGATT(BenchGATTService.definitions)
        } catch {
            throw BenchFailure("The bench service does not lay out: \(error).")
        }
        guard let serverHandle = database.valueHandle(of: BenchGATTService.notified, inService: BenchGATTService.service) else {
            throw BenchFailure("The bench service has no notified value.")
        }
        let link = try await BenchLink.establish(in: world, request)
        let remote = try await BenchGATTService.discover(from: central, on: link.centralHandle)
        guard remote.mtu >= size + 3 else {
            throw BenchFailure("ATT_MTU is \(remote.mtu), too small for \(size)-octet notifications.")
        }
        _ = try await central.gatt(.configure([.notification], descriptor: remote.notifiedConfiguration), on: link.centralHandle)
        let subscribed = await peripheral.subscriptions(of: serverHandle)
        guard subscribed.contains(where: { $0.connection == link.peripheralHandle && $0.notify }) else {
            throw BenchFailure("The central's subscription did not reach the peripheral's server.")
        }

        // Plain values into the tasks (a Swift 6.3 miscompile met captures of values bound
        // in one multi-binding `let`).
        let size = self.size
        let count = self.count
        let connection = link.peripheralHandle
        let clientHandle = remote.notifiedValue
        let filler = BenchGATTService.filler(size: size)
        let runner = world.runner
        // The central's host hands each notification to the tally within its own turn, as
        // Core Bluetooth calls its delegate: no task is woken per notification.
        // Set before the sender starts, or the first notifications would go to the stream.
        let tally = NotificationTally(handle: clientHandle, size: size, count: count)
        await central.handleGATTEvents(with: { tally.record($0) })
        await runner.resetPhases()
        let simulatedStart = await runner.now
        // The wall-clock edge: the bench measures what this machine's processor achieves.
        let start = ContinuousClock.now
        // A lock-stepped world waits while the sender can still put a notification in the
        // controller's buffers: the air then never waits for an app that was not given a
        // turn. Inside notify with no room means parked on back-pressure: the world's turn.
        let state = NotifySenderState()
        await runner.setAppSettled {
            let now = state.snapshot
            if now.finished { return true }
            guard now.inside else { return false }
            return !(await peripheral.canSendWithoutWaiting(on: connection))
        }
        // The loop runs on the peripheral host's isolation (``Host/run(_:)``), as an app's
        // burst would: each notify is a call within the actor, not a hop onto it and back.
        let sender = Task(executorPreference: world.executors.first) {
            defer { state.finish() }
            try await peripheral.run { host in
                for sequence in 0 ..< count {
                    let value = BenchGATTService.value(sequence, size: size, filler: filler)
                    state.enter()
                    defer { state.leave() }
                    try await host.notify(value, valueHandle: serverHandle, on: connection)
                }
            }
        }
        let receiver = Task(executorPreference: world.executors.last) { () -> (received: Int, inOrder: Int, span: BenchSpan) in
            await withTaskCancellationHandler {
                await tally.waitUntilDone()
            } onCancel: {
                tally.stop()
            }
            let counts = tally.counts
            return (counts.received, counts.inOrder, await BenchSpan.since(start, simulated: simulatedStart, on: runner))
        }
        let watchdog = BenchWatchdog.start(cancelling: receiver, on: runner, after: { _ = await sender.result })
        let arrivals = await receiver.value
        watchdog.cancel()
        await central.handleGATTEvents(with: nil)
        await runner.setAppSettled(nil)
        let phases = await runner.phases
        if case let .failure(error) = await sender.result {
            throw BenchFailure("The peripheral stopped notifying: \(error).")
        }
        return GATTNotifyResult(received: arrivals.received, inOrder: arrivals.inOrder, span: arrivals.span, mtu: remote.mtu, link: link,
                                phases: phases)
    }
}
