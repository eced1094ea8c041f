import BLEWire
import Glibc

/// A Linux Bluetooth adapter driven directly through the HCI user channel (`hci:N`): the
/// kernel hands the whole controller to this process, bypassing its own host stack, and
/// the socket carries one H4 packet per message in each direction (the first octet is
/// the H4 packet indicator, Core 5.4, Vol 4, Part A, §2).
///
/// The message I/O is shared with any message-preserving socket, so
/// ``init(adoptingDescriptor:label:)`` also runs it over e.g. `SOCK_SEQPACKET`.
public final class UserChannelTransport: HCITransport {
    /// `AF_BLUETOOTH`, not exported by Glibc (it lives in BlueZ's headers).
    static let addressFamilyBluetooth: Int32 = 31
    /// `BTPROTO_HCI`.
    static let protocolHCI: Int32 = 1
    /// `HCI_CHANNEL_USER`: exclusive raw access to one adapter.
    static let channelUser: UInt16 = 1

    /// The transport as the user names it, e.g. `hci:0`.
    public let label: String
    private let channel: H4DescriptorChannel

    /// Runs packet-per-message H4 over `descriptor`, a connected message-preserving socket
    /// which the transport now owns (it is closed if this throws).
    public init(adoptingDescriptor descriptor: Int32, label: String) throws(TransportError) {
        self.label = label
        channel = try H4DescriptorChannel(
            descriptor: descriptor,
            options: .init(label: label, framing: .datagram, isSocket: true)
        )
    }

    deinit {
        channel.requestClose()
    }

    /// Opens adapter `index` on the HCI user channel. The adapter must be powered off
    /// for the kernel's own stack, and the process needs `CAP_NET_ADMIN`. Once bound, the
    /// kernel's stack lets the adapter go (it leaves the management index list) until the
    /// socket closes; bluetoothd then takes it back, and powers it on with AutoEnable.
    public static func open(index: UInt16) throws(TransportError) -> UserChannelTransport {
        let label = HCITransportSpec.userChannel(index: index).description
        let descriptor = socket(addressFamilyBluetooth, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), protocolHCI)
        guard descriptor >= 0 else {
            throw openError(index: index, errno: SystemError.current)
        }
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev;
        // unsigned short hci_channel; }: three native-endian 16-bit fields.
        var address: (UInt16, UInt16, UInt16) = (UInt16(addressFamilyBluetooth), index, channelUser)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<(UInt16, UInt16, UInt16)>.size))
            }
        }
        guard bound == 0 else {
            let code = SystemError.current
            Glibc.close(descriptor)
            // Busy: ask the kernel whether its own stack has the adapter, to say what to do.
            let managed = code == EBUSY ? KernelManagement.managedIndices().map { $0.contains(index) } : nil
            throw openError(index: index, errno: code, managedByKernel: managed)
        }
        return try UserChannelTransport(adoptingDescriptor: descriptor, label: label)
    }

    /// The sentence for a failed open of `hci:index` with `errno`, saying what to do. A busy
    /// adapter (`EBUSY`: it is up) is either powered on by the kernel's own host stack or open
    /// on the user channel by another program; `managedByKernel` says which when known (the
    /// kernel's management interface lists the adapters its stack manages).
    public static func openError(index: UInt16, errno code: Int32, managedByKernel: Bool? = nil) -> TransportError {
        let label = HCITransportSpec.userChannel(index: index).description
        let powerOff = "`sudo btmgmt --index \(index) power off`"
        let message: String
        switch (code, managedByKernel) {
        case (EAFNOSUPPORT, _):
            message = "this kernel has no Bluetooth support (AF_BLUETOOTH), so \(label) cannot be opened"
        case (EPERM, _), (EACCES, _):
            message = "\(label) needs CAP_NET_ADMIN: run with sudo, or give the executable the capability (sudo setcap cap_net_admin+ep PATH)"
        case (EBUSY, true?):
            message = "\(label) is powered on for the kernel's Bluetooth stack (bluetoothd): power it off first with \(powerOff), "
                + "or stop bluetoothd"
        case (EBUSY, false?), (EUSERS, _):
            message = "\(label) is already open on the HCI user channel by another program: stop that program first"
        case (EBUSY, nil):
            message = "\(label) is in use: power it off for bluetoothd with \(powerOff), or stop the program that has it open "
                + "on the HCI user channel"
        case (ENODEV, _):
            message = "no adapter \(label): /sys/class/bluetooth lists this kernel's adapters"
        case (ERFKILL, _):
            message = "\(label) is blocked by rfkill: `rfkill unblock bluetooth`"
        default:
            message = "could not open \(label): \(SystemError.phrase(code))"
        }
        return TransportError(message, errno: code)
    }

    /// Writes one packet, in one message, after all earlier ones.
    public func send(_ packet: H4.Packet) async throws(TransportError) {
        try await channel.send(packet)
    }

    /// The packets from the controller, one per message.
    public var packets: AsyncThrowingStream<H4.Packet, any Error> { channel.packets }

    /// Closes the socket, giving the adapter back; ``packets`` has finished when this
    /// returns.
    public func close() async {
        await channel.close()
    }
}
