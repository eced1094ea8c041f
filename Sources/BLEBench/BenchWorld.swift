import BLEAdapter
import BLEController
import BLEHost
import BLETime
import BLEWire
import BLEWorld
import Foundation

/// Two of our hosts on two controllers in one embedded world: the bench's test bed. The
/// world runs paced by a ``WorldRunner`` at a finite speed; at infinite speed where the air
/// sets the pace, on a ``Simulation`` that the hosts and the bench's tasks share
/// (``measure(_:)``), so simulated time moves only once all of them have done what they
/// can and the simulated figures are the air's, the same on any machine; with
/// ``DirectLinkRunner`` in the GATT benches' ideal world, whose controllers hand data to
/// each other with no airtime (``ControllerConfiguration/airtimeFreeData``). Index 0 is
/// the peripheral's host, index 1 the central's.
public final class BenchWorld: Sendable {
    let runner: any WorldDriver
    let hosts: [BLEHost.Host]
    /// The public address of each host's controller, in the same order.
    let addresses: [BluetoothAddress]
    private let run: Task<Void, Never>
    /// Where each host's tasks and the bench's tasks on its side run on the airtime-free
    /// link, in the order of ``hosts`` (see ``SingleThreadExecutor``);
    /// empty elsewhere, where everything runs on Swift's global executor.
    let executors: [SingleThreadExecutor]
    private let snoops: [SnoopFile]
    /// The simulation of a world with air at infinite speed: its world, its hosts and the
    /// bench's tasks (``measure(_:)``) run on its thread and clock.
    let simulation: Simulation?

