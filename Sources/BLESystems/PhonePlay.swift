import BLE
import BLEFleetSimulation
import BLETime
import Foundation
import Synchronization

/// What the phone systems (ride log, stolen car) share: a simulation of their own whose time
/// waits for the main actor (their apps' delegates run there), the date virtual time 0 is,
/// host names no other run in the process uses, and a phone's timeline as story lines.
enum PhonePlay {
    /// The date of virtual time 0 for the apps' clocks: the fleet's epoch, 2026-01-01T00:00:00Z.
    static let epoch = FleetWorldRun.defaultEpoch

    /// The date of virtual time `microseconds`.
    static func date(_ microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(epoch + microseconds) / 1e6)
    }

    private static let hosts = Atomic<Int>(0)

    /// A host name of its own for `name`: a phone serving a host is process-wide, and two runs
    /// (two tests) may be under way at once. ``normalized(_:hosts:)`` gives the story the plain name.
    static func uniqueHost(_ name: String) -> String {
        "\(name)-\(hosts.add(1, ordering: .relaxed).newValue).sim"
    }

    /// `lines` with each unique host written as its plain name (`rides-3.sim` → `rides.sim`),
    /// so that runs in one process tell the same story.
    static func normalized(_ lines: [SystemStoryLine], hosts: [String: String]) -> [SystemStoryLine] {
        lines.map { line in
            var line = line
            for (unique, plain) in hosts {
                line.text = line.text.replacingOccurrences(of: unique, with: plain)
                line.who = line.who.replacingOccurrences(of: unique, with: plain)
            }
            return line
        }
    }

    /// Runs `body` on a simulation of its own, seeded with `seed`, at full speed; the
    /// simulation's time moves only once the main queue has drained.
    static func inSimulation<T: Sendable>(seed: UInt64, _ body: @escaping @MainActor @Sendable (VirtualClock) async throws -> T) async throws -> T {
        let simulation: Simulation
        do {
            simulation = try Simulation(seed: seed, waitsForMainQueue: true, name: "ble-system")
        } catch {
            throw SystemError("the simulated world could not start: \(error)")
        }
        let clock = simulation.clock
        // Before anything in the process makes `URLSession.shared`, or the apps' requests
        // would go to the real network (SimulatedNetworkProtocol.register()).
        SimulatedNetworkProtocol.register()
        do {
            let result = try await simulation.run { try await body(clock) }
            await simulation.finish()
            return result
        } catch {
            await simulation.finish()
            throw error
        }
    }

    /// The phone's timeline as story lines of `device`: app states, what the system delivered,
    /// requests over the cellular link, and notifications with where they were shown.
    static func lines(of phone: SimulatedPhone, device: String) -> [SystemStoryLine] {
        phone.timeline.map { entry in
            SystemStoryLine(time: entry.time, actor: .phone, who: device, text: withoutTime(entry.description))
        }
    }

    /// `"12.600 s  Bus: suspended → background"` without its leading time.
    static func withoutTime(_ text: String) -> String {
        guard let range = text.range(of: " s  ") else { return text }
        return String(text[range.upperBound...])
    }

    /// `text` with the line under `device`'s own entry made the attached device: Core
    /// Location's manager opens `sim:FILE` on the first `host: external` device, so each phone
    /// of a scenario gets the same world, heard from where that phone is.
    static func text(_ text: String, attachingHostTo device: String) throws(SystemError) -> String {
        let line = "  - name: \(device)\n"
        guard let range = text.range(of: line) else { throw SystemError("the scenario has no device \"\(device)\" to attach a phone to") }
        return text.replacingCharacters(in: range, with: line + "    host: external\n")
    }
}
