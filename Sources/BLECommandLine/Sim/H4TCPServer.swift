import BLEAdapter
import BLEController
import BLEHost
import BLEWire
import BLEWorld
import NIOCore
import NIOPosix
import Synchronization

/// One served device: the TCP client currently attached as its host (at most one) and the
/// way packets reach it from the world.
final class ServedDevice: Sendable {
    let name: String
    let address: BluetoothAddress
    let id: DeviceID
    private let client = Mutex<(any Channel)?>(nil)
    /// The btsnoop file of the packets crossing this device's TCP link, if `--snoop` asked.
    private let snoop: SnoopFile?
    /// The snoop file's time zero: record times are measured from it on the monotonic wall
    /// clock. The wall-clock edge: the packets cross a TCP link to a host in another
    /// process, in real time.
    private let snoopOrigin = ContinuousClock.now

    init(name: String, address: BluetoothAddress, id: DeviceID, snoop: SnoopFile? = nil) {
        self.name = name
        self.address = address
        self.id = id
        self.snoop = snoop
    }

    /// Records one packet that crossed the TCP link: `fromHost` for commands and ACL data
    /// the host sent, otherwise what the controller sent the host.
    func record(_ packet: H4.Packet, fromHost: Bool) {
        guard let snoop else { return }
        // The wall-clock edge: when the packet crossed the TCP link.
        let elapsed = ContinuousClock.now - snoopOrigin
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        snoop.write(HostPacketRecord(packet: packet, outgoing: fromHost, time: micros))
    }

    /// Finishes the snoop file; later packets are not recorded.
    func closeSnoop() { snoop?.close() }

    /// A device name as a file name a shell takes without quotes: spaces, path separators
    /// and control characters become "_" ("Polar H10 A1B2C3D4" → `Polar_H10_A1B2C3D4`).
    static func fileName(_ name: String) -> String {
        String(name.map { $0 == "/" || $0 == "\\" || $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true ? "_" : $0 })
    }

    /// Makes `channel` the device's host unless another is attached.
    func attach(_ channel: any Channel) -> Bool {
        client.withLock { current in
            guard current == nil else { return false }
            current = channel
            return true
        }
    }

    /// Forgets `channel`; true if it was the attached host.
    func detach(_ channel: any Channel) -> Bool {
        client.withLock { current in
            guard let attached = current, attached === channel else { return false }
            current = nil
            return true
        }
    }

    /// Writes a controller-to-host packet to the attached host; dropped when none is.
    func send(_ packet: H4.Packet) {
        guard let channel = client.withLock({ $0 }) else { return }
        record(packet, fromHost: false)
        channel.writeAndFlush(ByteBuffer(bytes: packet.encoded()), promise: nil)
    }
}

/// Reads H4 from one TCP client, frames it with `H4.StreamDecoder` and hands each packet to
/// the world through the runner. A client that breaks the framing (an unknown packet
/// indicator leaves no way to find the next packet) is disconnected. When the attached
/// client leaves, the device's controller is power-cycled, so the next host finds it as
/// after a reset and nothing the old host set up keeps running.
final class H4ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let device: ServedDevice
    private let runner: WorldRunner
    private var decoder = H4.StreamDecoder()
    private var attached = false

    init(device: ServedDevice, runner: WorldRunner) {
        self.device = device
        self.runner = runner
    }

    func channelActive(context: ChannelHandlerContext) {
        attached = device.attach(context.channel)
        if !attached {
            printError("Refused a second host for \(device.name): one client at a time; disconnect the other first.")
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard attached else { return }
        let buffer = unwrapInboundIn(data)
        decoder.append(buffer.readableBytesView)
        while true {
            do {
                guard let packet = try decoder.next() else { break }
                if case .command = packet {
                    device.record(packet, fromHost: true)
                    runner.submit(packet, to: device.id)
                } else if case .acl = packet {
                    device.record(packet, fromHost: true)
                    runner.submit(packet, to: device.id)
                }
            } catch {
                if case .unknownCode = error.reason {
                    printError("Closed the host connection of \(device.name): \(error); send H4 packets (01 command, 02 ACL).")
                    context.close(promise: nil)
                    return
                }
                // A well-framed but invalid packet is skipped, as a controller would ignore it.
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if attached, device.detach(context.channel) {
            let runner = self.runner
            let id = device.id
            Task { await runner.withWorld { world in world.powerCycle(id) } }
        }
        attached = false
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Listens on 127.0.0.1 for each served device; port 0 picks a free one.
enum H4TCPServer {
    static func listen(device: ServedDevice, runner: WorldRunner, port: Int,
                       group: MultiThreadedEventLoopGroup) async throws -> any Channel {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(H4ConnectionHandler(device: device, runner: runner))
                }
            }
        return try await bootstrap.bind(host: "127.0.0.1", port: port).get()
    }
}
