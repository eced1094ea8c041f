import BLEController
import BLEWire
import Foundation

/// Everything the world keeps for one device. A class so the controller (an existential
/// value) and the counters are mutated in place, without copies.
final class DeviceState {
    // Release builds skip the run-time exclusivity checks on the state every event
    // touches (`@exclusivity(unchecked)` below): only its world, single-threaded by
    // contract, touches it; the compiler still checks what it can see, and debug builds
    // (the tests) keep the run-time checks (docs/decisions/0046-release-builds-skip-runtime-exclusivity-checks.md).

    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var description: DeviceDescription
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var controller: any SimulatedController
    /// The device's own route, timed; setting it forgets ``routeFix`` and updates
    /// ``routeSpeedLimit``.
    var plan: RoutePlan? {
        didSet {
            routeFix = nil
            routeSpeedLimit = plan?.speedLimit
        }
    }
    /// The last position ``position(at:)`` worked out on ``plan`` and its time: asked again
    /// for the same instant, the device gives it without walking its route again.
    /// Only ever set from ``plan`` and forgotten when it changes, so it is exactly what the
    /// route gives at that time.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var routeFix: (time: Microseconds, position: Vector3)?
    /// The fastest ``plan`` ever moves, in metres per second, or `nil` when the route gives
    /// no such bound (``RoutePlan/speedLimit``): a listener far from a packet is ruled out
    /// with it (``ListenerGrid/MovingListener``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var routeSpeedLimit: Double?
    /// The device this one rides with (a phone on a bus), and where on it: the carrier's
    /// position plus `carriedOffset`. Carriers never form a cycle (``World/carry(_:by:offset:)``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var carrier: DeviceState?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var carriedOffset = Vector3.zero

    /// Whether the device has power: off means no radio and no HCI.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var powered = true
    /// Bumped by a power cycle or power-off, so transmissions and locks from before are void.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var epoch: UInt64 = 0

    /// The receiver window the controller last asked for.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var window: ReceiverWindow?
    /// The channel whose listener list holds this device, or −1.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var listenerChannel = -1
    /// The device's index in that list.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var listenerIndex = -1
    /// Where ``World/listenerGrid`` files the device while its receiver is open, and its
    /// index in that cell's or list's devices.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var filing: ListenerGrid.Filing?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var filingSlot = -1
    /// The receiver's factor of a packet's squared reach (``World/reachScale(of:)``): set
    /// when the device is added; +∞ (always offered) until then.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var reachScale = Double.infinity
    /// Whether ``World/listenerGrid`` lists the device among its stationary listeners.
    var isListedStationary = false
    /// What its packets reach while it stands still (``SenderReach``), once worked out.
    var senderReach: SenderReach?

    /// The deadline the world has a wake-up scheduled for (its generation is in
    /// ``World/timerGenerations``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var scheduledDeadline: Microseconds?

    /// Until when the device is transmitting, and when its last two transmissions started.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var transmittingUntil: Microseconds = .min
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var lastTransmitStart: Microseconds = .min
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var previousTransmitStart: Microseconds = .min

    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var statistics = DeviceStatistics()
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var capture = HCISnoopCapture()
    /// Time on the air, with the receiver open and powered, for the energy model.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var radioClock = RadioActivityClock()

    init(description: DeviceDescription, controller: any SimulatedController) {
        self.description = description
        self.controller = controller
        plan = description.route.map { RoutePlan(start: description.position, route: $0) }
        routeSpeedLimit = plan?.speedLimit
    }

    /// Where the device is at `time`.
    @inline(__always)
    func position(at time: Microseconds) -> Vector3 {
        if let carrier { return carrier.position(at: time) + carriedOffset }
        if let routeFix, routeFix.time == time { return routeFix.position }
        guard let plan else { return description.position }
        let position = plan.position(at: Double(time) / 1_000_000)
        routeFix = (time, position)
        return position
    }

    /// The horizontal direction the device moves in at `time` (its carrier's when carried),
    /// or `nil` when it has not moved sideways yet.
    func motionDirection(at time: Microseconds) -> Vector3? {
        if let carrier { return carrier.motionDirection(at: time) }
        return plan?.direction(at: Double(time) / 1_000_000)
    }

    /// The heading in degrees at `time`: the direction of motion when it follows its
    /// route and has moved, else the heading it was given.
    func headingDegrees(at time: Microseconds) -> Double {
        if description.headingFollowsRoute, let direction = motionDirection(at: time) {
            return atan2(direction.y, direction.x) * 180 / .pi
        }
        return description.headingDegrees
    }

    /// Whether the device transmitted at any moment of [start, end).
    func transmitted(between start: Microseconds, and end: Microseconds) -> Bool {
        (lastTransmitStart >= start && lastTransmitStart < end)
            || (previousTransmitStart >= start && previousTransmitStart < end)
            || (transmittingUntil > start && lastTransmitStart < start)
    }
}

/// An unordered pair of devices, the key of per-link faults.
/// One direction of a link: packets from `sender` to `receiver` (device indices).
struct DirectedLinkKey: Hashable {
    let sender: Int
    let receiver: Int
}

struct LinkKey: Hashable {
    let low: Int
    let high: Int

    init(_ a: Int, _ b: Int) {
        low = Swift.min(a, b)
        high = Swift.max(a, b)
    }
}
