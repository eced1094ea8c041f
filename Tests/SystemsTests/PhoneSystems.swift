import BLE
import BLEPhone
import BLEWorld
import Foundation
import Synchronization

/// What the phone systems' tests share: a server that counts the back end's answers, and the
/// world's truth of where devices were, read from the scenario's routes.
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

    /// Virtual seconds of a time in microseconds since 1970 that ``date(_:)`` made.
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

/// A network server in front of another that records every answer it gives.
final class RecordingBackend: NetworkServer {
    private let server: any NetworkServer
    private let log = Mutex<[(request: NetworkRequest, response: NetworkResponse)]>([])

    init(_ server: any NetworkServer) {
        self.server = server
    }

    /// The exchanges so far, in order.
    var exchanges: [(request: NetworkRequest, response: NetworkResponse)] { log.withLock { $0 } }

    func respond(to request: NetworkRequest) async -> NetworkResponse {
        let response = await server.respond(to: request)
        log.withLock { $0.append((request, response)) }
        return response
    }
}

/// `value` with one decimal, for the tests' printed figures.
func tenths(_ value: Double) -> String {
    String(format: "%.1f", value)
}
