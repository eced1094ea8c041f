import BLE
import BLEPhone
import BLESystems
import BLEWorld
import Foundation

/// What the phone systems' tests share: the world's truth of where devices were, read from the
/// scenario's routes, the date virtual time 0 is, and host names of their own.
enum PhoneSystems {
    /// 2026-01-01T00:00:00Z: the date virtual time 0 is, for the apps' clocks.
    static let epochSeconds = 1_767_225_600.0

    /// The path of a bundled scenario's file in Scenarios/.
    static func scenarioPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/\(name).yaml").standardizedFileURL.path
    }

    /// A host name no other test uses: the phone that serves a host is process-wide.
    static func uniqueHost(_ name: String) -> String {
        "\(name)-\(UInt32.random(in: 0 ... .max)).sim"
    }

    /// The date of virtual time `microseconds`.
    static func date(_ microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: epochSeconds + Double(microseconds) / 1e6)
    }

    /// Virtual seconds of a time in microseconds since 1970 on an app's clock.
    static func seconds(sinceEpoch microseconds: Int64) -> Double {
        Double(microseconds) / 1e6 - epochSeconds
    }

    /// The scenario's devices built into a world that is never run: their positions at any
    /// time come from their routes, which is the truth the systems are judged against.
    struct Truth {
        let world: World
        let built: BuiltScenario

        init(_ scenario: Scenario) throws {
            world = World(configuration: scenario.worldConfiguration)
            built = try scenario.build(into: world)
        }

        /// Where the device called `name` is at `seconds`.
        func position(of name: String, at seconds: Double) -> Vector3? {
            built.id(of: name).map { world.position(of: $0, at: Int64((seconds * 1e6).rounded())) }
        }
    }
}

/// The back end's answers recorded, for tests that play a phone system of their own.
typealias RecordingBackend = BLESystems.RecordingBackend

/// `value` with one decimal, for the tests' printed figures.
func tenths(_ value: Double) -> String {
    String(format: "%.1f", value)
}
