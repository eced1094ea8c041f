import BLEController
import BLEWire

/// A simulated world (DESIGN.md, "The world"): devices running `SimulatedController`s in a
/// space with obstacles, a radio medium between them, and a discrete-event scheduler on a
/// virtual clock in microseconds.
///
/// The world is sans-IO and single-threaded: nothing happens until it is driven with
/// ``runNextEvent()`` or ``run(until:)``, and the same configuration, devices and inputs
/// give the same outputs, captures and statistics on every run. Real-time pacing, if
/// wanted, is the caller's business.
public final class World {
    /// The configuration the world was made with.
    public let configuration: WorldConfiguration

    // Release builds skip the run-time exclusivity checks on the state every event
    // touches (`@exclusivity(unchecked)` below): the world is single-threaded by contract,
    // the compiler still checks what it can see, and debug builds (the tests) keep the
    // run-time checks (docs/decisions/0046-release-builds-skip-runtime-exclusivity-checks.md).

    /// The virtual time: the time of the event being or last processed, or the end of the
    /// last ``run(until:)``.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    public internal(set) var now: Microseconds = 0

    /// Called for every HCI packet a controller sends its host, at the virtual time it is
    /// sent (``now``). Packets sent to controllers from inside the handler are delivered
    /// after it returns, still at ``now``.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    public var onHostPacket: ((DeviceID, H4.Packet) -> Void)?

    /// Called instead of ``onHostPacket`` for each LE Advertising Report (Core 5.4, Vol 4,
    /// Part E, §7.7.65.2) a controller hands over as a value
    /// (``BLEController/ControllerOutput/advertisingReport(_:)``), at the same moment and in
    /// the same order: for hosts inside the process that would only decode the packet again.
    /// Left `nil`, such a report is encoded and goes to ``onHostPacket`` as any event; a world
    /// that captures HCI captures its bytes either way.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    public var onAdvertisingReport: ((DeviceID, HCI.LEAdvertisingReport) -> Void)?

    /// Called for every packet a receiver gets, at the virtual time its last bit arrives and
    /// before its controller handles it: for digests that compare runs (every bundled
    /// scenario's receptions are pinned by a test) and for counting events in benchmarks.
    /// Left `nil`, it costs one check per reception.
    public var onReception: ((WorldReception) -> Void)?

    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var queue = WorldEventQueue()
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var deviceStates: [DeviceState] = []
    /// Each device's timer generation (a wake-up is stale unless it carries the current
    /// one), kept apart from the devices so the queue's stale wake-ups are found without
    /// reading them.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var timerGenerations: [UInt64] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var obstacles: [Obstacle] = []
    /// The device each obstacle moves with (same index as ``obstacles``), or `nil` for a
    /// fixed one.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var obstacleCarriers: [DeviceState?] = []
    /// Devices whose receiver is assigned to each channel index (0–255), for fast look-up.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var listeners: [[Int]] = Array(repeating: [], count: 256)
    /// The same listeners filed by where they stand, so a packet is offered only to those
    /// in its reach (``reach(txPowerDBm:senderGainDBi:phy:)``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var listenerGrid = ListenerGrid()
    /// Whether a packet is offered only to the listeners within its reach (always, but for
    /// the test that compares a world with and without it).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var offersOnlyWithinReach = true
    /// The listeners in reach of the transmission that is starting; reused, not reallocated.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var reachable: [Int] = []
    /// The mean levels and serials of the interferers of the packet being judged at one
    /// receiver (``InterferenceBounds``); reused, not reallocated.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var interferenceMeans: [(meanDBm: Double, serial: UInt64)] = []
    /// The shadowing bounds of ``InterferenceBounds`` for this world's radio model.
    let shadowingFactors: ShadowingFactors
    /// ``reachable`` keyed by each device's index in its channel's listeners, for sorting.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var reachableOrder: [(index: Int, device: Int)] = []
    /// The largest antenna gain minus sensitivity of any device, in dB (the best receiver
    /// of the reach bound); +∞, which turns the bound off, if one is not a number.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var bestReceiverMarginDB = -Double.infinity
    /// The sum of the obstacles' negative losses (gains), in dB; +∞ if a loss is not a number.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var obstacleGainDB = 0.0
    /// ``maximumVariationDB(_:)`` of the world's radio model.
    let maximumVariationDB: Double
    /// What of a packet's reach its own shadowing draw leaves at a receiver (``DrawReach``).
    let drawReach: DrawReach
    /// Transmissions on the air on each channel.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var onAir: [[OnAir]] = Array(repeating: [], count: 256)
    /// The packets on the air that nobody locked onto, whose ends book no event.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var unheardEnds = UnheardEnds()
    /// Per-channel counters of what went on the air (``channelStatistics``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var channelCounters = ChannelStatistics()
    /// Transmission records by slot, and the slots free for reuse.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var air: [AirRecord] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var freeAirSlots: [Int] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var nextTransmissionSerial: UInt64 = 0
    /// Packets and closures of scheduled events, by slot, and the slots free for reuse.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var payloads: [WorldEventPayload?] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var freePayloadSlots: [Int] = []

