import BLEHost
import BLETransport
import BLEWire
import BLEWorld
import Foundation
import Synchronization

/// Any BLETransport pipe as the host's ``HostTransport``: the two protocols ask the same.
struct HCIHostTransport: HostTransport {
    let base: any HCITransport
    var packets: AsyncThrowingStream<H4.Packet, any Error> { base.packets }
    func send(_ packet: H4.Packet) async throws { try await base.send(packet) }
    func close() async { await base.close() }
}

/// A btsnoop file (datalink 1002, HCI UART) of every packet through a host, written as
/// the packets pass.
final class HostSnoopFile: Sendable {
    private struct State {
        var file: FileHandle
        var writer = BTSnoop.Writer()
        var failed = false
    }

    private let state: Mutex<State>
    /// Unix time of the host's time zero, in microseconds.
    private let origin: Int64

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw CommandFailure("Cannot create the capture file \(path).")
        }
        state = Mutex(State(file: file))
        origin = Int64(Date().timeIntervalSince1970 * 1_000_000)
    }

    /// Appends one packet; a packet that cannot be framed is skipped.
    func write(_ record: HostPacketRecord) {
        state.withLock { state in
            guard !state.failed,
                  let bytes = try? state.writer.bytes(forH4Packet: record.packet.encoded(), direction: record.outgoing ? .sent : .received,
                                                      unixMicroseconds: origin + record.time) else { return }
            do {
                try state.file.write(contentsOf: bytes)
            } catch {
                state.failed = true
            }
        }
    }

    func close() {
        state.withLock { try? $0.file.close() }
    }
}

/// A ``Host`` on the controller an `--hci` spec names, with whatever keeps that controller
/// running (an embedded world and its runner).
final class OpenedHost: Sendable {
    let host: BLEHost.Host
    /// The public address the embedded world gave the host's device, if it is simulated.
    let simulatedAddress: BluetoothAddress?
    private let runner: WorldRunner?
    private let tasks: [Task<Void, Never>]
    private let snoop: HostSnoopFile?

    init(host: BLEHost.Host, simulatedAddress: BluetoothAddress?, runner: WorldRunner?, tasks: [Task<Void, Never>], snoop: HostSnoopFile?) {
        self.host = host
        self.simulatedAddress = simulatedAddress
        self.runner = runner
        self.tasks = tasks
        self.snoop = snoop
    }

    /// Closes the host, stops the world and finishes the capture.
    func close() async {
        await host.close()
        await runner?.stop()
        for task in tasks { task.cancel() }
        snoop?.close()
    }
}

/// Turns `--hci` into a running host (DESIGN.md, "The command line"): `sim` and
/// `sim:FILE.yaml` build an embedded world paced to the wall clock and attach the host to
/// its first `host: external` device; `tcp:`, `unix:`, `serial:` and `hci:` open the device.
enum HostAdapter {
    static func open(hci: String, seed: UInt64? = nil, snoopPath: String? = nil) async throws -> OpenedHost {
        let spec: HCITransportSpec
        do {
            spec = try HCITransportSpec(parsing: hci)
        } catch {
            throw CommandFailure("--hci \(hci) is not a controller (\(error)): use sim, sim:FILE.yaml, tcp:HOST:PORT, "
                                 + "unix:PATH, serial:DEV[@BAUD] or hci:N.")
        }
        let snoop = try snoopPath.map(HostSnoopFile.init(path:))
        var onPacket: (@Sendable (HostPacketRecord) -> Void)?
        if let snoop { onPacket = { record in snoop.write(record) } }
        switch spec {
        case .simulated:
            return try openWorld(try loadScenario("neighbourhood"), seed: seed, snoop: snoop, onPacket: onPacket)
        case let .simulatedScenario(path):
            return try openWorld(try loadScenario(path), seed: seed, snoop: snoop, onPacket: onPacket)
        case .tcp, .unix, .serial, .userChannel:
            let transport: any HCITransport
            do {
                transport = try await spec.open()
            } catch {
                snoop?.close()
                throw CommandFailure("\(error)")  // TransportError already names the spec: "could not connect to tcp:…"
            }
            let host = BLEHost.Host(transport: HCIHostTransport(base: transport), onPacket: onPacket)
            return OpenedHost(host: host, simulatedAddress: nil, runner: nil, tasks: [], snoop: snoop)
        }
    }

    private static func openWorld(
        _ loaded: Scenario, seed: UInt64?, snoop: HostSnoopFile?, onPacket: (@Sendable (HostPacketRecord) -> Void)?
    ) throws -> OpenedHost {
        var scenario = loaded
        if let seed { scenario.seed = seed }
        if !scenario.devices.contains(where: { $0.host == .external }) { scenario = scenario.addingExternalDevices(1) }
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio))
        let built: BuiltScenario
        do {
            built = try scenario.build(into: world)
        } catch {
            throw CommandFailure(error.description)
        }
        guard let local = built.externalDevices.first, let index = built.deviceIDs.firstIndex(of: local) else {
            throw CommandFailure("The scenario has no device for the host.")
        }
        let address = scenario.controllerPublicAddress(index: index)
        let (hostEnd, controllerEnd) = InProcessTransport.makePair()
        built.onExternalHostPacket = { device, packet in
            if device == local { controllerEnd.send(packet) }
        }
        built.onLog = { printError($0) }
        let runner = WorldRunner(world: world, speed: 1)
        let run = Task { _ = await runner.run() }
        let feed = Task {
            for await packet in controllerEnd.packets { runner.submit(packet, to: local) }
        }
        let host = BLEHost.Host(transport: HCIHostTransport(base: hostEnd), onPacket: onPacket)
        return OpenedHost(host: host, simulatedAddress: address, runner: runner, tasks: [run, feed], snoop: snoop)
    }
}
