import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Synchronization

/// What drives a bench world: ``WorldRunner`` paced to the wall clock, or
/// ``LockstepRunner`` as fast as the hosts allow.
protocol WorldDriver: Actor {
    /// Hands a host packet to `device`'s controller; safe from any task.
    nonisolated func submit(_ packet: H4.Packet, to device: DeviceID)
    /// Whether ``submit(_:to:)`` runs the packet through the world before it returns, so a
    /// host may hand packets over on its own turn (``HostTransport/sendImmediately(_:)``).
    nonisolated var acceptsImmediately: Bool { get }
    /// The world's simulated time.
    var now: Microseconds { get }
    /// Ends ``runUntilStopped()``.
    func stop()
    /// Runs the world until ``stop()``.
    func runUntilStopped() async
    /// Tells the driver when the bench's app has done what it can before the world must
    /// move on (`nil`: no such test). Only a lock-stepped world waits for it.
    func setAppSettled(_ predicate: (@Sendable () async -> Bool)?)
    /// Wall-clock seconds the driver spent running the world's events and waiting for the
    /// hosts since the last ``resetPhases()``, when it keeps them (lock-step does).
    var phases: BenchPhases? { get }
    /// Starts the phase counters again.
    func resetPhases()
}

/// Where a lock-stepped bench's wall-clock time went: the runner's thread runs the world
/// (controllers, air) or waits for the hosts to settle; the hosts also work while the world
/// runs, on the other threads.
struct BenchPhases: Sendable {
    /// Seconds inside the world's events and deliveries to controllers.
    var worldSeconds: Double = 0
    /// Seconds waiting for hosts and apps to settle.
    var settleSeconds: Double = 0
    /// Settle rounds: how often the world stopped for the hosts.
    var settles = 0
}

extension WorldRunner: WorldDriver {
    nonisolated var acceptsImmediately: Bool { false }
    func runUntilStopped() async { await run() }
    /// A paced world runs on the wall clock; the app keeps up or not, as with real radios.
    func setAppSettled(_ predicate: (@Sendable () async -> Bool)?) {}
    var phases: BenchPhases? { nil }
    func resetPhases() {}
}

