import Foundation
import SimulatedTesting
import Testing

/// `ble sim run` of the phone scenarios whose app runs a program (Examples/HeartRateMonitor,
/// written for Core Bluetooth): the heart-rate app killed by the system mid-workout and
/// restored, and the one the user force-quits. Their stories run on virtual time, so each
/// assertion is about what happened when, not about how long the run took.
@Suite("ble sim run plays a phone's programs", .serialized, .ownThread)
struct PhoneProgramCommandLineTests {
    /// One line of a run's `--json` story.
    private struct Line {
        var time: Double
        var app: String
        var event: String
        var detail: String
    }

    private func story(_ scenario: String, _ extra: String...) throws -> (lines: [Line], text: String) {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let result = try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable, "sim", "run", scenario, "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").compactMap { text -> Line? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let time = object["time"] as? Double, let app = object["app"] as? String,
                  let event = object["event"] as? String, let detail = object["detail"] as? String else { return nil }
            return Line(time: time, app: app, event: event, detail: detail)
        }
        return (lines, result.stdout)
    }

    @Test("Killed by the system mid-workout, the app is relaunched by a measurement, restored first, and no beat is lost")
    func restoredMidWorkout() throws {
        let (lines, _) = try story("heart-rate-restore")
        let terminated = try #require(lines.firstIndex { $0.event == "state" && $0.detail.hasSuffix("→ terminated (system)") })
        let relaunch = try #require(lines.firstIndex { $0.event == "relaunched" }, "no relaunch")
        #expect(relaunch > terminated)
        #expect(lines[relaunch].detail.hasPrefix("didUpdateValueFor 2A37"))
        // Core Bluetooth's order after a relaunch (§9, rule 14): restore, state, then the event.
        let after = lines[(relaunch + 1)...].filter { $0.event == "deliver" }.prefix(3).map(\.detail)
        #expect(after.count == 3)
        #expect(after.first?.hasPrefix("willRestoreState Polar H10") == true, "\(after)")
        #expect(after.dropFirst().first == "didUpdateState poweredOn", "\(after)")
        #expect(after.last?.hasPrefix("didUpdateValueFor 2A37") == true, "\(after)")
        // The strap notifies once a second: every second of the workout has its beat, before,
        // across and after the termination, the one that relaunched the app included.
        let beats = lines.filter { $0.event == "log" && $0.detail.hasSuffix(" bpm") }.map(\.time)
        #expect(beats.count >= 40, "\(beats)")
        let gaps = zip(beats.dropFirst(), beats).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 < 1.1 }, "\(gaps)")
        #expect(lines.contains { $0.event == "log" && $0.detail.hasPrefix("restored with") })
        // After the relaunch the app is woken, never launched by the user.
        #expect(!lines[relaunch...].contains { $0.event == "state" && $0.detail.hasSuffix("→ foreground") })
    }

    @Test("Force-quit, the app is not relaunched and hears nothing until the user opens it again")
    func forceQuitNotRelaunched() throws {
        let (lines, _) = try story("heart-rate-force-quit")
        let quit = try #require(lines.firstIndex { $0.event == "state" && $0.detail.hasSuffix("→ terminated (forceQuit)") })
        let reopened = try #require(lines.firstIndex { $0.event == "state" && $0.detail == "terminated (forceQuit) → foreground" })
        let between = lines[(quit + 1) ..< reopened]
        #expect(!lines.contains { $0.event == "relaunched" })
        #expect(!between.contains { $0.event == "deliver" || $0.event == "log" }, "\(between.map(\.detail))")
        // Its link ended with it; the user's launch starts from nothing and finds the strap again.
        #expect(between.contains { $0.event == "dropped" && $0.detail.hasPrefix("didDisconnectPeripheral") })
        let fresh = lines[reopened...].filter { $0.event == "deliver" }.map(\.detail)
        #expect(fresh.first == "didUpdateState poweredOn", "\(fresh)")
        #expect(fresh.contains { $0.hasPrefix("didDiscover Polar H10") })
        #expect(lines[reopened...].contains { $0.event == "log" && $0.detail.hasSuffix(" bpm") })
    }

    @Test("The same scenario and seed tell the same story, line for line; another seed is still a story")
    func deterministic() throws {
        let first = try story("heart-rate-restore").text.split(separator: "\n")
        let second = try story("heart-rate-restore").text.split(separator: "\n")
        let differing = zip(first, second).first { $0 != $1 }
        #expect(first == second, "first difference: \(differing.map { "\($0.0) | \($0.1)" } ?? "in length, \(first.count) and \(second.count) lines")")
        let reseeded = try story("heart-rate-restore", "--seed", "12")
        #expect(reseeded.lines.contains { $0.event == "relaunched" })
    }

    @Test("An unknown program, or a program app on a device without a host, is refused with the reason")
    func badPrograms() throws {
        let executable = try #require(bleExecutable())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("phone-programs-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unknown = directory.appendingPathComponent("unknown.yaml").path
        try """
            name: unknown program
            devices:
              - name: iPhone
                host: external
                apps: [{name: Pulse, program: step-counter}]
            """.write(toFile: unknown, atomically: true, encoding: .utf8)
        let refused = try runProcess(executable, ["sim", "run", unknown])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("\"step-counter\", which is no program ble sim run knows; use one of heart-rate-monitor"),
                "\(refused.stderr)")
        let hostless = directory.appendingPathComponent("hostless.yaml").path
        try """
            name: hostless
            devices:
              - name: iPhone
                apps: [{name: Pulse, program: heart-rate-monitor}]
            """.write(toFile: hostless, atomically: true, encoding: .utf8)
        let noHost = try runProcess(executable, ["sim", "run", hostless])
        #expect(noHost.status != 0)
        #expect(noHost.stderr.contains("devices[0]") && noHost.stderr.contains("give the device host: external"), "\(noHost.stderr)")
    }
}
