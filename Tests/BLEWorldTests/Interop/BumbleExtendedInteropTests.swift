import Foundation
import Glibc
import SimulatedTesting
import Testing

/// Extended advertising between our host and Bumble 0.0.236's, both ways, on
/// `ble sim serve --extended` (its controllers claim the extended commands; Bumble's own
/// controller has extended advertising off by default), the Bumble side played by
/// Interop/bumble_extended_peer.py; tshark judges the captures. Off with SWIFTBLE_INTEROP=0.
@Suite("Extended advertising between ble and Bumble", .serialized, .ownThread,
       .enabled(if: ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP"] != "0", "SWIFTBLE_INTEROP=0 turns them off"))
struct BumbleExtendedInteropTests {
    private var peer: String { packageRoot().appendingPathComponent("Interop/bumble_extended_peer.py").path }

    /// The `ble` executable, Bumble's Python, a temporary folder (remove it when done), and
    /// `ble sim serve --extended` with two devices capturing into the folder's `snoop/`.
    private func setUp() throws -> (ble: String, python: String, folder: URL, served: ServedWorld) {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let python = try bumbleBeaconPython()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-extended-interop-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended",
                                                                         "--snoop", folder.appendingPathComponent("snoop").path])
        return (executable, python, folder, served)
    }

    @Test("Bumble's extended set of 251 octets on LE 2M reaches ble scan --extended byte for byte, with its SID")
    func bumbleToUs() throws {
        let (executable, python, folder, served) = try setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        defer { served.stop() }
        let snoops = folder.appendingPathComponent("snoop")
        let advertiser = try LineProcess(python, [peer, "--port", "\(served.ports[0])", "advertise", "--size", "251", "--sid", "5", "--seconds", "60"])
        defer { advertiser.stop() }
        let line = try #require(advertiser.waitForLine(containing: "\"advertising\"", timeoutSeconds: 120), "\(advertiser.output)")
        let sent = try #require(jsonLines(line).first?["data"] as? String)
        let scan = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", executable, "scan", "--extended", "--json", "--seconds", "3",
                                                       "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let heard = try #require(jsonLines(scan.stdout).first { $0["address"] as? String == served.devices[0].address }, "\(scan.stdout)")
        #expect(heard["raw"] as? String == sent)
        #expect(heard["sid"] as? Int == 5 && heard["secondaryPHY"] as? String == "2M" && heard["legacyPDU"] as? Bool == false)
        advertiser.stop()
        served.stop()
        try checkCaptures(snoops, advertiser: "host-1", scanner: "host-2")
    }

    @Test("ble advertise --extended's 1,650 octets reach a Bumble scanner byte for byte, joined from their fragments")
    func usToBumble() throws {
        let (executable, python, folder, served) = try setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        defer { served.stop() }
        let snoops = folder.appendingPathComponent("snoop")
        let advertiser = try LineProcess(executable, ["advertise", "--extended", "--data-size", "1650", "--phy", "2m", "--sid", "4",
                                                      "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--seconds", "60"])
        defer { advertiser.stop() }
        try #require(advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30) != nil, "\(advertiser.output)")
        let scan = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", python, peer, "--port", "\(served.ports[1])", "scan",
                                                       "--seconds", "20", "--until-size", "1650"])
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        let heard = try #require(jsonLines(scan.stdout).first {
            $0["event"] as? String == "advertisement" && $0["address"] as? String == served.devices[0].address && ($0["data"] as? String)?.count == 3300
        }, "\(scan.stdout.prefix(2000))")
        #expect(heard["sid"] as? Int == 4 && heard["secondary_phy"] as? Int == 2 && heard["legacy"] as? Bool == false)
        #expect(heard["truncated"] as? Bool == false && (heard["fragments"] as? Int ?? 0) > 1)
        // The data --data-size makes: manufacturer structures of company 0xFFFF whose payloads count up across them.
        let bytes = try #require(hexBytes(heard["data"] as? String ?? ""))
        var index = 0, counter = 0, structures = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            try #require(length >= 3 && index + 1 + length <= bytes.count && bytes[index + 1] == 0xFF, "structure at \(index)")
            #expect(bytes[index + 2] == 0xFF && bytes[index + 3] == 0xFF)
            for octet in bytes[(index + 4) ..< (index + 1 + length)] {
                #expect(Int(octet) == counter & 0xFF)
                counter += 1
            }
            index += 1 + length
            structures += 1
        }
        #expect(index == 1650 && structures == 7)
        advertiser.stop()
        served.stop()
        try checkCaptures(snoops, advertiser: "host-1", scanner: "host-2")
    }

    /// tshark reads both captures. The advertiser's must decode with no malformed frame. In the
    /// scanner's, tshark 4 dissects each LE Extended Advertising Report's data as whole AD
    /// structures, so a report holding a fragment that cuts a structure (as controllers cut
    /// them, here every 229 octets and at each AUX PDU) is flagged; no other frame may be.
    private func checkCaptures(_ folder: URL, advertiser: String, scanner: String) throws {
        guard let tshark = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("tshark is not installed (apt-get install -y tshark; .ci/run installs it): captures not decoded")
            return
        }
        func frames(_ name: String, _ filter: String?) throws -> [String] {
            let path = folder.appendingPathComponent(name + ".btsnoop").path
            let result = try runProcess(tshark, ["-r", path, "-n"] + (filter.map { ["-Y", $0] } ?? []) + ["-T", "fields", "-e", "frame.number", "-e", "_ws.col.Info"])
            #expect(result.status == 0, "tshark on \(path): \(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let faults = "_ws.malformed || _ws.expert.severity >= 8388608"
        #expect(try frames(advertiser, nil).count > 10)
        let advertiserFaults = try frames(advertiser, faults)
        #expect(advertiserFaults.isEmpty, "\(advertiserFaults)")
        #expect(try frames(scanner, "bthci_evt.le_meta_subevent == 0x0d").count > 0)
        let scannerFaults = try frames(scanner, "(\(faults)) && !(bthci_evt.le_meta_subevent == 0x0d)")
        #expect(scannerFaults.isEmpty, "\(scannerFaults)")
    }

    private func hexBytes(_ hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index ..< next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
