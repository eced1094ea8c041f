/// Which controller to use, as written after `--hci` or in `SWIFTBLE_HCI` (DESIGN.md,
/// "The command line"): `sim`, `sim:FILE.yaml`, `tcp:HOST:PORT`, `unix:PATH`,
/// `serial:DEV[@BAUD]` or `hci:N`.
///
/// Parsing is total: bad text throws a ``TransportError`` that says which form was
/// expected and what was given. ``description`` writes the canonical text back, so
/// `HCITransportSpec(parsing: spec.description) == spec`.
public enum HCITransportSpec: Hashable, Sendable, CustomStringConvertible {
    /// `sim`: the built-in embedded world, in-process (opened by BLEWorld, not here).
    case simulated
    /// `sim:FILE.yaml`: an embedded world from a scenario file (opened by BLEWorld).
    case simulatedScenario(path: String)
    /// `tcp:HOST:PORT`: H4 over TCP; an IPv6 host is written in brackets, `tcp:[::1]:9100`.
    case tcp(host: String, port: UInt16)
    /// `unix:PATH`: H4 over a Unix stream socket.
    case unix(path: String)
    /// `serial:DEV[@BAUD]`: H4 over a serial line at `baudRate` bits per second.
    case serial(device: String, baudRate: Int)
    /// `hci:N`: Linux adapter `N` through the HCI user channel.
    case userChannel(index: UInt16)

    /// The serial speed when `serial:DEV` names none: what most HCI UART firmware
    /// (Zephyr's hci_uart, nRF and ESP32 samples) starts at.
    public static let defaultBaudRate = 115_200

    /// The forms, for error sentences.
    static let forms = "sim, sim:FILE.yaml, tcp:HOST:PORT, unix:PATH, serial:DEV[@BAUD] or hci:N"

    /// Parses `text`, e.g. `tcp:127.0.0.1:9100` or `serial:/dev/ttyACM0@1000000`.
    public init(parsing text: String) throws(TransportError) {
        guard !text.isEmpty else {
            throw TransportError("empty HCI transport: expected \(Self.forms)")
        }
        let kind: Substring
        let rest: Substring?
        if let colon = text.firstIndex(of: ":") {
            kind = text[..<colon]
            rest = text[text.index(after: colon)...]
        } else {
            kind = text[...]
            rest = nil
        }
        switch kind {
        case "sim":
            guard let rest else {
                self = .simulated
                return
            }
            guard !rest.isEmpty else { throw Self.expected("sim:FILE.yaml", got: text) }
            self = .simulatedScenario(path: String(rest))
        case "tcp":
            self = try Self.parseTCP(rest, text: text)
        case "unix":
            guard let rest, !rest.isEmpty else { throw Self.expected("unix:PATH", got: text) }
            self = .unix(path: String(rest))
        case "serial":
            self = try Self.parseSerial(rest, text: text)
        case "hci":
            guard let rest, let index = Self.decimal(rest, in: 0 ... Int(UInt16.max)) else {
                throw Self.expected("hci:N with N the adapter number (hci:0)", got: text)
            }
            self = .userChannel(index: UInt16(index))
        default:
            if rest == nil, kind.hasPrefix("hci"), let index = Self.decimal(kind.dropFirst(3), in: 0 ... Int(UInt16.max)) {
                throw TransportError("expected hci:N, got \"\(text)\" (did you mean hci:\(index)?)")
            }
            throw TransportError("unknown HCI transport \"\(text)\": expected \(Self.forms)")
        }
    }

    /// The canonical text, e.g. `tcp:[::1]:9100` or `serial:/dev/ttyUSB0@115200`.
    public var description: String {
        switch self {
        case .simulated: return "sim"
        case let .simulatedScenario(path): return "sim:\(path)"
        case let .tcp(host, port): return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case let .unix(path): return "unix:\(path)"
        case let .serial(device, baudRate): return "serial:\(device)@\(baudRate)"
        case let .userChannel(index): return "hci:\(index)"
        }
    }

    /// Whether this names an embedded world rather than a device to open.
    public var isSimulated: Bool {
        switch self {
        case .simulated, .simulatedScenario: return true
        case .tcp, .unix, .serial, .userChannel: return false
        }
    }

    private static func parseTCP(_ rest: Substring?, text: String) throws(TransportError) -> HCITransportSpec {
        let form = "tcp:HOST:PORT"
        guard let rest, !rest.isEmpty else { throw expected(form, got: text) }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            // A bracketed IPv6 literal, whose colons are not the port separator.
            guard let close = rest.firstIndex(of: "]") else { throw expected("tcp:[IPV6]:PORT", got: text) }
            host = rest[rest.index(after: rest.startIndex) ..< close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { throw expected("tcp:[IPV6]:PORT", got: text) }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw expected(form, got: text) }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            guard !host.contains(":") else { throw expected("\(form) with an IPv6 HOST in brackets (tcp:[::1]:9100)", got: text) }
        }
        guard !host.isEmpty else { throw expected(form, got: text) }
        guard let port = decimal(portText, in: 1 ... Int(UInt16.max)) else {
            throw expected("\(form) with PORT from 1 to 65535", got: text)
        }
        return .tcp(host: String(host), port: UInt16(port))
    }

    private static func parseSerial(_ rest: Substring?, text: String) throws(TransportError) -> HCITransportSpec {
        let form = "serial:DEV[@BAUD]"
        guard let rest, !rest.isEmpty else { throw expected(form, got: text) }
        guard let at = rest.lastIndex(of: "@") else {
            return .serial(device: String(rest), baudRate: defaultBaudRate)
        }
        let device = rest[..<at]
        guard !device.isEmpty else { throw expected(form, got: text) }
        guard let baud = decimal(rest[rest.index(after: at)...], in: 1 ... 100_000_000) else {
            throw expected("\(form) with BAUD a positive number of bits per second", got: text)
        }
        return .serial(device: String(device), baudRate: baud)
    }

    /// `text` as a plain decimal number (ASCII digits only: no sign, no spaces) within
    /// `range`, or nil.
    private static func decimal(_ text: Substring, in range: ClosedRange<Int>) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    private static func expected(_ form: String, got text: String) -> TransportError {
        TransportError("expected \(form), got \"\(text)\"")
    }
}

extension HCITransportSpec {
    /// Opens the device this spec names: a TCP or Unix socket, a serial line or an HCI
    /// user channel. The `sim` kinds need a world, which BLEWorld opens; for them this
    /// throws.
    public func open() async throws(TransportError) -> any HCITransport {
        switch self {
        case .simulated, .simulatedScenario:
            throw TransportError("\(self) is an embedded world: open it with BLEWorld, not as a device transport")
        case let .tcp(host, port):
            return try await StreamTransport.connect(tcpHost: host, port: port)
        case let .unix(path):
            return try await StreamTransport.connect(unixPath: path)
        case let .serial(device, baudRate):
            return try SerialTransport.open(device: device, baudRate: baudRate)
        case let .userChannel(index):
            return try UserChannelTransport.open(index: index)
        }
    }
}
