import BLETransport
import Testing

@Suite("HCI transport specs")
struct HCITransportSpecTests {
    @Test("Every valid form parses to its kind", arguments: [
        ("sim", HCITransportSpec.simulated),
        ("sim:Scenarios/neighbourhood.yaml", .simulatedScenario(path: "Scenarios/neighbourhood.yaml")),
        ("tcp:127.0.0.1:9100", .tcp(host: "127.0.0.1", port: 9100)),
        ("tcp:localhost:1", .tcp(host: "localhost", port: 1)),
        ("tcp:[::1]:65535", .tcp(host: "::1", port: 65535)),
        ("unix:/tmp/hci.sock", .unix(path: "/tmp/hci.sock")),
        ("serial:/dev/ttyACM0", .serial(device: "/dev/ttyACM0", baudRate: 115_200)),
        ("serial:/dev/ttyUSB1@1000000", .serial(device: "/dev/ttyUSB1", baudRate: 1_000_000)),
        ("hci:0", .userChannel(index: 0)),
        ("hci:12", .userChannel(index: 12)),
    ])
    func parses(text: String, expected: HCITransportSpec) throws {
        #expect(try HCITransportSpec(parsing: text) == expected)
    }

    @Test("The description is canonical text that parses back to the same spec", arguments: [
        HCITransportSpec.simulated, .simulatedScenario(path: "a.yaml"), .tcp(host: "10.0.0.2", port: 9000),
        .tcp(host: "fe80::1", port: 80), .unix(path: "/run/h4"), .serial(device: "/dev/ttyS0", baudRate: 9600),
        .userChannel(index: 3),
    ])
    func roundTrips(spec: HCITransportSpec) throws {
        #expect(try HCITransportSpec(parsing: spec.description) == spec)
    }

    @Test("A serial spec without a speed gets 115200 baud and says so")
    func serialDefault() throws {
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyACM0").description == "serial:/dev/ttyACM0@115200")
    }

    @Test("Bad text names the expected form and repeats what was given", arguments: [
        ("", "empty HCI transport: expected sim, sim:FILE.yaml, tcp:HOST:PORT, unix:PATH, serial:DEV[@BAUD] or hci:N"),
        ("sim:", "expected sim:FILE.yaml, got \"sim:\""),
        ("tcp", "expected tcp:HOST:PORT, got \"tcp\""),
        ("tcp:localhost", "expected tcp:HOST:PORT, got \"tcp:localhost\""),
        ("tcp::9100", "expected tcp:HOST:PORT, got \"tcp::9100\""),
        ("tcp:localhost:http", "expected tcp:HOST:PORT with PORT from 1 to 65535, got \"tcp:localhost:http\""),
        ("tcp:localhost:0", "expected tcp:HOST:PORT with PORT from 1 to 65535, got \"tcp:localhost:0\""),
        ("tcp:localhost:65536", "expected tcp:HOST:PORT with PORT from 1 to 65535, got \"tcp:localhost:65536\""),
        ("tcp:localhost:+80", "expected tcp:HOST:PORT with PORT from 1 to 65535, got \"tcp:localhost:+80\""),
        ("tcp:::1:80", "expected tcp:HOST:PORT with an IPv6 HOST in brackets (tcp:[::1]:9100), got \"tcp:::1:80\""),
        ("tcp:[::1]80", "expected tcp:[IPV6]:PORT, got \"tcp:[::1]80\""),
        ("tcp:[::1:80", "expected tcp:[IPV6]:PORT, got \"tcp:[::1:80\""),
        ("unix:", "expected unix:PATH, got \"unix:\""),
        ("unix", "expected unix:PATH, got \"unix\""),
        ("serial:", "expected serial:DEV[@BAUD], got \"serial:\""),
        ("serial:@9600", "expected serial:DEV[@BAUD], got \"serial:@9600\""),
        ("serial:/dev/ttyS0@fast", "expected serial:DEV[@BAUD] with BAUD a positive number of bits per second, got \"serial:/dev/ttyS0@fast\""),
        ("serial:/dev/ttyS0@0", "expected serial:DEV[@BAUD] with BAUD a positive number of bits per second, got \"serial:/dev/ttyS0@0\""),
        ("serial:/dev/ttyS0@", "expected serial:DEV[@BAUD] with BAUD a positive number of bits per second, got \"serial:/dev/ttyS0@\""),
        ("hci:", "expected hci:N with N the adapter number (hci:0), got \"hci:\""),
        ("hci:x", "expected hci:N with N the adapter number (hci:0), got \"hci:x\""),
        ("hci:-1", "expected hci:N with N the adapter number (hci:0), got \"hci:-1\""),
        ("hci:65536", "expected hci:N with N the adapter number (hci:0), got \"hci:65536\""),
        ("hci0", "expected hci:N, got \"hci0\" (did you mean hci:0?)"),
        ("usb:0", "unknown HCI transport \"usb:0\": expected sim, sim:FILE.yaml, tcp:HOST:PORT, unix:PATH, serial:DEV[@BAUD] or hci:N"),
        ("SIM", "unknown HCI transport \"SIM\": expected sim, sim:FILE.yaml, tcp:HOST:PORT, unix:PATH, serial:DEV[@BAUD] or hci:N"),
    ])
    func rejects(text: String, message: String) {
        #expect(throws: TransportError(message)) { try HCITransportSpec(parsing: text) }
    }

    @Test("Opening a sim spec as a device says a world must open it")
    func simulatedIsNotADevice() async {
        await #expect(throws: TransportError("sim is an embedded world: open it with BLEWorld, not as a device transport")) {
            _ = try await HCITransportSpec.simulated.open()
        }
        #expect(HCITransportSpec.simulatedScenario(path: "x.yaml").isSimulated)
        #expect(!HCITransportSpec.userChannel(index: 0).isSimulated)
    }
}
