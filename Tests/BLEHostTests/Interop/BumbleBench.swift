import BLEHost
import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// Whether to run the interop tests: always, unless SWIFTBLE_INTEROP=0.
let bumbleInteropEnabled: Bool = ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP"] != "0"

/// Every suite that runs Bumble, nested here so that they run one test at a time: each test
/// starts Python controllers and peers, and several at once on a 2-core machine starve the
/// rest of the test run (the simulated-world tests' wall-clock timers above all).
@Suite("Bumble interop", .serialized, .ownThread, .enabled(if: bumbleInteropEnabled, "SWIFTBLE_INTEROP=0 turns them off"))
struct BumbleInterop {}

/// Stock Bumble controllers on one LocalLink (Interop/bumble_controllers.py -n N), each
/// served as H4 over TCP, for our hosts and Bumble peers (Interop/bumble_peer.py,
/// Interop/bumble_l2cap_peer.py) to meet on.
///
/// Bumble's LocalLink routes a connection's ACL data by the sending controller's *random*
/// address (LE Set Random Address), whatever own address type the connection was made
/// with; a host that connects or advertises with its public address has its data dropped
/// by the peer's controller ("no connection for 00:00:00:00:00:00"). Our hosts therefore
/// always use a random static address here.
final class BumbleBench {
    let controllers: InteropProcess
    let ports: [Int]
    let python: String

    /// Starts `count` controllers and waits for their READY line.
    /// - Parameter leACLLength: the LE ACL data packet length they report: stock 27, or
    ///   251 for bulk data, which the hosts then cut into a ninth as many fragments.
    init(controllers count: Int, leACLLength: Int = 27) async throws {
        python = try bumblePython()
        controllers = try InteropProcess(python, [
            interopPackageRoot().appendingPathComponent("Interop/bumble_controllers.py").path, "-n", "\(count)",
            "--le-acl-length", "\(leACLLength)",
        ])
        guard let line = await controllers.lines.line(containing: "READY", seconds: patience),
              let json = line.split(separator: " ", maxSplits: 1).last,
              let ready = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let ports = ready["ports"] as? [Int], ports.count == count
        else {
            controllers.stop()
            throw InteropError(message: "bumble_controllers.py did not get ready: \(controllers.lines.all)")
        }
        self.ports = ports
    }

    /// A Bumble host on controller `index` (from 0) running `script` with `arguments`; it
    /// ends when this test process does (its stdin is our pipe: `--stdin-lifeline`).
    func peer(on index: Int, script: String = "bumble_l2cap_peer.py", _ arguments: [String]) throws -> InteropProcess {
        try InteropProcess(python, [
            interopPackageRoot().appendingPathComponent("Interop/\(script)").path, "--port", "\(ports[index])", "--stdin-lifeline",
        ] + arguments)
    }

    /// Our host on controller `index`, started, with random static address
    /// `C0:5F:00:00:00:<index+1>` and a capture named `capture`.
    func ourHost(on index: Int, capture name: String) async throws -> OurHost {
        let transport = try await InteropTransport(port: ports[index])
        let capture = try InteropCapture(name: name)
        let host = BLEHost.Host(transport: transport, configuration: .patient, onPacket: capture.hook)
        let ours = OurHost(host: host, transport: transport, capture: capture, address: OurHost.address(index))
        _ = try await host.start()
        try await host.setRandomStaticAddress(ours.address)
        return ours
    }

    func stop() {
        controllers.stop()
    }
}

/// One of our hosts in an interop test, with its transport and capture.
struct OurHost {
    let host: BLEHost.Host
    let transport: InteropTransport
    let capture: InteropCapture
    /// The random static address the host uses for everything.
    let address: BluetoothAddress

    /// `C0:5F:00:00:00:0N` for controller index N-1.
    static func address(_ index: Int) -> BluetoothAddress {
        BluetoothAddress(0xC05F_0000_0000 + UInt64(index + 1), kind: .random)
    }

    /// The address as Bumble's peers take it on their command line (random by default).
    var peerArgument: String { address.description }

    /// Which frames of the capture must decode without fault.
    enum CleanDecode {
        /// Every frame.
        case everyFrame
        /// Every frame our host sent; received ones may be a peer's deliberately broken
        /// frames, at most this many of them malformed.
        case sentFrames(brokenReceivedAtMost: Int)
    }

    /// Closes the host and its capture, then has tshark decode the capture (when it is
    /// installed) and expects no malformed frame and no expert error where `clean` says.
    /// A clean capture is deleted; a faulty one is kept and its path reported.
    func finish(clean: CleanDecode = .everyFrame) async throws {
        await host.close()
        capture.close()
        guard Tshark.executable != nil else {
            capture.remove()  // InteropCaptureTests says, skipped, why nothing was decoded
            return
        }
        let decode = try await Tshark.decode(capture.path, frames: capture.packets)
        #expect(decode.readAll, "tshark did not read all \(capture.packets) frames of \(capture.path)")
        let passed: Bool
        switch clean {
        case .everyFrame:
            passed = decode.findings.isEmpty
        case let .sentFrames(limit):
            passed = decode.findings.filter(\.sent).isEmpty && decode.malformedReceived <= limit
        }
        #expect(passed, "tshark on \(capture.path) (\(clean)): \(decode.findings.prefix(20))")
        if decode.readAll, passed { capture.remove() }
    }
}
