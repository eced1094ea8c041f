import BLEWire

/// The byte pipe a ``Host`` talks to its controller through (Core 5.4, Vol 4, Part A: the
/// UART transport's H4 framing, whatever carries it).
///
/// BLEHost does not depend on BLETransport, so the runtime names only what it needs: any
/// transport (TCP, UNIX socket, serial port, HCI user channel, an in-process simulated
/// world) is adapted to this by the layer that opens it.
public protocol HostTransport: Sendable {
    /// Sends one packet to the controller; returns once the transport took it.
    func send(_ packet: H4.Packet) async throws
    /// Hands `packet` over without suspending when the transport can (an in-process
    /// world), returning `false` to have it go through ``send(_:)`` instead. The host
    /// calls it only while nothing it gave ``send(_:)`` is still on its way, so order holds.
    func sendImmediately(_ packet: H4.Packet) -> Bool
    /// Every packet from the controller, in order; finishes (or throws) when the transport
    /// closes. It is iterated once, by the ``Host``.
    var packets: AsyncThrowingStream<H4.Packet, any Error> { get }
    /// Packets in batches, for an in-process transport; when it is not `nil` the host reads
    /// this instead of ``packets`` (see ``HostPacketInbox``).
    var inbox: HostPacketInbox? { get }
    /// Closes the pipe; ``packets`` then finishes. Called once, by ``Host/close()``.
    func close() async
}

extension HostTransport {
    /// Nothing to close: for transports whose owner closes them.
    public func close() async {}
    /// Most transports write from a task of their own: everything goes through ``send(_:)``.
    public func sendImmediately(_ packet: H4.Packet) -> Bool { false }
    /// Most transports deliver through ``packets``.
    public var inbox: HostPacketInbox? { nil }
}

/// Why a ``Host`` request failed beyond what GAP or the driver report.
public enum HostError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``Host/start()`` was called twice.
    case alreadyStarted
    /// A request came before ``Host/start()`` succeeded.
    case notStarted
    /// The controller could not be brought up.
    case startupFailed(HCIDriverError)
    /// The transport closed or failed; nothing more can be sent or received.
    case transportClosed(String)
    /// A GAP request was refused or its procedure failed.
    case gap(GAPError)
    /// The central rejected this peripheral's connection parameter update request
    /// (Vol 3, Part A, §4.21), or did not answer it.
    case parameterUpdateRejected
    /// The connection went down while a request on it waited.
    case disconnected(handle: UInt16, reason: HCI.StatusCode)

    /// A sentence for logs and command-line output.
    public var description: String {
        switch self {
        case .alreadyStarted: return "the host is already started"
        case .notStarted: return "the host is not started"
        case let .startupFailed(error): return "the controller could not be started: \(error)"
        case let .transportClosed(why): return "the HCI transport closed: \(why)"
        case let .gap(error): return "\(error)"
        case .parameterUpdateRejected: return "the central rejected the connection parameter update"
        case let .disconnected(handle, reason):
            return "connection 0x\(String(handle, radix: 16)) went down (\(reason))"
        }
    }
}

/// One packet through a ``Host``, for snooping (btsnoop files, logs).
public struct HostPacketRecord: Sendable {
    /// The packet.
    public var packet: H4.Packet
    /// `true` for host-to-controller, `false` for controller-to-host.
    public var outgoing: Bool
    /// When it passed, in microseconds since the host was made.
    public var time: HostTime

    /// A record with every value given.
    public init(packet: H4.Packet, outgoing: Bool, time: HostTime) {
        self.packet = packet
        self.outgoing = outgoing
        self.time = time
    }
}

/// What an ``L2CAPLink`` of a ``Host`` reported for the layers above (ATT, SMP, channels).
public struct HostL2CAPEvent: Sendable {
    /// The connection handle.
    public var handle: UInt16
    /// What the link reported (never ``L2CAPOutput/sendFrame(_:)``: the host sends those).
    public var output: L2CAPOutput

    /// An event with every value given.
    public init(handle: UInt16, output: L2CAPOutput) {
        self.handle = handle
        self.output = output
    }
}
