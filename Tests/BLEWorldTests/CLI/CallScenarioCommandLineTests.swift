import Foundation
import SimulatedTesting
import Testing

/// `ble sim run call-notification-light`: the simulated iPhone serves ANCS, connects to
/// Examples/NotificationLight, and the scenario's notifications — a call, the missed call it
/// leaves, a message — change the light's colour, on virtual time.
@Suite("ble sim run: a call while the notification light is connected", .serialized, .ownThread)
struct CallScenarioCommandLineTests {
    private struct Line {
        var time: Double
        var device: String
        var event: String
        var detail: String
    }

    private func run(_ arguments: [String]) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable, "sim", "run"] + arguments)
    }

    private func story(_ scenario: String) throws -> [Line] {
        let result = try run([scenario, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { text in
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let time = object["time"] as? Double, let device = object["device"] as? String,
                  let event = object["event"] as? String, let detail = object["detail"] as? String else { return nil }
            return Line(time: time, device: device, event: event, detail: detail)
        }
    }

    @Test("The light flashes red while the phone rings, turns amber for the missed call and blue for the unread message")
    func callThenMissedThenMessage() throws {
        let lines = try story("call-notification-light")
        #expect(lines.contains { $0.device == "iPhone" && $0.detail.hasPrefix("connected to the accessory") })
        /// The light's first colour at or after `time` (s), and when it showed it.
        func light(after time: Double) -> (Double, String)? {
            lines.first { $0.device == "Notification Light" && $0.time >= time && $0.detail.hasPrefix("light: ") }
                .map { ($0.time, String($0.detail.dropFirst("light: ".count))) }
        }
        let ring = try #require(light(after: 8))
        #expect(ring.1 == "flashingRed (incomingCall 1)")
        #expect(ring.0 < 9, "the light took until \(ring.0) s to show the call posted at 8 s")
        let missed = lines.last { $0.device == "Notification Light" && $0.time >= 18 && $0.time < 26 }
        #expect(missed?.detail == "light: amber (missedCall 1)", "\(String(describing: missed))")
        let end = lines.last { $0.device == "Notification Light" }
        #expect(end?.detail == "light: blue (social 1)")
        #expect(end.map { $0.time < 31 } == true)
        // The phone's own lines: what its Notification Center did, at the scenario's times.
        let posted = lines.filter { $0.event == "notification" }.map { "\($0.time) \($0.detail)" }
        #expect(posted == ["8.0 added \"call\" (incomingCall): Riker", "18.0 removed \"call\"", "18.0 added \"missed\" (missedCall): Riker",
                           "26.0 added \"message\" (social): Troi", "30.0 removed \"missed\""], "\(posted)")
    }

    @Test("The same seed tells the same story")
    func deterministic() throws {
        let first = try run(["call-notification-light"]).stdout.split(separator: "\n")
        let second = try run(["call-notification-light"]).stdout.split(separator: "\n")
        let differing = zip(first, second).first { $0 != $1 }
        #expect(first == second, "first difference: \(differing.map { "\($0.0) | \($0.1)" } ?? "in length, \(first.count) and \(second.count) lines")")
    }

    @Test("An unknown category, a removal of nothing, a phone that is not the phone, an unknown accessory: each refused with its place")
    func refusals() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("call-scenario-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func refused(_ actions: String, light: String = "notification-light") throws -> String {
            let path = directory.appendingPathComponent("s.yaml").path
            try """
                name: refused
                devices:
                  - {name: iPhone, host: external}
                  - {name: Light, host: external, program: \(light)}
                actions:
                \(actions)
                """.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try run([path])
            #expect(result.status != 0)
            return result.stderr
        }
        let add = "  - {at: 1, notification: {device: iPhone, do: add, id: n, category: %@, app: com.example}}"
        let category = try refused(add.replacingOccurrences(of: "%@", with: "gossip"))
        #expect(category.contains("actions[0]") && category.contains("\"gossip\" is not an ANCS category; use other, incomingCall"), "\(category)")
        let nothing = try refused("  - {at: 1, notification: {device: iPhone, do: remove, id: n}}")
        #expect(nothing.contains("actions[0]") && nothing.contains("no notification \"n\" is posted at 1.0 s to remove"), "\(nothing)")
        let notPhone = try refused("  - {at: 1, notification: {device: Light, do: add, id: n, category: social, app: com.example}}")
        #expect(notPhone.contains("\"Light\" is not the first host: external device (\"iPhone\")"), "\(notPhone)")
        let unknown = try refused(add.replacingOccurrences(of: "%@", with: "social"), light: "lava-lamp")
        #expect(unknown.contains("\"Light\" runs \"lava-lamp\", which is no accessory program ble sim run knows; use one of notification-light"),
                "\(unknown)")
    }
}
