import BLEHost
import BLETransport
import BLEWire

/// What an ``InteropHost`` has seen so far, for waits and assertions.
struct InteropHostState: Sendable {
    /// Start-up's result, once the driver is ready.
    var controller: ControllerInfo?
    /// Why start-up or the controller failed, if it did.
    var failure: HCIDriverError?
    /// Every GAP event, in order.
    var events: [GAPEvent] = []
    /// Commands that timed out unanswered (the driver's per-command timeout at work).
    var timedOut: [HCI.Opcode] = []
    /// Why reading from the transport stopped, if it did.
    var transportEnded: String?
}

/// OUR host cores (HCIDriver + GAPCore) on a real transport: a reader task hands every
/// packet from the controller to the driver, one writer task sends what the cores produce in
/// order, and the cores' timers are wall-clock tasks armed for their ``nextDeadline``s.
/// Tests wait for a condition on ``InteropHostState``; each wait is woken by new input, not by
/// polling.
actor InteropHost {
    private let transport: any HCITransport
    private var driver: HCIDriver
    private var gap = GAPCore()
    private var state = InteropHostState()
    private let origin = ContinuousClock.now
    private let outbox: AsyncStream<H4.Packet>.Continuation
    private let outgoing: AsyncStream<H4.Packet>
    private var tasks: [Task<Void, Never>] = []
    private var driverTimer: (deadline: HostTime, task: Task<Void, Never>)?
    private var gapTimer: (deadline: HostTime, task: Task<Void, Never>)?
    private var waiters: [(id: Int, condition: @Sendable (InteropHostState) -> Bool, resume: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiter = 0

    init(transport: any HCITransport, configuration: HCIDriverConfiguration = .init()) {
        self.transport = transport
        driver = HCIDriver(configuration: configuration)
        (outgoing, outbox) = AsyncStream<H4.Packet>.makeStream()
    }

    /// Starts the reader, the writer and the driver's start-up.
    func start() {
        let transport = transport
        let outgoing = outgoing
        tasks.append(Task {
            for await packet in outgoing {
                do { try await transport.send(packet) } catch { break }
            }
        })
        tasks.append(Task { [weak self] in
            do {
                for try await packet in transport.packets { await self?.received(packet) }
                await self?.ended("end of stream")
            } catch {
                await self?.ended("\(error)")
            }
        })
        carryOut(driver.start(at: now))
    }

    /// Stops the tasks and timers and closes the transport.
    func close() async {
        driverTimer?.task.cancel()
        gapTimer?.task.cancel()
        outbox.finish()
        for task in tasks { task.cancel() }
        await transport.close()
        for waiter in waiters { waiter.resume.resume(returning: false) }
        waiters = []
    }

    /// A copy of what was seen so far.
    var snapshot: InteropHostState { state }

    /// Runs one GAP request now and carries out what it returns.
    func request(_ body: @Sendable (inout GAPCore, HostTime) throws(GAPError) -> [GAPOutput]) throws(GAPError) {
        let outputs = try body(&gap, now)
        apply(outputs)
    }

    /// Waits until `condition` holds, or `seconds` pass; returns whether it holds.
    func wait(seconds: Double, until condition: @escaping @Sendable (InteropHostState) -> Bool) async -> Bool {
        if condition(state) { return true }
        let id = nextWaiter
        nextWaiter += 1
        return await withCheckedContinuation { continuation in
            waiters.append((id, condition, continuation))
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(seconds))
                await self?.expire(id)
            }
        }
    }

    // MARK: Plumbing

    /// Microseconds since this host was made, on the monotonic clock.
    private var now: HostTime {
        let elapsed = (ContinuousClock.now - origin).components
        return elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
    }

    private func received(_ packet: H4.Packet) {
        carryOut(driver.receive(packet, at: now))
    }

    private func ended(_ why: String) {
        state.transportEnded = why
        notify()
    }

    private func carryOut(_ outputs: [HCIDriverOutput]) {
        for output in outputs {
            switch output {
            case let .send(packet):
                outbox.yield(packet)
                continue
            case let .ready(info):
                state.controller = info
            case let .failed(error):
                state.failure = error
            case let .commandCompleted(_, .failure(.timeout(opcode))):
                state.timedOut.append(opcode)
            default:
                break
            }
            apply(gap.handle(output, at: now))
        }
        armTimers()
        notify()
    }

    private func apply(_ outputs: [GAPOutput]) {
        for output in outputs {
            switch output {
            case let .submit(command, token):
                carryOut(driver.submit(command, token: token, at: now))
            case let .event(event):
                state.events.append(event)
            }
        }
        armTimers()
        notify()
    }

    private func armTimers() {
        if driverTimer?.deadline != driver.nextDeadline {
            driverTimer?.task.cancel()
            driverTimer = driver.nextDeadline.map { deadline in (deadline, timer(at: deadline) { host in await host.driverTimerFired(deadline) }) }
        }
        if gapTimer?.deadline != gap.nextDeadline {
            gapTimer?.task.cancel()
            gapTimer = gap.nextDeadline.map { deadline in (deadline, timer(at: deadline) { host in await host.gapTimerFired(deadline) }) }
        }
    }

    private func timer(at deadline: HostTime, _ fire: @escaping @Sendable (InteropHost) async -> Void) -> Task<Void, Never> {
        let delay = max(0, deadline - now)
        return Task { [weak self] in
            do { try await Task.sleep(for: .microseconds(delay)) } catch { return }
            if let self { await fire(self) }
        }
    }

    private func driverTimerFired(_ deadline: HostTime) {
        guard driverTimer?.deadline == deadline else { return }
        driverTimer = nil
        carryOut(driver.timerFired(at: now))
    }

    private func gapTimerFired(_ deadline: HostTime) {
        guard gapTimer?.deadline == deadline else { return }
        gapTimer = nil
        apply(gap.timerFired(at: now))
    }

    private func notify() {
        let current = state
        var kept: [(id: Int, condition: @Sendable (InteropHostState) -> Bool, resume: CheckedContinuation<Bool, Never>)] = []
        for waiter in waiters {
            if waiter.condition(current) { waiter.resume.resume(returning: true) } else { kept.append(waiter) }
        }
        waiters = kept
    }

    private func expire(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.resume.resume(returning: waiter.condition(state))
    }
}
