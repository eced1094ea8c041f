import BLEWire
import Glibc

/// H4 over a serial line (Core 5.4, Vol 4, Part A: the UART transport), e.g. a USB dongle
/// running HCI UART firmware. The tty is put in raw mode (`cfmakeraw`: no echo, no line
/// editing, no signals, no newline translation, 8 data bits) with the receiver on, modem
/// lines ignored (`CLOCAL | CREAD`) and, unless asked for, no RTS/CTS flow control; then
/// the framing is the same as ``StreamTransport``'s.
///
/// A hang-up (the adapter unplugged, the other end of a pseudo-terminal closed) finishes
/// ``packets``.
public final class SerialTransport: HCITransport {
    /// The speeds Linux can set through `cfsetspeed`, in bits per second.
    public static let supportedBaudRates = speeds.map(\.rate)

    private static let speeds: [(rate: Int, constant: speed_t)] = [
        (1200, speed_t(B1200)), (2400, speed_t(B2400)), (4800, speed_t(B4800)),
        (9600, speed_t(B9600)), (19200, speed_t(B19200)), (38400, speed_t(B38400)),
        (57600, speed_t(B57600)), (115_200, speed_t(B115200)), (230_400, speed_t(B230400)),
        (460_800, speed_t(B460800)), (500_000, speed_t(B500000)), (576_000, speed_t(B576000)),
        (921_600, speed_t(B921600)), (1_000_000, speed_t(B1000000)), (1_152_000, speed_t(B1152000)),
        (1_500_000, speed_t(B1500000)), (2_000_000, speed_t(B2000000)), (2_500_000, speed_t(B2500000)),
        (3_000_000, speed_t(B3000000)), (3_500_000, speed_t(B3500000)), (4_000_000, speed_t(B4000000)),
    ]

    /// The transport as the user names it, e.g. `serial:/dev/ttyACM0@115200`.
    public let label: String
    private let channel: H4DescriptorChannel

    private init(descriptor: Int32, label: String) throws(TransportError) {
        self.label = label
        channel = try H4DescriptorChannel(
            descriptor: descriptor,
            options: .init(label: label, framing: .byteStream, isSocket: false, readErrorEIOIsHangUp: true)
        )
    }

    deinit {
        channel.requestClose()
    }

    /// Opens the tty at `device`, configures it (raw, `baudRate`, `CLOCAL | CREAD`,
    /// RTS/CTS only if `flowControl`), drops anything already buffered and starts H4.
    public static func open(
        device: String,
        baudRate: Int = HCITransportSpec.defaultBaudRate,
        flowControl: Bool = false
    ) throws(TransportError) -> SerialTransport {
        let label = HCITransportSpec.serial(device: device, baudRate: baudRate).description
        guard let speed = speeds.first(where: { $0.rate == baudRate })?.constant else {
            let rates = supportedBaudRates.map(String.init).joined(separator: ", ")
            throw TransportError("\(label): \(baudRate) baud is not a speed Linux can set; use one of \(rates)")
        }
        // O_NONBLOCK so that opening does not wait for carrier detect; O_NOCTTY so the
        // device never becomes our controlling terminal.
        let descriptor = Glibc.open(device, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw openError(device: device, label: label, code: SystemError.current)
        }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            let code = SystemError.current
            Glibc.close(descriptor)
            if code == ENOTTY {
                throw TransportError("\(label): \(device) is not a serial device", errno: code)
            }
            throw TransportError("\(label): could not read the line settings: \(SystemError.phrase(code))", errno: code)
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        if flowControl {
            settings.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            settings.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        guard cfsetspeed(&settings, speed) == 0, tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            let code = SystemError.current
            Glibc.close(descriptor)
            throw TransportError("\(label): could not configure the line: \(SystemError.phrase(code))", errno: code)
        }
        // Octets that arrived before we configured the line belong to nobody's packet.
        _ = tcflush(descriptor, TCIOFLUSH)
        return try SerialTransport(descriptor: descriptor, label: label)
    }

    private static func openError(device: String, label: String, code: Int32) -> TransportError {
        switch code {
        case ENOENT:
            return TransportError("could not open \(label): no device \(device) — is the adapter plugged in?", errno: code)
        case EACCES, EPERM:
            return TransportError(
                "could not open \(label): permission denied — add yourself to the dialout group (sudo usermod -aG dialout $USER) or run with sudo",
                errno: code
            )
        case EBUSY:
            return TransportError("could not open \(label): \(device) is in use by another program", errno: code)
        default:
            return TransportError("could not open \(label): \(SystemError.phrase(code))", errno: code)
        }
    }

    /// Writes one packet after all earlier ones.
    public func send(_ packet: H4.Packet) async throws(TransportError) {
        try await channel.send(packet)
    }

    /// The packets from the controller.
    public var packets: AsyncThrowingStream<H4.Packet, any Error> { channel.packets }

    /// Closes the tty; ``packets`` has finished when this returns.
    public func close() async {
        await channel.close()
    }
}
