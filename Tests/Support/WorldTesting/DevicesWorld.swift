import BLE
import BLEController
import BLEHost
import BLEWorld
import Foundation
import OpenCoreBluetooth
import SimulatedTesting

/// The seconds of ``testClock`` a test of several devices waits for what should take
/// milliseconds; only a failing test waits this long.
public let devicesWorldPatience: Double = 60

/// A transport into one device of a world run by a ``WorldRunner``.
struct DevicesWorldTransport: HostTransport {
    let runner: WorldRunner
    let device: DeviceID
    let packets: AsyncThrowingStream<H4.Packet, any Error>

    func send(_ packet: H4.Packet) async throws {
        runner.submit(packet, to: device)
    }
}

/// Devices of ours (front door and host) in one simulated world, each registered with
/// OpenCoreBluetooth under its own name, for managers whose options name it. In a simulated
/// test the world joins the test's simulation; otherwise it runs one of its own, paced at 50×.
public struct DevicesWorld: Sendable {
    let runner: WorldRunner
    let task: Task<Void, Never>
    /// The devices, in the order made.
    public let devices: [BLEDevice]
    /// The controller name of each device (``OpenCoreBluetoothControllerOptionKey``).
    public let names: [String]
    /// Each device's public address.
    public let addresses: [BluetoothAddress]

    /// A world of `count` devices on an ideal radio, their hosts at ATT_MTU `attMTU`.
    /// - Parameters:
    ///   - seed: the world's seed (its random choices, such as advertising delays); by
    ///     default the empty scenario's.
    ///   - attMTU: the ATT receive MTU each host offers (23, the smallest, by default).
    ///   - onPacket: sees every HCI packet of each device's host, with the device's index,
    ///     for a test that checks what the host asked of its controller.
    public static func make(devices count: Int, seed: UInt64? = nil, attMTU: Int = 23,
                            onPacket: (@Sendable (Int, HostPacketRecord) -> Void)? = nil) async throws -> DevicesWorld {
        var scenario = Scenario(name: "empty").addingExternalDevices(count)
        scenario.timing = .ideal
        if let seed { scenario.seed = seed }
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio))
        let built = try scenario.build(into: world)
        var outputs: [DeviceID: AsyncThrowingStream<H4.Packet, any Error>.Continuation] = [:]
        var streams: [(DeviceID, AsyncThrowingStream<H4.Packet, any Error>)] = []
        var addresses: [BluetoothAddress] = []
        for id in built.externalDevices {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4.Packet.self, bufferingPolicy: .unbounded)
            outputs[id] = continuation
            streams.append((id, stream))
            if let index = built.deviceIDs.firstIndex(of: id) { addresses.append(scenario.controllerPublicAddress(index: index)) }
        }
        let sinks = outputs
        built.onExternalHostPacket = { id, packet in sinks[id]?.yield(packet) }
        // Fast simulated time: the ideal world's links need no host pacing.
        // In a `.simulated` test the world joins the test's simulation; otherwise it paces
        // one of its own.
        let runner: WorldRunner
        if let simulation = Simulation.current {
            runner = WorldRunner(world: world, simulation: simulation)
        } else {
            runner = try WorldRunner(world: world, speed: 50)
        }
        let task = Task(executorPreference: runner.simulation) { _ = await runner.run() }
        var devices: [BLEDevice] = []
        var names: [String] = []
        let prefix = UUID().uuidString
        for (id, stream) in streams {
            // By default the smallest ATT_MTU (23), so values over 22 octets are read in pieces with offsets.
            let host = BLEHost.Host(transport: DevicesWorldTransport(runner: runner, device: id, packets: stream),
                                    configuration: HCIDriverConfiguration(commandTimeout: 60_000_000),
                                    att: ATTBearerConfiguration(receiveMTU: attMTU),
                                    onPacket: packetHook(onPacket, device: devices.count))
            let device = try await BLEDevice.open(host: host)
            let name = "\(prefix)-\(devices.count)"
            OpenCoreBluetooth.use(device, as: name)
            devices.append(device)
            names.append(name)
        }
        return DevicesWorld(runner: runner, task: task, devices: devices, names: names, addresses: addresses)
    }

    /// `hook` for the host of device `index`.
    private static func packetHook(_ hook: (@Sendable (Int, HostPacketRecord) -> Void)?, device index: Int)
        -> (@Sendable (HostPacketRecord) -> Void)? {
        guard let hook else { return nil }
        return { record in hook(index, record) }
    }

    /// Options naming device `index`'s controller.
    public func options(_ index: Int) -> [String: Any] { [OpenCoreBluetoothControllerOptionKey: names[index]] }

    /// Closes every device and stops the world.
    public func close() async {
        for device in devices { await device.close() }
        await runner.stop()
        task.cancel()
    }
}

/// Waits on the main actor until `condition` holds, looking again every 5 ms of
/// ``testClock`` (simulated time in a simulated test, so each look is a step of the
/// simulation's timeline), for at most ``devicesWorldPatience`` seconds of it.
@MainActor
public func waitFor(_ what: String, _ condition: @MainActor () -> Bool) async throws {
    let clock = testClock
    let deadline = clock.microseconds + Int64(devicesWorldPatience * 1_000_000)
    while !condition() {
        guard clock.microseconds < deadline else { throw DevicesWorldTimeout(what: what) }
        // The delegate calls come on the main queue in between.
        try await clock.sleep(seconds: 0.005)
    }
}

/// A wait that ran out.
public struct DevicesWorldTimeout: Error, CustomStringConvertible {
    /// What was awaited.
    public let what: String
    /// "timed out waiting for …".
    public var description: String { "timed out waiting for \(what)" }

    /// A timeout waiting for `what`.
    public init(what: String) { self.what = what }
}