    /// Whether an event (or a packet from ``sendToControllerNow(_:device:)``) is being
    /// processed: a packet sent meanwhile is queued behind it.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var dispatching = false

    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var packetLoss: [LinkKey: Double] = [:]
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var blockedLinks: Set<LinkKey> = []
    /// Links blocked one way only, as (sender, receiver) device indices.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var blockedDirections: Set<DirectedLinkKey> = []

    /// A world with no devices at time 0.
    public init(configuration: WorldConfiguration) {
        self.configuration = configuration
        maximumVariationDB = Self.maximumVariationDB(configuration.radio)
        shadowingFactors = ShadowingFactors(sigmaDB: configuration.radio.shadowingSigmaDB)
        drawReach = DrawReach(radio: configuration.radio, maximumVariationDB: maximumVariationDB)
    }

    // MARK: Devices

    /// Adds a device running `controller` and returns its identifier. The device is powered;
    /// its controller is woken at its first `nextDeadline`, if any.
    @discardableResult
    public func addDevice(_ description: DeviceDescription, controller: some SimulatedController) -> DeviceID {
        let index = deviceStates.count
        deviceStates.append(DeviceState(description: description, controller: controller))
        timerGenerations.append(0)
        deviceStates[index].radioClock.poweredSince = now
        let margin = description.antennaGainDBi - description.sensitivityDBm
        bestReceiverMarginDB = margin.isNaN ? .infinity : Swift.max(bestReceiverMarginDB, margin)
        deviceStates[index].reachScale = reachScale(of: description)
        listenerGrid.version &+= 1
        refreshTimer(index)
        return DeviceID(rawValue: index)
    }

    /// Adds an obstacle; it attenuates every line of sight through it from now on.
    /// - Parameters:
    ///   - obstacle: the shape and its loss.
    ///   - device: a device the obstacle moves with (a bus's body), or `nil` for a fixed
    ///     one. The shape's coordinates are then relative to that device's position at the
    ///     time of each packet, and the shape is not turned with the device's heading.
    public func addObstacle(_ obstacle: Obstacle, attachedTo device: DeviceID? = nil) {
        obstacles.append(obstacle)
        obstacleGainDB = obstacle.lossDB.isNaN ? .infinity : obstacleGainDB + Swift.max(0, -obstacle.lossDB)
        obstacleCarriers.append(device.flatMap { deviceStates.indices.contains($0.rawValue) ? deviceStates[$0.rawValue] : nil })
        listenerGrid.version &+= 1
    }

    /// Makes `device` ride with `carrier` (a phone or a beacon on a bus): from now on its
    /// position is the carrier's plus `offset`, whatever its own route says, and a heading
    /// that follows the route follows the carrier's motion. Returns `false`, changing
    /// nothing, when that would make a device carry itself, directly or through others.
    @discardableResult
    public func carry(_ device: DeviceID, by carrier: DeviceID, offset: Vector3) -> Bool {
        guard deviceStates.indices.contains(device.rawValue), deviceStates.indices.contains(carrier.rawValue) else { return false }
        let state = deviceStates[device.rawValue]
        var link: DeviceState? = deviceStates[carrier.rawValue]
        while let current = link {
            if current === state { return false }
            link = current.carrier
        }
        state.carrier = deviceStates[carrier.rawValue]
        state.carriedOffset = offset
        listenerGrid.version &+= 1
        refileListener(device.rawValue)
        return true
    }

    /// Turns `device` to face `degrees` (0° along +x, counter-clockwise) from now on; a
    /// heading that followed the route stops following it (scenarios' `turn` action).
    public func setHeading(_ device: DeviceID, degrees: Double) {
        guard deviceStates.indices.contains(device.rawValue), degrees.isFinite else { return }
        let state = deviceStates[device.rawValue]
        state.description.headingDegrees = degrees
        state.description.headingFollowsRoute = false
    }

    /// Every device, in the order added.
    public var devices: [DeviceID] { deviceStates.indices.map(DeviceID.init(rawValue:)) }

    /// The obstacles, in the order added.
    public var allObstacles: [Obstacle] { obstacles }

    /// How `device` was described when added. Traps on an identifier of another world.
    public func description(of device: DeviceID) -> DeviceDescription {
        state(device).description
    }

    /// Where `device` is at ``now``, following its route.
    public func position(of device: DeviceID) -> Vector3 {
        state(device).position(at: now)
    }

    /// Where `device` is, was or will be at `time`, on its route or its carrier's as they
    /// stand now (a later `moveTo` or `carry` is not foreseen).
    public func position(of device: DeviceID, at time: Microseconds) -> Vector3 {
        state(device).position(at: time)
    }

    /// The heading of `device` at ``now`` in degrees: the direction it moves in when its
    /// heading follows its route, else the heading it was given or turned to.
    public func heading(of device: DeviceID) -> Double {
        state(device).headingDegrees(at: now)
    }

    /// Whether `device` is powered.
    public func isPowered(_ device: DeviceID) -> Bool {
        state(device).powered
    }

    /// The state of `device`. Identifiers come only from this world's `addDevice` and
    /// `devices`, so the index is in range unless a caller mixes identifiers of two worlds:
    /// a programming error, never input from a peer or a scenario file, hence the check.
    func state(_ device: DeviceID) -> DeviceState {
        precondition(deviceStates.indices.contains(device.rawValue), "\(device) is not a device of this world")
        return deviceStates[device.rawValue]
    }
}
