import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Synchronization

/// Runs an ideal bench world, whose controllers hand connection data straight to each
/// other (``DirectLinkData``), as fast as the hosts go. A host packet is run through the
/// world at once, on the sending host's own turn, at the world's current time: its
/// controller, the peer's controller and the packets they send their hosts (the data,
/// Number Of Completed Packets) all happen inside ``submit(_:to:)``, with no hop to
/// another task. Simulated time moves on to the next scheduled event (an advertising or
/// connection event) only once the hosts have taken every packet, written what that made
/// them write and their apps have had their turns: the hosts answer in zero simulated
/// time, and data, which needs no airtime, never waits for the world's clock. The
/// wall-clock figures are what the processor pushes through two hosts and two
/// controllers, as with two Bumble hosts on Bumble's LocalLink.
actor DirectLinkRunner: WorldDriver {
    /// Executor turns given to app tasks once the hosts have taken every packet, before
    /// the world's clock may move.
    static let appTurns = 8
    /// Failed checks in a row that mean the hosts are streaming data.
    static let checksBeforePause = 3
    /// How long the runner leaves streaming hosts alone before it checks again.
    static let pauseWhileStreaming = Duration.milliseconds(1)
    /// Packets counted while the runner waits for a balance that mean data streams.
    static let streamingPackets = 64

    /// The world, shared by the submitting hosts and the runner's clock.
    private let world: Mutex<World>
    private let mailbox: LockstepMailbox
    private var hosts: [BLEHost.Host] = []
    private var stopped = false
    private let time = Atomic<Int64>(0)
    private var appSettled: (@Sendable () async -> Bool)?
    private var counted = BenchPhases()

    init(world: sending World, mailbox: LockstepMailbox) {
        self.world = Mutex(world)
        self.mailbox = mailbox
    }

    /// The hosts whose turns the runner waits for.
    func attach(_ hosts: [BLEHost.Host]) { self.hosts = hosts }

    /// Runs `packet` through the world now: everything it causes at the current
    /// simulated time happens before this returns.
    nonisolated func submit(_ packet: H4.Packet, to device: DeviceID) {
        mailbox.countSubmission(to: device)
        world.withLock { $0.sendToControllerNow(packet, device: device) }
    }

    nonisolated var acceptsImmediately: Bool { true }

    nonisolated var now: Microseconds { time.load(ordering: .relaxed) }

    func setAppSettled(_ predicate: (@Sendable () async -> Bool)?) { appSettled = predicate }

    var phases: BenchPhases? { counted }
    func resetPhases() { counted = BenchPhases() }

    func stop() {
        stopped = true
        mailbox.stop()
    }

    func runUntilStopped() async {
        var unsettledInARow = 0
        while !stopped, !Task.isCancelled {
            if unsettledInARow >= Self.checksBeforePause, !mailbox.isBalanced {
                // Still streaming: look again after a pause, without waiting in the mailbox
                // (a waiter makes every packet's count take the mailbox's lock). The
                // wall-clock edge: the hosts stream on threads of their own, outside the
                // world's clock, which stands still meanwhile.
                try? await Task.sleep(for: Self.pauseWhileStreaming)
                continue
            }
            let version = mailbox.version
            // The wall-clock edge: where the processor's time went (``BenchPhases``).
            let started = ContinuousClock.now
            let settled = await hostsSettled(streaming: unsettledInARow >= Self.checksBeforePause)
            counted.settleSeconds += wallSeconds(since: started)
            guard settled else {
                unsettledInARow += 1
                if unsettledInARow >= Self.checksBeforePause {
                    // Data streams between the hosts, and data needs no clock: check again
                    // after a pause rather than after every packet, which would take the
                    // hosts' turns (and their threads) from the stream. The clock still
                    // moves only once they are settled, so simulated time is unchanged. The
                    // wall-clock edge: the pause is for the hosts' threads, outside the world.
                    try? await Task.sleep(for: Self.pauseWhileStreaming)
                } else {
                    // A host or its app still works towards a packet: wait until it has
                    // been written and taken (not woken by every packet on the way), or
                    // until so many packets have gone by that data must be streaming.
                    await mailbox.wait(for: .balancedOrStreaming(since: version, packets: Self.streamingPackets))
                }
                continue
            }
            unsettledInARow = 0
            counted.settles += 1
            // The wall-clock edge: where the processor's time went (``BenchPhases``).
            let moved = ContinuousClock.now
            // The clock moves on to the next scheduled event and whatever is due with it.
            let ran = world.withLock { world -> Microseconds? in
                guard world.runNextEvent() else { return nil }
                while let next = world.nextEventTime, next <= world.now { world.runNextEvent() }
                return world.now
            }
            counted.worldSeconds += wallSeconds(since: moved)
            if let ran {
                time.store(ran, ordering: .relaxed)
            } else {
                // Nothing scheduled: nothing can happen until a host sends something.
                await mailbox.wait(for: .balancedAfter(since: version))
            }
        }
    }

    /// Whether the hosts have taken and answered everything and their apps are done for
    /// now, so the world's clock may move.
    /// While data streams it does not wait for the hosts to balance: a runner waiting in
    /// the mailbox makes every packet's count take its lock.
    private func hostsSettled(streaming: Bool) async -> Bool {
        if streaming {
            guard mailbox.isBalanced else { return false }
        } else {
            await mailbox.wait(for: .balanced)
        }
        let before = mailbox.version
        if stopped { return false }
        // A hop to each host: it runs after the turn in which the host took its last
        // packet, so whatever that turn wrote has been counted.
        for host in hosts { _ = await host.controller }
        for _ in 0 ..< Self.appTurns { await Task.yield() }
        guard mailbox.version == before, mailbox.isBalanced else { return false }
        if let appSettled, !(await appSettled()) { return false }
        return mailbox.version == before
    }
}
