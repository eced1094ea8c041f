import Foundation
import Glibc
import SimulatedTesting
import Testing

/// The neighbourhood's iBeacon UUID (Scenarios/neighbourhood.yaml).
let neighbourhoodBeaconUUID = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"


@Suite("ble beacon emit, monitor and range", .ownThread)
struct BeaconCommandLineTests {
    @Test("range --json finds the neighbourhood's three iBeacons with their identities and measured powers")
    func rangeNeighbourhood() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["beacon", "range", "--uuid", neighbourhoodBeaconUUID, "--seconds", "5", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = jsonLines(result.stdout)
        #expect(!objects.isEmpty, "\(result.stdout)")
        for (major, minor, power) in [(1, 1, -59), (1, 2, -56), (2, 7, -63)] {
            let beacon = try #require(objects.last { $0["major"] as? Int == major && $0["minor"] as? Int == minor },
                                      "no \(major)/\(minor) in \(result.stdout)")
            #expect(beacon["format"] as? String == "iBeacon")
            #expect(beacon["uuid"] as? String == neighbourhoodBeaconUUID)
            #expect(beacon["measuredPower"] as? Int == power)
            #expect((beacon["distance"] as? Double ?? -1) > 0)
            #expect(["immediate", "near", "far"].contains(beacon["proximity"] as? String ?? ""))
            #expect((beacon["filteredRSSI"] as? Double).map { $0 < -30 && $0 > -100 } == true)
            #expect(beacon["address"] as? String != nil)
        }
        // Nothing else shares the UUID, and the constraint keeps other formats out.
        #expect(objects.allSatisfy { $0["uuid"] as? String == neighbourhoodBeaconUUID })
    }

    @Test("range --major 2 keeps only the backyard beacon; without --uuid it lists Eddystone too")
    func rangeConstraintAndFormats() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let narrow = try runProcess(executable, ["beacon", "range", "--uuid", neighbourhoodBeaconUUID, "--major", "2", "--seconds", "3", "--json"])
        #expect(narrow.status == 0, "\(narrow.stderr)")
        let narrowObjects = jsonLines(narrow.stdout)
        #expect(!narrowObjects.isEmpty)
        #expect(narrowObjects.allSatisfy { $0["major"] as? Int == 2 && $0["minor"] as? Int == 7 })
        let every = try runProcess(executable, ["beacon", "range", "--seconds", "3", "--json"])
        #expect(every.status == 0, "\(every.stderr)")
        let url = jsonLines(every.stdout).first { $0["format"] as? String == "Eddystone-URL" }
        #expect(url?["url"] as? String == "https://example.com", "\(every.stdout)")
        #expect(url?["measuredPower"] as? Int == -62)
    }

    @Test("range prints a readable table each second")
    func rangeTable() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["beacon", "range", "--uuid", neighbourhoodBeaconUUID, "--seconds", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("beacon(s)"))
        // A heading names the columns, and major and minor are labelled.
        #expect(result.stdout.contains("BEACON"), "\(result.stdout)")
        #expect(result.stdout.contains("PROXIMITY"), "\(result.stdout)")
        #expect(result.stdout.contains("iBeacon \(neighbourhoodBeaconUUID) major 1 minor 1"), "\(result.stdout)")
    }

    @Test("monitor of a region no beacon is in says outside once the exit period passed, as didDetermineState does")
    func monitorSaysOutside() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["beacon", "monitor", "--uuid", "00000000-0000-0000-0000-0000000000AA",
                                                 "--exit-after", "1", "--seconds", "3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = jsonLines(result.stdout)
        #expect(events.first?["event"] as? String == "outside", "\(result.stdout)")
        #expect(events.filter { $0["event"] as? String == "outside" }.count == 1, "\(result.stdout)")
    }

    @Test("monitor --json enters the region of major 1 and names the beacon heard")
    func monitorEnters() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["beacon", "monitor", "--uuid", neighbourhoodBeaconUUID, "--major", "1", "--seconds", "4", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = jsonLines(result.stdout)
        let enter = try #require(events.first, "\(result.stdout)")
        #expect(enter["event"] as? String == "enter")
        let region = try #require(enter["region"] as? [String: Any])
        #expect(region["uuid"] as? String == neighbourhoodBeaconUUID)
        #expect(region["major"] as? Int == 1)
        #expect(region["minor"] is NSNull)
        #expect((enter["beacon"] as? [String: Any])?["major"] as? Int == 1)
        #expect(events.filter { $0["event"] as? String == "enter" }.count == 1)
        #expect(!events.contains { $0["event"] as? String == "exit" })
    }

    @Test("emit on one served controller: scan sees the exact frame, range sees its identity, monitor enters then exits when it stops")
    func emitSeenByOtherProcesses() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "3", "--tcp-base-port", "0"])
        defer { served.stop() }
        let emitter = Process()
        emitter.executableURL = URL(fileURLWithPath: executable)
        emitter.arguments = ["beacon", "emit", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--uuid", neighbourhoodBeaconUUID,
                             "--major", "4660", "--minor", "43981", "--power", "-61", "--seconds", "8"]
        emitter.standardOutput = FileHandle.nullDevice
        try emitter.run()
        defer {
            if emitter.isRunning {
                kill(emitter.processIdentifier, SIGKILL)
                emitter.waitUntilExit()
            }
        }
        let expected = "0201061aff4c000215" + "e2c56db5dffb48d2b060d0f5a71096e0" + "1234" + "abcd" + "c3"
        let scan = try runProcess(executable, ["scan", "--hci", "tcp:127.0.0.1:\(served.ports[1])", "--json", "--seconds", "2", "--passive"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let advert = try #require(jsonLines(scan.stdout).first { $0["address"] as? String == served.devices[0].address }, "\(scan.stdout)")
        #expect(advert["raw"] as? String == expected)
        #expect(advert["connectable"] as? Bool == false)

        let monitor = try runProcess(executable, ["beacon", "monitor", "--hci", "tcp:127.0.0.1:\(served.ports[2])", "--uuid",
                                                  neighbourhoodBeaconUUID, "--major", "4660", "--minor", "43981",
                                                  "--exit-after", "2", "--seconds", "14", "--json"])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        let events = jsonLines(monitor.stdout)
        #expect(events.map { $0["event"] as? String ?? "?" } == ["enter", "exit"], "\(monitor.stdout)")
        #expect(events.first?["address"] as? String == served.devices[0].address)
        if let enter = events.first?["time"] as? Double, let exit = events.last?["time"] as? Double {
            #expect(exit > enter)
        }
    }

    @Test("range on a served controller reports an emitted beacon's identity and power")
    func emitSeenByRange() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { served.stop() }
        let emitter = Process()
        emitter.executableURL = URL(fileURLWithPath: executable)
        emitter.arguments = ["beacon", "emit", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--uuid", neighbourhoodBeaconUUID.lowercased(),
                             "--major", "7", "--minor", "9", "--power", "-70", "--interval", "200", "--seconds", "30"]
        emitter.standardOutput = FileHandle.nullDevice
        try emitter.run()
        defer {
            if emitter.isRunning {
                kill(emitter.processIdentifier, SIGKILL)
                emitter.waitUntilExit()
            }
        }
        let range = try runProcess(executable, ["beacon", "range", "--hci", "tcp:127.0.0.1:\(served.ports[1])", "--uuid",
                                                neighbourhoodBeaconUUID, "--seconds", "3", "--json"])
        #expect(range.status == 0, "\(range.stderr)")
        let beacon = try #require(jsonLines(range.stdout).last, "\(range.stdout)")
        #expect(beacon["major"] as? Int == 7)
        #expect(beacon["minor"] as? Int == 9)
        #expect(beacon["measuredPower"] as? Int == -70)
        #expect(beacon["address"] as? String == served.devices[0].address)
    }

    @Test("a bad UUID, a minor without a major and a short interval are refused in one sentence")
    func badArguments() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let uuid = try runProcess(executable, ["beacon", "range", "--uuid", "not-a-uuid", "--seconds", "1"])
        #expect(uuid.status != 0)
        #expect(uuid.stderr.contains("--uuid not-a-uuid is not a proximity UUID"), "\(uuid.stderr)")
        let minor = try runProcess(executable, ["beacon", "monitor", "--uuid", neighbourhoodBeaconUUID, "--minor", "3", "--seconds", "1"])
        #expect(minor.status != 0)
        #expect(minor.stderr.contains("--minor needs --major"), "\(minor.stderr)")
        let interval = try runProcess(executable, ["beacon", "emit", "--uuid", neighbourhoodBeaconUUID, "--major", "1", "--minor", "1",
                                                   "--interval", "5", "--seconds", "1"])
        #expect(interval.status != 0)
        #expect(interval.stderr.contains("outside 20 ms to 10240 ms"), "\(interval.stderr)")
    }

    @Test("beacon emit --power outside a signed octet is a usage error (64) that names the range")
    func beaconPowerRange() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["beacon", "emit", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1",
                                                 "--minor", "2", "--power", "200", "--hci", "sim"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--power 200 is outside -128 to 127 dBm"), "\(result.stderr)")
    }
}
