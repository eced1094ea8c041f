import ArgumentParser
import BLEAdapter
import BLEController
import BLEDashboard
import BLETransport
import BLEWire
import BLEWorld
import Foundation
import NIOCore
import NIOPosix

/// `ble sim serve`: a world paced in real time whose `host: external` devices are served
/// as H4 over TCP on 127.0.0.1, one port per device, so any host (ours, Bumble, BlueZ
/// through a bridge) drives their controllers as it would a chip.
struct SimServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the external devices of a world as H4 over TCP on 127.0.0.1.",
        discussion: """
            Prints one line READY {"ports": [...], "devices": [...]} once every port listens (with --watch-port, also \
            "watch": PORT), then runs \
            until killed. Without a scenario the world is empty apart from the --devices extra devices.
            """
    )

    @Argument(help: "A scenario file (.yaml) or a built-in scenario; default: an empty world.")
    var scenario: String?

    @Option(help: "Extra devices with an external host, named host-1, host-2, …")
    var devices: Int?

    @Option(name: .customLong("tcp-base-port"), help: "The first device's port; the others follow. 0 picks free ports.")
    var tcpBasePort: Int = 9100

    @Option(help: "Simulated seconds per wall-clock second. A world that cannot keep it (a loaded machine) runs as fast as it can and still answers its hosts at once.")
    var speed: Double = 1

    @Option(help: "The world's seed (default: the scenario's).")
    var seed: UInt64?

    @Option(help: "Write DIR/<device>.btsnoop for every served device: the HCI packets crossing its TCP link, as they pass.")
    var snoop: String?

    @OptionGroup var faults: SimFaultOptions

    @Option(name: .customLong("watch-port"),
            help: "Serve the world's state on 127.0.0.1:PORT: a page over it, and at /ws the stream `ble dashboard --attach` reads (0 picks a free port).")
    var watchPort: Int?

    @Flag(inversion: .prefixedNo, help: "The controllers claim Bluetooth 5's extended advertising, scanning and connecting in their features and Supported Commands (on by default). --no-extended keeps them to the legacy commands, for hosts that mix the two families, which a claiming controller refuses (Core 5.4 Vol 4 Part E §3.1.1).")
    var extended = true

    @Flag(help: "Attach every served device to this machine's Linux kernel through /dev/vhci (an adapter hciN each) instead of serving it over TCP.")
    var vhci = false

    func validate() throws {
        if let scenario, let problem = Adapter.scenarioProblem(scenario) { throw ValidationError(problem) }
        if let devices, !(0 ... 64).contains(devices) {
            throw ValidationError("--devices must be between 0 and 64.")
        }
        guard (0 ... 65_535).contains(tcpBasePort) else {
            throw ValidationError("--tcp-base-port must be a TCP port (0 to 65535).")
        }
        if let watchPort, !(0 ... 65_535).contains(watchPort) {
            throw ValidationError("--watch-port must be a TCP port (0 to 65535; 0 picks a free one).")
        }
        guard speed.isFinite, speed > 0 else {
            throw ValidationError("--speed must be a positive number of simulated seconds per second.")
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        var scenario = try self.scenario.map(loadScenario) ?? Scenario(name: "empty")
        if let seed { scenario.seed = seed }
        scenario = scenario.addingExternalDevices(devices ?? (self.scenario == nil ? 2 : 0))
        let world = World(configuration: scenario.worldConfiguration)
        let built: BuiltScenario
        do {
            built = try scenario.build(into: world) { [extended] configuration in
                var configuration = configuration
                configuration.claimsExtendedAdvertising = extended
                return Controller(configuration: configuration)
            }
        } catch {
            throw CommandFailure(error.description)
        }
        let snoopDirectory = try snoop.map(Self.makeDirectory)
        var served: [ServedDevice] = []
        for id in built.externalDevices {
            guard let device = built.device(id) else { continue }
            let file = try snoopDirectory.map { directory in
                try Self.snoopFile(directory + "/" + ServedDevice.fileName(device.name) + ".btsnoop")
            }
            served.append(ServedDevice(name: device.name, address: device.address, id: id, snoop: file))
        }
        guard !served.isEmpty || watchPort != nil else {
            throw CommandFailure("Nothing to serve: the scenario has no device with host: external; "
                                 + "add one, pass --devices N, or watch the world alone with --watch-port.")
        }
        if tcpBasePort != 0, tcpBasePort + served.count - 1 > 65_535 {
            throw CommandFailure("--tcp-base-port \(tcpBasePort) leaves no room for \(served.count) ports; choose a lower one.")
        }
        let byID = Dictionary(uniqueKeysWithValues: served.map { ($0.id, $0) })
        if let drop = faults.install(among: served.map(\.id), in: world) {
            built.onExternalHostPacket = { id, packet in
                drop.observe(packet, to: id, in: world)
                byID[id]?.send(packet)
            }
        } else {
            built.onExternalHostPacket = { id, packet in byID[id]?.send(packet) }
        }
        built.onLog = { printError($0) }
        let kernels = vhci ? try await KernelAttachedDevice.attach(served, path: VHCITransport.defaultPath) : [:]
        if !kernels.isEmpty, let forward = built.onExternalHostPacket {
            built.onExternalHostPacket = { id, packet in
                forward(id, packet)
                kernels[id]?.deliver(packet)
            }
        }

        // Installed before the world runs, so that it sees every reception from the start.
        let watch = try watchPort.map { _ in try Self.watch(scenario, built: built, world: world) }
        let runner: WorldRunner
        do {
            runner = try WorldRunner(world: world, speed: speed)
        } catch {
            throw CommandFailure(error.description)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var ports: [Int] = []
        var channels: [any Channel] = []
        for attachment in kernels.values { attachment.start(runner: runner) }
        for (index, device) in served.enumerated() where !vhci {
            let port = tcpBasePort == 0 ? 0 : tcpBasePort + index
            do {
                let channel = try await H4TCPServer.listen(device: device, runner: runner, port: port, group: group)
                channels.append(channel)
                ports.append(channel.localAddress?.port ?? port)
            } catch {
                for channel in channels { try? await channel.close() }
                try? await group.shutdownGracefully()
                throw CommandFailure("Cannot listen on 127.0.0.1:\(port) for \(device.name): \(Self.reason(error)); "
                                     + "pick another --tcp-base-port or stop what uses it.")
            }
        }
        let devicesJSON = served.enumerated().map { index, device in
            let endpoint: (String, SimulationLog.JSON) = vhci
                ? ("interface", .string(kernels[device.id]?.kernel.response.interfaceName ?? ""))
                : ("port", .integer(Int64(ports[index])))
            return SimulationLog.JSON.object([("name", .string(device.name)), ("address", .string(device.address.description)),
                                              ("addressType", .string(device.address.kind == .random ? "random" : "public")), endpoint])
        }
        var fields: [(String, SimulationLog.JSON)] = [("ports", .array(ports.map { .integer(Int64($0)) })), ("devices", .array(devicesJSON))]
        var watcher: Task<Void, Never>?
        if let watch, let watchPort {
            let (task, port) = try await WatchServing.start(watch, port: watchPort, speed: speed)
            watcher = task
            fields.append(("watch", .integer(Int64(port))))
        }
        let ready = SimulationLog.JSON.object(fields)
        // Written straight to the file descriptor, not through stdio's buffer, so a parent
        // process reading a pipe sees the line at once.
        FileHandle.standardOutput.write(Data(("READY " + ready.text + "\n").utf8))
        await runner.run()
        watcher?.cancel()
        await watcher?.value
        for channel in channels { try? await channel.close() }
        try? await group.shutdownGracefully()
        for device in served { device.closeSnoop() }
    }

    /// The watch over the world for `--watch-port`, as a one-sentence failure if the scenario cannot be drawn.
    private static func watch(_ scenario: Scenario, built: BuiltScenario, world: World) throws -> WorldWatch {
        do {
            return try WorldWatch(scenario: scenario, built: built, world: world)
        } catch {
            throw CommandFailure("Cannot watch the world: \(error.description).")
        }
    }

    /// Why a socket call failed, in the system's words ("Address already in use"), not
    /// NIO's description of the call (`bind(descriptor:ptr:bytes:): … (errno: 98)`).
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }

    /// Creates the `--snoop` directory if needed; returns its path.
    private static func makeDirectory(_ path: String) throws -> String {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("Cannot create the snoop directory \(path): \(error.clause); choose a writable path.")
        }
        return path
    }

    /// Creates one device's capture file, as a one-sentence failure if it cannot.
    private static func snoopFile(_ path: String) throws -> SnoopFile {
        do {
            return try SnoopFile(path: path)
        } catch let error as AdapterError {
            throw CommandFailure(error.description)
        }
    }
}
