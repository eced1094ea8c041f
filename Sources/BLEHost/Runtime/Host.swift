@_exported import BLETime
import BLEWire
import Synchronization

/// A running LE host (Core 5.4, Vol 1, Part A, §2: the host side of HCI): the sans-IO
/// ``HCIDriver``, ``GAPCore`` and one ``L2CAPLink`` per connection, driven over a
/// ``HostTransport`` on the wall clock.
///
/// The actor is the thin layer DESIGN.md puts around the cores: it feeds them packets and
/// the time, sends what they return, in order, through one writer task, and keeps one
/// timer task for their earliest deadline. Requests that start a procedure wait for the
/// GAP event that ends it.
public actor Host {
    private let transport: any HostTransport
    /// The clock every timer of the host and of the layers above it runs on.
    public nonisolated let clock: any StackClock
    /// ``clock``'s reading when the host was made: the host's time zero.
    let originMicroseconds: HostTime
    private let snoop: (@Sendable (HostPacketRecord) -> Void)?

    // Release builds skip the run-time exclusivity checks on the state every packet
    // touches (`@exclusivity(unchecked)` below): the actor's isolation makes it single-
    // threaded, the compiler still checks what it can see, and debug builds (the tests)
    // keep the run-time checks. On the ideal bench link the checks cost the sending host's
    // thread about a fifth of its time (docs/decisions/0046-release-builds-skip-runtime-exclusivity-checks.md).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var driver: HCIDriver
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var gap = GAPCore()
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var links: [UInt16: L2CAPLink] = [:]
    let l2capConfiguration: L2CAPConfiguration

    private var started = false
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var closed: HostError?
    /// Whether any packet came from the controller: a transport that ends before one did
    /// was most likely refused (a served controller takes one host at a time).
    var heardFromController = false
    var startWaiter: CheckedContinuation<ControllerInfo, any Error>?
    var waiters: [Waiter] = []
    var scanOutput: AsyncStream<GAPAdvertisement>.Continuation?
    /// The streams of ``synchronize(_:)``, by number (Host+PeriodicSync.swift).
    var periodicSessions: [Int: HostPeriodicSession] = [:]
    var nextPeriodicSession = 0
    /// What the host does with a peripheral's connection parameter update request.
    let parameterUpdatePolicy: ConnectionParameterUpdatePolicy
    /// What the host's log lines call it (`host=…`), so the lines of several hosts in one
    /// process (a simulated world's peripherals beside the app's own) tell apart; empty for
    /// none.
    nonisolated let logLabel: String
    /// Open and opening credit-based channels, by ID.
    var channels: [L2CAPChannelID: HostChannelState] = [:]
    /// ``openChannel(psm:on:mtu:mps:initialCredits:)`` calls waiting for the peer's answer.
    var channelOpenWaiters: [L2CAPChannelID: CheckedContinuation<HostChannel, any Error>] = [:]
    /// Servers by SPSM, set up on every link, present and future.
    var listeners: [UInt16: ChannelListener] = [:]
    /// ``updateConnectionParameters(_:to:)`` calls of a peripheral, by handle.
    var parameterUpdateWaiters: [UInt16: CheckedContinuation<GAPConnectionParameters, any Error>] = [:]
    /// Each connection's ATT bearer and GATT client, by handle.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var attLinks: [UInt16: HostATTLink] = [:]
    /// Our GATT server, shared by every connection (the GAP and GATT services until
    /// ``publishGATT(_:configuration:)``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var gattServer: GATTServer
    /// The configuration of every connection's bearer.
    let attConfiguration: ATTBearerConfiguration
    /// ATT and SMP PDUs of links whose key size is being read, in arrival order.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var heldUntilKeySize: [UInt16: [L2CAPOutput]] = [:]
    /// Each link's pairing, while it runs and after it ended (until the link goes down).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var smpSessions: [UInt16: SMPPairing] = [:]
    /// SMP PDUs of a pairing step that came when no pairing ran on their link (Host+Pairing.swift).
    var strayPairingPDUs = 0
    /// ``pair(_:)`` calls by link.
    var pairingWaiters: [UInt16: [CheckedContinuation<SMPPairingResult, any Error>]] = [:]
    /// Where pairings draw their random values (`nil`: the system's secure source).
    var pairingRandom: SMPSeededRandom?
    /// Our capabilities and keys for pairing.
    var smpConfiguration = SMPConfiguration()
    /// Who shows and enters passkeys.
    var pairingAgent: (any PairingAgent)?
    /// Keys of bonded peers, for Security Requests.
    var bondedKeyLookup: BondedKeyLookup?
    /// The repeated-attempts back-off per peer (Vol 3, Part H, §2.3.6).
    var pairingAttempts = SMPAttemptTracker()
    /// Notifications and writes without response waiting for controller buffers, by handle.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var aclRoomWaiters: [UInt16: [CheckedContinuation<Void, Never>]] = [:]
    /// ``disconnect(_:reason:)`` calls waiting for their link's data to be completed, by
    /// handle and waiter number.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var drainWaiters: [UInt16: [Int: CheckedContinuation<Void, Never>]] = [:]
    var nextDrainWaiter = 0
    /// Answers the controller's LTK requests when this host is peripheral (Host+Encryption.swift).
    var longTermKeyProvider: LongTermKeyProvider?
    /// Called when a GATT procedure fails for want of security (Host+Encryption.swift).
    var securityUpgradeHandler: SecurityUpgradeHandler?
    /// Given what our server kept of a client whose link went down (Host+BondedClients.swift).
    var departedClientHandler: DepartedClientHandler?
    /// Our resolvable private address and its deadlines, once privacy is on (Host+Privacy.swift).
    var privacy: RPARotation?
    /// Whether every advertising, scan and connection uses the random static address
    /// (``useRandomStaticAddress(_:)``).
    var randomStaticAddressInUse = false
    /// Why each connection handle's last link ended, until the handle is used again: a
    /// request that reaches GAP after the link went down still learns how it ended.
    var lastDisconnectionReasons: [UInt16: HCI.StatusCode] = [:]
    /// A new private address waiting for GAP to be idle.
    var privateAddressDue: BluetoothAddress?
    /// Whether advertising is being stopped and restarted to change the address.
    var restartingAdvertising = false
    /// The resolving list and where addresses are resolved (Host+AddressResolution.swift).
    var addressResolution = HostAddressResolution()

    /// Packets handed to the writer task and not yet sent: while any are, later packets
    /// queue behind them rather than take ``HostTransport/sendImmediately(_:)``.
    private let writerBacklog = Atomic<Int>(0)
    private let outgoing: AsyncStream<H4.Packet>.Continuation
    private let outgoingPackets: AsyncStream<H4.Packet>
    private var reader: Task<Void, Never>?
    private var writer: Task<Void, Never>?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var timer: Task<Void, Never>?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var timerDeadline: HostTime?
    /// Where the host's own tasks prefer to run; `nil` is the global concurrent executor.
    public nonisolated let executor: (any TaskExecutor)?

    /// Every GAP event but advertisement reports (those come from ``startScanning(_:)``),
    /// in order, for one consumer; the newest 1024 are kept if nobody reads.
    public nonisolated let events: AsyncStream<GAPEvent>
    let eventOutput: AsyncStream<GAPEvent>.Continuation
    /// What the connections' L2CAP links report that the host does not handle itself (SMP
    /// PDUs, parameter update requests), for one consumer. ATT goes to the connection's
    /// bearer (see ``gattEvents``).
    public nonisolated let l2capEvents: AsyncStream<HostL2CAPEvent>
    let l2capOutput: AsyncStream<HostL2CAPEvent>.Continuation
    /// What the connections' ATT bearers report (values notified to us, requests our
    /// server hands to the app, MTU changes), for one consumer, who must keep reading: at most
    /// ``gattEventBacklog`` unread events are held, and past that new ones are refused
    /// (``droppedGATTEvents``; a request gets Insufficient Resources), so a peer cannot make
    /// a host whose app stopped reading hold without bound what it sends.
    public nonisolated let gattEvents: AsyncStream<HostGATTEvent>
    let gattOutput: AsyncStream<HostGATTEvent>.Continuation
    /// How many unread ``gattEvents`` the host holds: with values of at most 512 octets,
    /// about 2 MB. A peer notifying as fast as a 2M PHY link allows fills it in a few
    /// seconds of an app not reading.
    public static let gattEventBacklog = 4096
    /// GATT events refused because ``gattEvents`` held ``gattEventBacklog`` unread ones.
    public internal(set) var droppedGATTEvents = 0
    /// Takes the GATT events in place of ``gattEvents`` while set
    /// (``handleGATTEvents(with:)``).
    var gattEventHandler: (@Sendable (HostGATTEvent) -> Void)?
    /// Pairings completed and failed, for the layer that keeps bonds; for one consumer,
    /// nothing dropped.
    public nonisolated let securityEvents: AsyncStream<HostSecurityEvent>
    let securityOutput: AsyncStream<HostSecurityEvent>.Continuation

    /// A host on `transport`; nothing is sent before ``start()``.
    /// - Parameters:
    ///   - transport: the pipe to the controller.
    ///   - configuration: the driver's timeouts and start-up choices.
    ///   - l2cap: the configuration of every connection's L2CAP link; by default each
    ///     channel holds at most 32 unread SDUs before its credits wait for the reader.
    ///   - parameterUpdates: how to answer a peripheral's connection parameter update
    ///     request when this host is central.
    ///   - att: every bearer's receive MTU (default 517) and transaction timeout (30 s).
    ///   - onPacket: sees every packet in both directions with its time, e.g. for a btsnoop
    ///     file; called on the host's isolation, so it must be quick.
    ///   - executor: where the host's own tasks (reading and writing the transport, its
    ///     timer) prefer to run, e.g. a ``SingleThreadExecutor`` shared with the app; `nil`,
    ///     the default, is Swift's global concurrent executor (a ``Simulation`` when `clock`
    ///     is one's clock).
    ///   - clock: the clock of the host's timers and of ``now``: a ``Simulation``'s
    ///     ``VirtualClock`` for a simulated world. By default the clock of the simulation
    ///     whose thread makes the host (``Simulation/current``), else the wall clock.
    ///   - pairingSeed: draws pairing's nonces and key pairs from this seed
    ///     (``SMPSeededRandom``) instead of the system's secure source, so that a simulated
    ///     run repeats byte for byte; never for a real link. A host on a simulation's clock
    ///     draws one from the simulation (``Simulation/drawSeed()``) when none is given.
    ///   - logLabel: the name the host's log lines carry (`host=…`), for a process with
    ///     several hosts.
    public init(
        transport: any HostTransport, configuration: HCIDriverConfiguration = .init(),
        l2cap: L2CAPConfiguration = .init(receiveHoldLimit: 32),
        parameterUpdates: ConnectionParameterUpdatePolicy = .acceptValid,
        att: ATTBearerConfiguration = .init(),
        onPacket: (@Sendable (HostPacketRecord) -> Void)? = nil,
        executor: (any TaskExecutor)? = nil,
        clock: (any StackClock)? = nil,
        pairingSeed: UInt64? = nil,
        logLabel: String = ""
    ) {
        self.logLabel = logLabel
        let clock = clock ?? Simulation.current?.clock ?? WallClock()
        let simulation = (clock as? VirtualClock)?.simulation
        self.executor = executor ?? simulation
        self.clock = clock
        pairingRandom = (pairingSeed ?? simulation?.drawSeed()).map(SMPSeededRandom.init(seed:))
        self.transport = transport
        parameterUpdatePolicy = parameterUpdates
        originMicroseconds = clock.microseconds
        snoop = onPacket
        driver = HCIDriver(configuration: configuration)
        gap.choosesExtendedFamilyWhenClaimed = configuration.usesExtendedFamilyWhenClaimed
        l2capConfiguration = l2cap
        attConfiguration = att
        // The GAP and GATT services alone always lay out.
        gattServer = GATTServer(database: (try? GATTDatabase(services: [])) ?? GATTDatabase.empty,
                                configuration: GATTServer.Configuration(receiveMTU: att.receiveMTU))
        (gattEvents, gattOutput) = AsyncStream.makeStream(of: HostGATTEvent.self, bufferingPolicy: .bufferingOldest(Self.gattEventBacklog))
        (securityEvents, securityOutput) = AsyncStream.makeStream(of: HostSecurityEvent.self, bufferingPolicy: .unbounded)
        (outgoingPackets, outgoing) = AsyncStream.makeStream(of: H4.Packet.self, bufferingPolicy: .unbounded)
        (events, eventOutput) = AsyncStream.makeStream(of: GAPEvent.self, bufferingPolicy: .bufferingNewest(1024))
        (l2capEvents, l2capOutput) = AsyncStream.makeStream(of: HostL2CAPEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// Microseconds since the host was made: the time every core input carries, and the
    /// clock of ``GAPAdvertisement/time``, so a caller can measure a report from a moment of
    /// its own (e.g. the start of its scan).
    public nonisolated var now: HostTime {
        clock.microseconds - originMicroseconds
    }

    // MARK: Life

    /// Starts reading and writing the transport and brings the controller up (HCI_Reset and
    /// the start-up sequence, Vol 4, Part E, §7.3.2 ff.).
    /// - Returns: what start-up learned, e.g. the controller's public address.
    public func start() async throws -> ControllerInfo {
        guard !started else { throw HostError.alreadyStarted }
        started = true
        let transport = self.transport
        let packets = outgoingPackets
        writer = Task(executorPreference: executor) { [weak self] in
            for await packet in packets {
                do {
                    try await transport.send(packet)
                    self?.writerBacklog.subtract(1, ordering: .releasing)
                } catch {
                    await self?.transportEnded("\(error)")
                    return
                }
            }
        }
        reader = Task(executorPreference: executor) { [weak self] in
            if let inbox = transport.inbox {
                while true {
                    let batch = await inbox.take()
                    guard let self else { return }
                    guard !batch.isEmpty else {
                        await self.transportEnded(inbox.failure ?? "the controller's side closed")
                        return
                    }
                    await self.received(batch)
                }
            }
            do {
                for try await packet in transport.packets {
                    guard let self else { return }
                    await self.received(packet)
                }
                await self?.transportEnded("the controller's side closed")
            } catch {
                await self?.transportEnded("\(error)")
            }
        }
        return try await withCheckedThrowingContinuation { continuation in
            startWaiter = continuation
            carryOut(driver.start(at: now))
        }
    }

    /// Fails waiting requests, stops the tasks and closes the transport.
    public func close() async {
        transportEnded("the host was closed", byHost: true)
        reader?.cancel()
        writer?.cancel()
        await transport.close()
    }

    /// The controller's information once started, `nil` before.
    public var controller: ControllerInfo? { driver.controller }
    /// The connections up, by ascending handle.
    public var connections: [GAPConnection] { gap.connections }
    /// The driver's counters of dropped packets.
    public var counters: HCIDriverCounters { driver.counters }

    // MARK: Snooping

    func record(_ packet: H4.Packet, outgoing: Bool) {
        snoop?(HostPacketRecord(packet: packet, outgoing: outgoing, time: now))
    }

    func write(_ packet: H4.Packet) {
        record(packet, outgoing: true)
        if writerBacklog.load(ordering: .acquiring) == 0, transport.sendImmediately(packet) { return }
        writerBacklog.add(1, ordering: .relaxed)
        outgoing.yield(packet)
    }
}
