import Foundation
import SimulatedTesting
import Synchronization
import Testing

/// What a newcomer does first on the embedded neighbourhood: `ble scan`, then `ble gatt dump`
/// of each device the table calls connectable, by the address as the table prints it and
/// by the name it shows.
@Suite("ble gatt dump reaches every connectable device ble scan lists", .serialized, .ownThread)
struct NeighbourhoodGATTDumpCommandLineTests {
    /// One row of `ble scan`'s table.
    struct Row {
        var address: String
        var connectable: Bool
        var name: String
    }

    private func ble(_ arguments: [String]) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        // A peer that connects but never answers would hold the exchange for 30 s; the
        // timeout only keeps a regression from stalling the run.
        return try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable] + arguments)
    }

    /// Runs each list of commands on a thread of its own, the commands of one list in
    /// order, and returns every result in the same shape. Each `ble` process has a world
    /// of its own on the wall clock and mostly waits on it, so the lists overlap well.
    private func ble(concurrently lists: [[[String]]]) throws -> [[ProcessResult]] {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let results = Mutex<[Int: [ProcessResult]]>([:])
        let group = DispatchGroup()
        for (index, commands) in lists.enumerated() {
            group.enter()
            Thread {
                let finished = commands.map { arguments in
                    (try? runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable] + arguments))
                        ?? ProcessResult(status: -1, stdout: "", stderr: "\(arguments) could not be started")
                }
                results.withLock { $0[index] = finished }
                group.leave()
            }.start()
        }
        group.wait()
        return results.withLock { all in lists.indices.map { all[$0] ?? [] } }
    }

    /// The rows of the table `ble scan` prints when its output is not a terminal, cut at the
    /// header's columns (names have spaces in them).
    private func rows(_ table: String) throws -> [Row] {
        let lines = table.split(separator: "\n").map { Array($0) }
        let headerIndex = try #require(lines.firstIndex { String($0).hasPrefix("ADDRESS ") }, "no header in \(table)")
        let header = String(lines[headerIndex])
        func column(_ title: String) throws -> Int {
            let range = try #require(header.range(of: title), "no \(title) column in \(header)")
            return header.distance(from: header.startIndex, to: range.lowerBound)
        }
        let (conn, name, services) = (try column("CONN"), try column("NAME"), try column("SERVICES"))
        func field(_ line: [Character], _ from: Int, _ to: Int) -> String {
            guard from < line.count else { return "" }
            return String(line[from ..< min(to, line.count)]).trimmingCharacters(in: .whitespaces)
        }
        return lines[(headerIndex + 1)...].filter { !$0.isEmpty }.map { line in
            Row(address: field(line, 0, conn).split(separator: " ").first.map(String.init) ?? "",
                connectable: field(line, conn, name) == "yes", name: field(line, name, services))
        }
    }

    /// The `Primary service …` lines of a dump: the tree without its values, some of which
    /// (Current Time) change from one connection to the next.
    private func services(_ dump: String) -> [Substring] {
        dump.split(separator: "\n").filter { $0.hasPrefix("Primary service ") }
    }

    @Test("Each connectable device in the scan table dumps by its printed address and by its name")
    func everyConnectableDevice() throws {
        // On `--hci sim` the neighbourhood's GATT hosts start one after the other, paced by the
        // wall clock; on a loaded machine the last (Sensor 42, advertising once a second) has
        // been seen to start too late for a 3 s scan, so the scan lasts 8 s.
        let scan = try ble(["scan", "--seconds", "8"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let table = try rows(scan.stdout)
        let connectable = table.filter(\.connectable)
        // The neighbourhood's GATT devices; the beacons and the tag only advertise.
        #expect(Set(connectable.map(\.name)) == ["Polar H10 A1B2C3D4", "HT Thermometer", "Alex's Phone",
                                                   "Hue Lamp Kitchen", "Sensor 42"], "\(scan.stdout)")
        #expect(table.filter { !$0.connectable }.count == 5, "\(scan.stdout)")
        let dumps = try ble(concurrently: connectable.map { device in
            [["gatt", "dump", device.address]] + (device.name.isEmpty ? [] : [["gatt", "dump", device.name]])
        })
        for (device, results) in zip(connectable, dumps) {
            let byAddress = try #require(results.first)
            #expect(byAddress.status == 0, "\(device.address): \(byAddress.stderr)")
            let bareAddress = device.address.split(separator: "/").first.map(String.init) ?? device.address
            #expect(byAddress.stdout.hasPrefix("GATT database of \(bareAddress) "), "\(byAddress.stdout)")
            let tree = services(byAddress.stdout)
            #expect(tree.first?.hasPrefix("Primary service 1800 (Generic Access)") == true, "\(device.address): \(byAddress.stdout)")
            #expect(tree.contains { $0.hasPrefix("Primary service 1801 (Generic Attribute)") }, "\(device.address)")
            guard let byName = results.dropFirst().first else { continue }
            #expect(byName.status == 0, "\(device.name): \(byName.stderr)")
            #expect(byName.stderr.contains("Found \"\(device.name)\" at \(device.address)."), "\(byName.stderr)")
            #expect(services(byName.stdout) == tree, "\(device.name): \(byName.stdout)")
        }
    }
}