    /// Builds the world and the hosts (not started).
    /// - Parameters:
    ///   - timing: `.ideal` (no loss: the stack alone is measured) or `.realistic`.
    ///   - speed: simulated seconds per wall-clock second; `.infinity` for lock-step.
    ///   - seed: the world's seed: the same seed gives the same simulated timeline.
    ///   - snoopDirectory: where to write `peripheral.btsnoop` and `central.btsnoop`, if
    ///     anywhere; created when missing.
    ///   - dataLength: the connMaxTxOctets both hosts have their controllers suggest for new
    ///     connections (LE Write Suggested Default Data Length, Vol 4, Part E, §7.8.35).
    ///   - airtimeFreeIdeal: whether an ideal world's controllers hand connection data
    ///     straight to each other (``ControllerConfiguration/airtimeFreeData``), as the GATT
    ///     benches compare with Bumble's LocalLink; the L2CAP bench keeps the air's limit.
    /// - Throws: ``BenchFailure`` when the world, its threads or the captures cannot be made.
    public init(timing: TimingMode, speed: Double, seed: UInt64, snoopDirectory: String?, dataLength: Int = 251,
         airtimeFreeIdeal: Bool = false) throws {
        let airtimeFree = airtimeFreeIdeal && timing == .ideal
        var scenario = Scenario(name: "bench", seed: seed, timing: timing).addingExternalDevices(2)
        scenario.timing = timing
        // The world's own capture of every HCI packet would cost memory and time in a
        // benchmark; a snoop directory holds the hosts' captures instead.
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio,
                                                            capturesHCI: false))
        let built: BuiltScenario
        do {
            // The ideal world's links have no airtime, as Bumble's LocalLink (DirectLinkData).
            built = try scenario.build(into: world) { configuration in
                var configuration = configuration
                configuration.airtimeFreeData = airtimeFree
                return Controller(configuration: configuration)
            }
        } catch {
            throw BenchFailure(error.description)
        }
        // Batches only on the airtime-free link: in the lock-stepped world with air, a host
        // that handles a whole batch in one turn keeps its sender from the controller's freed
        // buffers until the world has moved on, and the realistic figure halves under load.
        let batched = airtimeFree && speed.isInfinite
        var sinks: [DeviceID: AsyncThrowingStream<H4.Packet, any Error>.Continuation] = [:]
        var inboxes: [DeviceID: HostPacketInbox] = [:]
        var streams: [(DeviceID, AsyncThrowingStream<H4.Packet, any Error>)] = []
        var addresses: [BluetoothAddress] = []
        for id in built.externalDevices {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4.Packet.self, bufferingPolicy: .unbounded)
            sinks[id] = continuation
            if batched { inboxes[id] = HostPacketInbox(pollsBeforeWaiting: BenchWorld.inboxPolls) }
            streams.append((id, stream))
            if let index = built.deviceIDs.firstIndex(of: id) { addresses.append(scenario.controllerPublicAddress(index: index)) }
        }
        guard streams.count == 2, addresses.count == 2 else { throw BenchFailure("The bench world did not build two devices.") }
        let outputs = sinks
        let boxes = inboxes
        let devices = streams.map(\.0)
        let mailbox = batched ? LockstepMailbox(devices: devices) : nil
        // Searched, not hashed: two devices, and this runs for every packet to a host.
        let inboxList = boxes.map { (device: $0.key, inbox: $0.value) }
        built.onExternalHostPacket = { id, packet in
            if let inbox = inboxList.first(where: { $0.device == id })?.inbox { inbox.append(packet) } else { outputs[id]?.yield(packet) }
            mailbox?.deliveredToHost(id)
        }
        var snoops: [SnoopFile] = []
        if let snoopDirectory {
            do {
                try FileManager.default.createDirectory(atPath: snoopDirectory, withIntermediateDirectories: true)
            } catch {
                throw BenchFailure("Cannot create the snoop directory \(snoopDirectory): \(error.localizedDescription); choose a writable path.")
            }
            do {
                for name in ["peripheral", "central"] { snoops.append(try SnoopFile(path: snoopDirectory + "/" + name + ".btsnoop")) }
            } catch let error as AdapterError {
                throw BenchFailure(error.description)
            }
        }
        // One thread per host: a stream of notifications is a pipeline, both hosts work at
        // once and a batch crosses between them with one hand-over; a write and its response
        // go back and forth, and the threads' looking before sleeping spares each exchange
        // two wake-ups. One thread for both is slower: the work no longer overlaps
        // (docs/decisions/0045-one-thread-per-host.md).
        let executors: [SingleThreadExecutor]
        do {
            executors = batched ? [try SingleThreadExecutor(name: "peripheral", spinsBeforeSleeping: BenchWorld.spins),
                                   try SingleThreadExecutor(name: "central", spinsBeforeSleeping: BenchWorld.spins)] : []
        } catch {
            throw BenchFailure(error.description)
        }
        self.executors = executors
        let simulation: Simulation?
        do {
            simulation = speed.isInfinite && !airtimeFree ? try Simulation(seed: seed, name: "ble-bench") : nil
        } catch {
            throw BenchFailure(error.description)
        }
        self.simulation = simulation
        let runner: any WorldDriver
        let attach: (@Sendable ([BLEHost.Host]) async -> Void)?
        if let mailbox, airtimeFree {
            let driver = DirectLinkRunner(world: world, mailbox: mailbox)
            (runner, attach) = (driver, { await driver.attach($0) })
        } else if let simulation {
            (runner, attach) = (WorldRunner(world: world, simulation: simulation, endingSimulation: true), nil)
        } else {
            do {
                (runner, attach) = (try WorldRunner(world: world, speed: speed), nil)
            } catch {
                throw BenchFailure(error.description)
            }
        }
        self.runner = runner
        self.addresses = addresses
        self.snoops = snoops
        let octets = UInt16(clamping: min(max(dataLength, 27), 251))
        let configuration = HCIDriverConfiguration(suggestedDataLength: .init(maxTxOctets: octets, maxTxTime: (octets + 14) * 8))
        var hosts: [BLEHost.Host] = []
        for (index, stream) in streams.enumerated() {
            let file = index < snoops.count ? snoops[index] : nil
            var onPacket: (@Sendable (HostPacketRecord) -> Void)?
            if let mailbox {
                onPacket = { record in
                    mailbox.hostPacket(index, outgoing: record.outgoing)
                    file?.write(record)
                }
            } else if let file {
                onPacket = { record in file.write(record) }
            }
            hosts.append(BLEHost.Host(transport: WorldHostTransport(runner: runner, device: stream.0, packets: stream.1,
                                                                         packetInbox: boxes[stream.0]),
                                      configuration: configuration, onPacket: onPacket, executor: executors.isEmpty ? nil : executors[index],
                                      clock: simulation?.clock))
        }
        self.hosts = hosts
        // The runner on the central's thread: in the notification bench the peripheral's
        // thread, which runs the world inline in its sends, is the busier one.
        let preference: (any TaskExecutor)? = executors.last ?? simulation
        run = Task(executorPreference: preference) {
            await attach?(hosts)
            await runner.runUntilStopped()
        }
    }

    /// Runs a bench's measurement: on the world's simulation when it has one, so that the
    /// bench's tasks are part of its timeline; else where the caller is.
    public func measure<T: Sendable>(_ body: @escaping @Sendable (BenchWorld) async throws -> T) async throws -> T {
        guard let simulation else { return try await body(self) }
        return try await simulation.run { try await body(self) }
    }

    /// Runs a bench's measurement (``measure(_:)``), then closes the world (``close()``)
    /// whether it finished or failed, so a failed bench leaves no thread or capture open.
    /// - Throws: ``BenchFailure``: the bench's own, or one that names any other error.
    public func measureThenClose<T: Sendable>(_ body: @escaping @Sendable (BenchWorld) async throws -> T) async throws(BenchFailure) -> T {
        do {
            let result = try await measure(body)
            await close()
            return result
        } catch let failure as BenchFailure {
            await close()
            throw failure
        } catch {
            await close()
            throw BenchFailure("The benchmark failed: \(error).")
        }
    }

    /// Closes both hosts, stops the world and finishes the captures.
    public func close() async {
        for host in hosts { await host.close() }
        await runner.stop()
        run.cancel()
        for snoop in snoops { snoop.close() }
    }

    /// How long an idle bench thread looks for work before it sleeps: on a busy link the
    /// next batch is microseconds away, and a sleeping thread costs the one that wakes it
    /// a system call on its own critical path.
    static let spins = 200_000

    /// How often an empty inbox's reader yields and looks again before it waits
    /// (``HostPacketInbox/init(pollsBeforeWaiting:)``).
    static let inboxPolls = 64

    deinit { for executor in executors { executor.shutdown() } }
}