/// Runs a world as fast as the processor allows but never far ahead of its hosts:
/// simulated time stops while a host still owes an answer, so each host behaves as if it
/// answered within ``hostReaction`` of simulated time. Unlike ``WorldRunner`` at infinite
/// speed, the world cannot race ahead through empty connection events while a host is
/// busy, so the simulated-time figures are the air's limit and the wall-clock figures are
/// what the processor can push through hosts, controllers and air.
///
/// "Owes an answer" is counted exactly for packets (``LockstepMailbox``); a host's app
/// tasks, resumed by those packets, are given a few executor turns to act, which is the
/// one approximation: an app slower than that lets the world run on without it, which
/// shows as a simulated figure below the air's limit. A bench whose app can say when it
/// is done (``setAppSettled(_:)``, e.g. a sender parked on full buffers) makes the runner
/// wait for that too.
actor LockstepRunner: WorldDriver {
    /// How far simulated time may run past a packet to a host before the runner waits
    /// for the hosts to settle: their reaction time, in simulated microseconds. Zero: hosts
    /// answer in no simulated time, so the figures are the air's limit on every run. It
    /// was 3 ms, so that the world and the hosts worked in parallel for part of an event;
    /// but then whether a host's refill of the controller's buffers arrived before the next
    /// event (about 0.5 ms after a full one at 7.5 ms) depended on the wall clock, and about
    /// one run in eight settled into four PDUs an event instead of five (516–518
    /// notifications/s against 665.6; 358 once under load; writes took 2.16 events a
    /// round trip instead of 2). Zero costs about twice the wall clock of the realistic
    /// benches (docs/decisions.md, "Session 8").
    static let hostReaction: Microseconds = 0
    /// Executor turns given to app tasks after the hosts have taken every packet: each SDU
    /// a sender submits needs its task to run once (fewer turns let the world pass the
    /// sender on a loaded machine, measured as a simulated figure below the air's limit).
    static let appTurns = 8

    /// Events run between two suspensions when no host is owed anything, so calls on the
    /// runner (``stop()``) get in while the world runs on its own.
    static let eventsPerTurn = 1024

    private let world: World
    private let mailbox: LockstepMailbox
    private var hosts: [BLEHost.Host] = []
    private var stopped = false
    /// The world's time, readable without waiting for the runner's loop to suspend.
    private let time = Atomic<Int64>(0)
    private var eventsSinceTurn = 0
    /// The simulated time of the first packet to a host since the hosts last settled.
    private var unsettledSince: Microseconds?
    /// The bench app's own "nothing more from me until the world moves", if it has one.
    private var appSettled: (@Sendable () async -> Bool)?
    private var counted = BenchPhases()

    init(world: sending World, mailbox: LockstepMailbox) {
        self.world = world
        self.mailbox = mailbox
    }

    /// The hosts whose turns the runner waits for.
    func attach(_ hosts: [BLEHost.Host]) { self.hosts = hosts }

    nonisolated func submit(_ packet: H4.Packet, to device: DeviceID) {
        mailbox.submit(packet, to: device)
    }

    nonisolated var now: Microseconds { time.load(ordering: .relaxed) }
    /// Packets wait for the runner's loop, which delivers them at the world's time.
    nonisolated var acceptsImmediately: Bool { false }

    func setAppSettled(_ predicate: (@Sendable () async -> Bool)?) { appSettled = predicate }

    var phases: BenchPhases? { counted }
    func resetPhases() { counted = BenchPhases() }

    func stop() {
        stopped = true
        mailbox.stop()
    }

    func runUntilStopped() async {
        while !stopped, !Task.isCancelled {
            deliverPending()
            let next = world.nextEventTime
            if let since = unsettledSince, next.map({ $0 > since + Self.hostReaction }) ?? true {
                // The wall-clock edge: where the processor's time went (``BenchPhases``).
                let started = ContinuousClock.now
                await settle()
                counted.settleSeconds += Self.seconds(since: started)
                counted.settles += 1
                continue
            }
            guard next != nil else {
                // Nothing scheduled: nothing can happen until a host sends something.
                await mailbox.wait(for: .submission)
                continue
            }
            let before = mailbox.deliveredTotal
            // The wall-clock edge: where the processor's time went (``BenchPhases``).
            let started = ContinuousClock.now
            world.runNextEvent()
            counted.worldSeconds += Self.seconds(since: started)
            time.store(world.now, ordering: .relaxed)
            if unsettledSince == nil, mailbox.deliveredTotal != before { unsettledSince = world.now }
            eventsSinceTurn += 1
            if eventsSinceTurn >= Self.eventsPerTurn {
                eventsSinceTurn = 0
                await Task.yield()
            }
        }
    }

    /// Wall-clock seconds since `start`. The wall-clock edge: a bench's phases are the
    /// processor's time, not the world's.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Hands every waiting host packet to its controller at the current simulated time.
    private func deliverPending() {
        for submission in mailbox.takePending() { world.sendToController(submission.packet, device: submission.device) }
    }

    /// Waits until every host has taken and processed what the world sent it, written
    /// what that made it write, and its app tasks have had their turns (or said they are
    /// done), with nothing new happening in a whole round.
    private func settle() async {
        while !stopped {
            let before = mailbox.version
            await mailbox.wait(for: .balanced)
            // A hop to each host: it runs after the turn in which the host took its last
            // packet, so whatever that turn wrote has been counted.
            for host in hosts { _ = await host.controller }
            for _ in 0 ..< Self.appTurns { await Task.yield() }
            eventsSinceTurn = 0
            if mailbox.version == before, mailbox.isBalanced {
                // The app still works towards a packet: give it more turns.
                if let appSettled, !(await appSettled()) { continue }
                break
            }
            deliverPending()
        }
        unsettledSince = nil
    }
}
