@testable import BLECommandLine
import Foundation
import Testing

/// `ble sim map`: what it accepts, what it refuses, and that it writes the map.
@Suite("ble sim map")
struct SimMapCommandTests {
    @Test("ble sim map is one of ble sim's subcommands")
    func registered() {
        #expect(SimCommand.configuration.subcommands.contains { $0 == SimMapCommand.self })
    }

    @Test("Every option reaches the coverage request")
    func parses() throws {
        let command = try SimMapCommand.parse(["bus-stop", "--device", "stop beacon", "--device", "bus front beacon", "--receiver-height", "1.5",
                                               "--resolution", "0.5", "--at", "10", "--within", "2", "--output", "map.png"])
        let request = command.request
        #expect(request.devices == ["stop beacon", "bus front beacon"])
        #expect(request.receiverHeight == 1.5 && request.resolution == 0.5 && request.atSeconds == 10 && request.withinSeconds == 2)
        let plain = try SimMapCommand.parse(["bus-stop", "-o", "map.svg"]).request
        #expect(plain.devices.isEmpty && plain.receiverHeight == 1.2 && plain.resolution == nil && plain.atSeconds == 0 && plain.withinSeconds == nil)
    }

    @Test("Bad numbers, an unknown scenario, a missing or unknown output format are usage errors", arguments: [
        ["bus-stop", "--resolution", "0", "-o", "m.svg"], ["bus-stop", "--within", "-1", "-o", "m.svg"],
        ["bus-stop", "--at", "-5", "-o", "m.svg"], ["bus-stop", "--receiver-height", "inf", "-o", "m.svg"],
        ["bus-stop", "--resolution", "fine", "-o", "m.svg"], ["bus-stop", "-o", "m.jpg"], ["bus-stop"], ["no-such-scenario", "-o", "m.svg"],
    ])
    func refuses(arguments: [String]) {
        #expect(throws: (any Error).self) { try SimMapCommand.parse(arguments) }
    }

    @Test("It writes the bus stop's SVG, and names the devices when one is unknown")
    func writes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-sim-map-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stop.svg").path
        try SimMapCommand.parse(["bus-stop", "--device", "stop beacon", "--resolution", "2", "-o", path]).run()
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("id=\"legend\"") && svg.contains("id=\"scale-bar\""))

        let unknown = #expect(throws: CommandFailure.self) {
            try SimMapCommand.parse(["bus-stop", "--device", "stop beacn", "-o", path]).run()
        }
        #expect(unknown?.description.contains("No device \"stop beacn\" in the scenario; its devices are: \"stop beacon\"") == true)
        let unwritable = #expect(throws: CommandFailure.self) {
            try SimMapCommand.parse(["bus-stop", "-o", folder.appendingPathComponent("missing/map.svg").path]).run()
        }
        #expect(unwritable?.description.contains("does not exist") == true)
    }
}
