import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

/// Real simulated controllers in a World, each driven by an `HCIDriver` with a `GAPCore`
/// on top: GAP's commands go to the driver, the driver's sends to the controller, every
/// driver output to GAP, and GAP's events are recorded per device. Both timers run on the
/// world's clock.
final class GAPWorld {
    let world: World
    private(set) var drivers: [HCIDriver] = []
    private(set) var gaps: [GAPCore] = []
    private(set) var events: [[GAPEvent]] = []
    private var driverTimer: [HostTime?] = []
    private var gapTimer: [HostTime?] = []

    init(seed: UInt64 = 1) {
        world = World(configuration: WorldConfiguration(seed: seed))
        world.onHostPacket = { [unowned self] device, packet in
            let produced = drivers[device.rawValue].receive(packet, at: world.now)
            carryOut(produced, device: device)
        }
    }

    /// Adds a device at `x` metres and starts its driver.
    @discardableResult
    func add(_ name: String, address: UInt64, x: Double = 0) -> DeviceID {
        let configuration = ControllerConfiguration(publicAddress: BluetoothAddress(address), seed: address)
        let device = world.addDevice(
            DeviceDescription(name: name, position: Vector3(x: x, y: 0, z: 0)), controller: Controller(configuration: configuration))
        drivers.append(HCIDriver())
        gaps.append(GAPCore())
        events.append([])
        driverTimer.append(nil)
        gapTimer.append(nil)
        carryOut(drivers[device.rawValue].start(at: world.now), device: device)
        return device
    }

    /// Adds devices and runs until every driver is ready.
    func ready() {
        run(for: 1_000_000) { drivers.allSatisfy(\.isReady) }
    }

    private func carryOut(_ produced: [HCIDriverOutput], device: DeviceID) {
        for output in produced {
            if case let .send(packet) = output {
                world.sendToController(packet, device: device)
            } else {
                apply(gaps[device.rawValue].handle(output, at: world.now), device: device)
            }
        }
        armTimers(device)
    }

    /// Carries out GAP outputs: commands to the driver, events to the record.
    func apply(_ outputs: [GAPOutput], device: DeviceID) {
        for output in outputs {
            switch output {
            case let .submit(command, token):
                carryOut(drivers[device.rawValue].submit(command, token: token, at: world.now), device: device)
            case let .event(event):
                events[device.rawValue].append(event)
            }
        }
        armTimers(device)
    }

    private func armTimers(_ device: DeviceID) {
        let index = device.rawValue
        if let deadline = drivers[index].nextDeadline, driverTimer[index] != deadline {
            driverTimer[index] = deadline
            world.schedule(at: deadline) { [unowned self] world in
                driverTimer[index] = nil
                carryOut(drivers[index].timerFired(at: world.now), device: device)
            }
        }
        if let deadline = gaps[index].nextDeadline, gapTimer[index] != deadline {
            gapTimer[index] = deadline
            world.schedule(at: max(deadline, world.now)) { [unowned self] world in
                gapTimer[index] = nil
                apply(gaps[index].timerFired(at: world.now), device: device)
            }
        }
    }

    /// Runs one GAP request on `device` and carries out what it returns.
    func request(_ device: DeviceID, _ body: (inout GAPCore, HostTime) throws(GAPError) -> [GAPOutput]) throws(GAPError) {
        let outputs = try body(&gaps[device.rawValue], world.now)
        apply(outputs, device: device)
    }

    /// Runs the world until `done` holds or `limit` microseconds of virtual time pass.
    @discardableResult
    func run(for limit: Microseconds, until done: () -> Bool) -> Bool {
        let deadline = world.now + limit
        while !done() {
            guard let next = world.nextEventTime, next <= deadline else { return done() }
            world.runNextEvent()
        }
        return true
    }

    /// Runs the world for `duration` microseconds.
    func run(for duration: Microseconds) {
        let deadline = world.now + duration
        while let next = world.nextEventTime, next <= deadline { world.runNextEvent() }
    }

    func gap(_ device: DeviceID) -> GAPCore { gaps[device.rawValue] }
    func recorded(_ device: DeviceID) -> [GAPEvent] { events[device.rawValue] }

    /// The advertisements `device` reported from `address`, in order.
    func advertisements(_ device: DeviceID, from address: UInt64) -> [GAPAdvertisement] {
        recorded(device).compactMap {
            if case let .advertisement(advertisement) = $0, advertisement.address.value == address { return advertisement }
            return nil
        }
    }

    /// The connections `device` reported up, in order.
    func connected(_ device: DeviceID) -> [GAPConnection] {
        recorded(device).compactMap {
            if case let .connected(link) = $0 { return link }
            return nil
        }
    }

    /// The disconnections `device` reported, in order.
    func disconnections(_ device: DeviceID) -> [(handle: UInt16, reason: HCI.StatusCode)] {
        recorded(device).compactMap {
            if case let .disconnected(handle, reason) = $0 { return (handle, reason) }
            return nil
        }
    }

    /// The failed connection attempts `device` reported, in order.
    func connectionFailures(_ device: DeviceID) -> [(peer: BluetoothAddress, error: GAPError)] {
        recorded(device).compactMap {
            if case let .connectionFailed(peer, error) = $0 { return (peer, error) }
            return nil
        }
    }

    func has(_ device: DeviceID, _ event: GAPEvent) -> Bool { recorded(device).contains(event) }
}
