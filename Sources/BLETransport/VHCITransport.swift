import BLEWire
import Glibc

/// The controller end of a Linux adapter made with `/dev/vhci` (see ``VHCI``): the kernel's
/// host stack sends this transport its commands and data, and takes from it the events and
/// data of whatever controller the program relays, as adapter `hciN`.
///
/// ``packets`` are what the kernel sends (commands, ACL, ISO, synchronous data); ``send(_:)``
/// takes what a controller sends (events and data). A packet the kernel refuses because the
/// adapter is down (`ENXIO`, e.g. an advertising report after `btmgmt power off`) fails only
/// that send: the adapter lives exactly as long as the device stays open.
public final class VHCITransport: HCITransport {
    /// Where the kernel's misc device lives.
    public static let defaultPath = "/dev/vhci"
    /// How long ``open(path:request:timeout:)`` waits for the kernel to answer the create
    /// request by default; it answers at once.
    public static let defaultCreateTimeout: Duration = .seconds(5)

    /// The adapter the kernel created.
    public let response: VHCI.CreateResponse
    /// The transport as errors name it, e.g. `/dev/vhci (hci0)`.
    public let label: String
    private let channel: H4DescriptorChannel

    /// Runs the bridge protocol over `descriptor`, an open `/dev/vhci` whose adapter has been
    /// created (see ``VHCI/CreateResponse``); the transport owns it from now on.
    public init(adoptingDescriptor descriptor: Int32, response: VHCI.CreateResponse, path: String = defaultPath) throws(TransportError) {
        self.response = response
        let label = "\(path) (\(response.interfaceName))"
        self.label = label
        channel = try H4DescriptorChannel(
            descriptor: descriptor,
            options: .init(
                label: label, framing: .datagram, isSocket: false,
                decodeMessage: { octets throws(TransportError) in
                    do {
                        return try VHCI.decodeFromKernel(octets)
                    } catch {
                        throw TransportError("the kernel sent \(error) on \(label); the bridge stops, since the kernel never does this")
                    }
                },
                perPacketWriteErrors: [ENXIO]
            )
        )
    }

    deinit {
        channel.requestClose()
    }

    /// Opens `path`, asks the kernel for an adapter (`request`, a primary controller by
    /// default) and waits at most `timeout` for its answer. Needs read and write access to
    /// `/dev/vhci`: root, or a udev rule that grants it.
    public static func open(
        path: String = defaultPath,
        request: VHCI.CreateRequest = .primary,
        timeout: Duration = defaultCreateTimeout
    ) async throws(TransportError) -> VHCITransport {
        let (descriptor, response) = try await IOThread.run(name: "ble-vhci-create") { () -> Result<(Int32, VHCI.CreateResponse), TransportError> in
            do throws(TransportError) {
                return .success(try create(path: path, request: request, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        return try VHCITransport(adoptingDescriptor: descriptor, response: response, path: path)
    }

    /// The blocking create handshake: open, write `FF <opcode>`, read `FF <opcode> <index>`.
    private static func create(path: String, request: VHCI.CreateRequest, timeout: Duration) throws(TransportError) -> (Int32, VHCI.CreateResponse) {
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw openError(path: path, errno: SystemError.current) }
        var success = false
        defer { if !success { Glibc.close(descriptor) } }
        let octets = request.encoded
        let written = octets.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        // EBADFD: the kernel's one-second open timeout already created a primary adapter,
        // whose answer is waiting to be read all the same.
        if written < 0, SystemError.current != EBADFD {
            let code = SystemError.current
            throw TransportError("\(path) refused the request to create an adapter: \(SystemError.phrase(code))", errno: code)
        }
        var waiter = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var ready: Int32
        repeat {
            ready = poll(&waiter, 1, milliseconds)
        } while ready < 0 && SystemError.current == EINTR
        guard ready > 0 else {
            throw TransportError("the kernel did not answer the request to create an adapter on \(path) within \(timeout)")
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else {
            let code = SystemError.current
            throw TransportError("reading the kernel's answer from \(path) failed: \(SystemError.phrase(code))", errno: code)
        }
        do {
            let response = try VHCI.CreateResponse(decoding: Array(buffer[0 ..< count]))
            success = true
            return (descriptor, response)
        } catch {
            throw TransportError("\(path) answered the request to create an adapter with \(error)")
        }
    }

    /// The sentence for a failed open of `path` with `errno`, saying what to do.
    public static func openError(path: String, errno code: Int32) -> TransportError {
        switch code {
        case ENOENT:
            return TransportError(
                "\(path) does not exist: load the kernel's virtual HCI driver (sudo modprobe hci_vhci); a kernel without Bluetooth has none",
                errno: code
            )
        case ENODEV, ENXIO:
            return TransportError("\(path) has no driver behind it: load it with sudo modprobe hci_vhci", errno: code)
        case EACCES, EPERM:
            return TransportError(
                "\(path) is not open to this user: run with sudo, or let a udev rule give your group read and write access to it",
                errno: code
            )
        default:
            return TransportError("could not open \(path): \(SystemError.phrase(code))", errno: code)
        }
    }

    /// Hands one packet from the controller to the kernel. A command is refused (only a
    /// host sends those); a packet the kernel refuses because the adapter is down throws
    /// with `ENXIO` and the transport goes on.
    public func send(_ packet: H4.Packet) async throws(TransportError) {
        do {
            try VHCI.validateFromController(packet)
        } catch {
            throw TransportError("the controller sent \(error); it is not passed to \(label)")
        }
        try await channel.send(packet)
    }

    /// The packets the kernel's host sends its controller.
    public var packets: AsyncThrowingStream<H4.Packet, any Error> { channel.packets }

    /// Closes `/dev/vhci`, which unregisters the adapter; ``packets`` has finished when this
    /// returns.
    public func close() async {
        await channel.close()
    }
}
