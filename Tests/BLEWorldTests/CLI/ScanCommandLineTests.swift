import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// `ble scan` on the embedded neighbourhood, run as a user runs it.
@Suite("ble scan on the simulated neighbourhood", .ownThread)
struct ScanCommandLineTests {
    private func ble(_ arguments: String...) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        return try runProcess(executable, arguments)
    }

    private func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    @Test("--json prints one object per advertisement with the contract's fields, merging the scan response")
    func json() throws {
        let result = try ble("scan", "--seconds", "1.5", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = objects(result.stdout)
        #expect(lines.count == result.stdout.split(separator: "\n").count, "only JSON on stdout")
        let addresses = Set(lines.compactMap { $0["address"] as? String })
        #expect(addresses.count >= 8, "the neighbourhood's advertisers: \(addresses)")
        for line in lines {
            for key in ["address", "addressType", "rssi", "connectable", "localName", "serviceUUIDs",
                        "manufacturerData", "serviceData", "txPower", "raw", "time"] {
                #expect(line.keys.contains(key), "\(key) missing in \(line)")
            }
        }
        let strap = lines.last { ($0["serviceUUIDs"] as? [String])?.contains("180D") == true }
        #expect(strap?["connectable"] as? Bool == true)
        #expect((strap?["localName"] as? String)?.hasPrefix("Polar H10") == true)
        let beacon = lines.first { ($0["manufacturerData"] as? [String: Any])?["companyID"] as? Int == 0x004C }
        #expect(beacon?["connectable"] as? Bool == false)
        #expect(((beacon?["manufacturerData"] as? [String: Any])?["data"] as? String)?.hasPrefix("0215") == true)
        let times = lines.compactMap { $0["time"] as? Double }
        #expect(times.allSatisfy { $0 >= 0 && $0 <= 1.6 })
    }

    @Test("--extended scans with the extended commands: the same advertisers, each line saying it came as a legacy PDU on LE 1M")
    func extended() throws {
        // 4 s: the weakest advertiser (a sensor 20 m away, every second) is heard by both scans.
        let legacy = Set(objects(try ble("scan", "--seconds", "4", "--json").stdout).compactMap { $0["address"] as? String })
        let result = try ble("scan", "--seconds", "4", "--json", "--extended")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = objects(result.stdout)
        #expect(Set(lines.compactMap { $0["address"] as? String }) == legacy)
        for line in lines {
            #expect(line["legacyPDU"] as? Bool == true && line["primaryPHY"] as? String == "1M", "\(line)")
            #expect(line["truncated"] as? Bool == false && line["sid"] is NSNull && line["secondaryPHY"] is NSNull, "\(line)")
            #expect(line["dataLength"] as? Int == ((line["raw"] as? String)?.count ?? 0) / 2 || line["connectable"] as? Bool == true)
        }
    }

    @Test("--extended on a controller that does not claim extended scanning fails with a sentence naming why")
    func extendedRefused() throws {
        let executable = try #require(bleExecutable())
        let world = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "1", "--tcp-base-port", "0", "--no-extended"])
        defer { world.stop() }
        let result = try ble("scan", "--seconds", "1", "--extended", "--hci", "tcp:127.0.0.1:\(world.ports[0])")
        #expect(result.status != 0)
        #expect(result.stderr.contains("does not support extended scanning"), "\(result.stderr)")
    }

    @Test("--extended --phy coded listens on LE Coded only: none of the neighbourhood's LE 1M advertisers is heard")
    func codedHearsNoOneMegabit() throws {
        let result = try ble("scan", "--seconds", "2", "--json", "--extended", "--phy", "coded")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(objects(result.stdout).isEmpty, "\(result.stdout)")
    }

    @Test("--phy needs --extended and is 1m, coded or both, said in one sentence")
    func badPHY() throws {
        let alone = try ble("scan", "--seconds", "1", "--phy", "coded")
        #expect(alone.status == 64 && alone.stderr.contains("add --extended"), "\(alone.stderr)")
        let twoMegabit = try ble("scan", "--seconds", "1", "--extended", "--phy", "2m")
        #expect(twoMegabit.status == 64 && twoMegabit.stderr.contains("--phy 2m is not 1m, coded or both"), "\(twoMegabit.stderr)")
    }

    @Test("--service keeps only devices advertising that service")
    func serviceFilter() throws {
        let result = try ble("scan", "--seconds", "1", "--json", "--service", "180D")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = objects(result.stdout)
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { ($0["serviceUUIDs"] as? [String])?.contains("180D") == true })
    }

    @Test("A controller that is not there fails with one sentence")
    func unsupportedController() throws {
        let result = try ble("scan", "--seconds", "1", "--hci", "tcp:127.0.0.1:9")
        #expect(result.status != 0)
        // Port 9 (discard) has no controller: the host stack says so in one sentence.
        #expect(result.stderr.contains("could not connect to tcp:127.0.0.1:9"))
        let bad = try ble("scan", "--service", "XYZ")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("not a UUID"))
    }
}
