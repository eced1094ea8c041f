import BLEWire
import Foundation
import Glibc
import SimulatedTesting
import Testing

@Suite("ble advertise and ble scan over TCP to a served world", .ownThread)
struct AdvertiseCommandLineTests {
    @Test("a name advertised on one served controller is seen by ble scan --json on the other")
    func advertiseIsScanned() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { served.stop() }
        let advertiser = Process()
        advertiser.executableURL = URL(fileURLWithPath: executable)
        advertiser.arguments = ["advertise", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--name", "CLI Advert",
                                "--service", "180F", "--seconds", "30"]
        advertiser.standardOutput = FileHandle.nullDevice
        try advertiser.run()
        defer {
            if advertiser.isRunning {
                kill(advertiser.processIdentifier, SIGKILL)
                advertiser.waitUntilExit()
            }
        }
        let scan = try runProcess(executable, ["scan", "--hci", "tcp:127.0.0.1:\(served.ports[1])", "--json", "--seconds", "3"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let objects = scan.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let advert = try #require(objects.first { $0["localName"] as? String == "CLI Advert" }, "\(scan.stdout)")
        #expect(advert["address"] as? String == served.devices[0].address)
        #expect(advert["serviceUUIDs"] as? [String] == ["180F"])
        #expect(advert["connectable"] as? Bool == true)
    }

    @Test("a name too long for the scan response is shortened there, and stderr says what scanners receive")
    func longNameSaysWhatWasCut() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["advertise", "--name", "This is a rather long device name",
                                                 "--service", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E", "--seconds", "0.5", "--hci", "sim"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("scanners receive \"This is a rather long device \" (29 octets, a Shortened Local Name) in the scan response"),
                "\(result.stderr)")
    }

    @Test("an interval or a duration out of range is a usage error (64) that names the range", arguments: [
        (["--interval", "5"], "--interval 5.000 ms is outside 20 ms to 10240 ms, the range a controller accepts."),
        (["--seconds", "0"], "--seconds must be more than 0 and at most 86400 seconds; got 0."),
    ])
    func outOfRange(arguments: [String], sentence: String) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["advertise", "--hci", "sim"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
    }

    @Test("advertise prints its address with its type, as ble scan prints addresses")
    func addressWithType() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["advertise", "--name", "Typed", "--seconds", "0.5", "--hci", "sim"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("Advertising \"Typed\" from "), "\(line)")
        #expect(line.hasSuffix("/public") || line.hasSuffix("/random"), "\(line)")
    }

    @Test("--snoop writes a btsnoop file of the host's packets, starting with HCI_Reset sent")
    func snoopFile() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("advertise-\(getpid()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runProcess(executable, ["advertise", "--name", "Snooped", "--seconds", "0.5", "--snoop", path])
        #expect(result.status == 0, "\(result.stderr)")
        var reader = try BTSnoop.Reader(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let records = try reader.readAll()
        let first = try #require(records.first)
        #expect(first.direction == .sent)
        #expect(Array(first.data) == [0x01, 0x03, 0x0C, 0x00])
        #expect(records.contains { $0.direction == .received })
        // LE Set Extended Advertising Enable (0x2039) with enable = 1 for one set, handle 0,
        // went out: the embedded world's controller claims the extended family.
        #expect(records.contains { Array($0.data.prefix(7)) == [0x01, 0x39, 0x20, 0x06, 0x01, 0x01, 0x00] })
    }

    @Test("advertise refuses an interval below 20 ms in one sentence")
    func badInterval() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["advertise", "--interval", "5", "--seconds", "1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("outside 20 ms to 10240 ms"))
    }

    @Test("--extended over ble sim serve --extended: a 1,650-octet set on LE 2M reaches another process's ble scan --extended whole")
    func extendedAcrossProcesses() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended"])
        defer { served.stop() }
        let advertiser = try LineProcess(executable, [
            "advertise", "--extended", "--data-size", "1650", "--phy", "2m", "--sid", "4", "--name", "Long one",
            "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--seconds", "60"])
        defer { advertiser.stop() }
        let started = advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30)
        #expect(started?.contains("Advertising \"Long one\"") == true, "\(advertiser.output)")
        let scan = try runProcess(executable, ["scan", "--extended", "--json", "--seconds", "3", "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let lines = scan.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let heard = try #require(lines.first { $0["address"] as? String == served.devices[0].address }, "\(scan.stdout)")
        #expect((heard["raw"] as? String)?.count == 3300 && heard["dataLength"] as? Int == 1650)
        #expect(heard["secondaryPHY"] as? String == "2M" && heard["primaryPHY"] as? String == "1M" && heard["sid"] as? Int == 4)
        #expect(heard["truncated"] as? Bool == false && heard["legacyPDU"] as? Bool == false && heard["localName"] as? String == "Long one")
        #expect((heard["manufacturerData"] as? [String: Any])?["companyID"] as? Int == 0xFFFF)
    }

    @Test("Plain ble advertise and ble scan over ble sim serve --extended: the hosts use the extended family, the scan prints the legacy line")
    func plainOnClaimingControllers() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended"])
        defer { served.stop() }
        let advertiserCapture = temporaryPath("plain-advertise") + ".btsnoop"
        let scanCapture = temporaryPath("plain-scan") + ".btsnoop"
        defer {
            try? FileManager.default.removeItem(atPath: advertiserCapture)
            try? FileManager.default.removeItem(atPath: scanCapture)
        }
        let advertiser = try LineProcess(executable, [
            "advertise", "--name", "Plain one", "--snoop", advertiserCapture, "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--seconds", "60"])
        defer { advertiser.stop() }
        #expect(advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30) != nil, "\(advertiser.output)")
        let scan = try runProcess(executable, ["scan", "--json", "--seconds", "3", "--snoop", scanCapture,
                                               "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let heard = try #require(jsonLines(scan.stdout).first { $0["address"] as? String == served.devices[0].address }, "\(scan.stdout)")
        #expect(heard["localName"] as? String == "Plain one" && heard["legacyPDU"] == nil && heard["sid"] == nil, "\(heard)")
        func summaries(_ path: String) throws -> [String] {
            let decoded = try runProcess(executable, ["snoop", path, "--json"])
            #expect(decoded.status == 0, "\(decoded.stderr)")
            return jsonLines(decoded.stdout).compactMap { $0["summary"] as? String }
        }
        let scanned = try summaries(scanCapture)
        #expect(scanned.contains { $0.hasPrefix("LE Set Extended Scan Enable") } && scanned.contains { $0.hasPrefix("LE Extended Advertising Report") })
        #expect(!scanned.contains { $0.hasPrefix("LE Set Scan Enable") || $0.hasPrefix("LE Set Scan Parameters") })
        advertiser.stop()
        let advertised = try summaries(advertiserCapture)
        #expect(advertised.contains { $0.hasPrefix("LE Set Extended Advertising Parameters") }, "\(advertised)")
        #expect(!advertised.contains { $0.hasPrefix("LE Set Advertising Parameters") || $0.hasPrefix("LE Set Advertising Enable") })
    }

    @Test("--extended --phy coded --coded-s 2 over ble sim serve --extended: a Coded scan hears the set on LE Coded, a 1M scan does not hear it")
    func codedAcrossProcesses() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended"])
        defer { served.stop() }
        let advertiser = try LineProcess(executable, [
            "advertise", "--extended", "--data-size", "400", "--phy", "coded", "--coded-s", "2", "--sid", "9", "--name", "Far one",
            "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--seconds", "60"])
        defer { advertiser.stop() }
        let started = advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30)
        #expect(started?.contains("Advertising \"Far one\"") == true, "\(advertiser.output)")
        let hci = "tcp:127.0.0.1:\(served.ports[1])"
        let coded = try runProcess(executable, ["scan", "--extended", "--phy", "both", "--json", "--seconds", "3", "--hci", hci])
        #expect(coded.status == 0, "\(coded.stderr)")
        let lines = coded.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let heard = try #require(lines.first { $0["address"] as? String == served.devices[0].address }, "\(coded.stdout)")
        #expect(heard["primaryPHY"] as? String == "Coded" && heard["secondaryPHY"] as? String == "Coded", "\(heard)")
        #expect(heard["dataLength"] as? Int == 400 && heard["sid"] as? Int == 9 && heard["localName"] as? String == "Far one")
        let oneMegabit = try runProcess(executable, ["scan", "--extended", "--json", "--seconds", "2", "--hci", hci])
        #expect(oneMegabit.status == 0, "\(oneMegabit.stderr)")
        #expect(!oneMegabit.stdout.contains(served.devices[0].address), "\(oneMegabit.stdout)")
    }

    @Test("Extended options are checked: they need --extended, a size leaving too little room is refused with the sizes that work")
    func extendedOptions() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let alone = try runProcess(executable, ["advertise", "--data-size", "20"])
        #expect(alone.status != 0 && alone.stderr.contains("add --extended"), "\(alone.stderr)")
        let gap = try runProcess(executable, ["advertise", "--extended", "--data-size", "13", "--name", "abcdefghij", "--seconds", "1"])
        #expect(gap.status != 0 && gap.stderr.contains("choose 12 or at least 16"), "\(gap.stderr)")
        let phy = try runProcess(executable, ["advertise", "--extended", "--phy", "3m"])
        #expect(phy.status != 0 && phy.stderr.contains("--phy 3m is not 1m, 2m or coded"), "\(phy.stderr)")
        let codingAlone = try runProcess(executable, ["advertise", "--extended", "--coded-s", "8"])
        #expect(codingAlone.status != 0 && codingAlone.stderr.contains("add --phy coded"), "\(codingAlone.stderr)")
        let badCoding = try runProcess(executable, ["advertise", "--extended", "--phy", "coded", "--coded-s", "4"])
        #expect(badCoding.status != 0 && badCoding.stderr.contains("--coded-s 4 is not 2 or 8"), "\(badCoding.stderr)")

        let big = try runProcess(executable, ["advertise", "--extended", "--data-size", "1651"])
        #expect(big.status != 0 && big.stderr.contains("1650"), "\(big.stderr)")
        let linkable = try runProcess(executable, ["advertise", "--extended", "--connectable", "--data-size", "246"])
        #expect(linkable.status == 64 && linkable.stderr.contains("above 245 octets"), "\(linkable.stderr)")
        let legacy = try runProcess(executable, ["advertise", "--connectable"])
        #expect(legacy.status == 64 && legacy.stderr.contains("add --extended"), "\(legacy.stderr)")
        let train = try runProcess(executable, ["advertise", "--extended", "--connectable", "--periodic", "100"])
        #expect(train.status == 64 && train.stderr.contains("non-connectable"), "\(train.stderr)")
    }

    @Test("--extended --connectable over ble sim serve --extended: a 245-octet connectable set takes ble gatt dump --phy 1m's connection, and advertises again after it")
    func extendedConnectable() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended"])
        defer { served.stop() }
        let advertiser = try LineProcess(executable, [
            "advertise", "--extended", "--connectable", "--data-size", "245", "--name", "Linkable",
            "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--seconds", "60"])
        defer { advertiser.stop() }
        #expect(advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30) != nil, "\(advertiser.output)")
        let hci = "tcp:127.0.0.1:\(served.ports[1])"
        for _ in 0 ..< 2 {
            let dump = try runProcess(executable, ["gatt", "dump", served.devices[0].address, "--phy", "1m", "--json", "--hci", hci])
            #expect(dump.status == 0, "\(dump.stderr)")
            #expect(dump.stdout.lowercased().contains("1800"), "\(dump.stdout)")
        }
    }
}
