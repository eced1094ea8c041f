import BLEFleetStore
import Foundation
import Testing

/// The PostgreSQL server the tests use, when `SWIFTBLE_TEST_POSTGRES` names one: the store's
/// tests and the back end's make their databases on it and drop them afterwards.
public enum PostgresTesting {
    /// The admin URL, or `nil` (and a line saying why the PostgreSQL tests are skipped, once).
    public static let adminURL: String? = {
        if let url = ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES"], !url.isEmpty { return url }
        print("PostgreSQL tests skipped: SWIFTBLE_TEST_POSTGRES is not set (eval \"$(scripts/test-postgres.sh start)\" starts a throwaway cluster; .ci/run does)")
        return nil
    }()

    /// The script that stops and starts servers (`SWIFTBLE_TEST_POSTGRES_CTL`).
    public static let controlScript: String? = ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES_CTL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether a server is configured, so that the PostgreSQL cases run.
    public static var isConfigured: Bool { adminURL != nil }

    /// The server's admin connection, from `SWIFTBLE_TEST_POSTGRES`.
    public static func adminTarget() throws -> PostgresTarget {
        guard let adminURL, case .postgres(let target) = try DatabaseURL(parsing: adminURL) else {
            throw FleetStoreError.invalidURL(adminURL ?? "", reason: "SWIFTBLE_TEST_POSTGRES is not a postgres:// URL")
        }
        return target
    }

    /// Creates `swiftble_t_<random>` so that tests run in parallel without sharing tables.
    public static func makeDatabase() async throws -> PostgresTarget {
        let admin = PostgresFleetStore(configuration: try adminTarget())
        let name = "swiftble_t_\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        do {
            try await admin.runStatement("CREATE DATABASE \(name)")
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
        return try adminTarget().with(database: name)
    }

    /// Drops the database `name` made by ``makeDatabase()``, with whatever is still connected to it.
    public static func dropDatabase(_ name: String) async {
        guard let target = try? adminTarget() else { return }
        let admin = PostgresFleetStore(configuration: target)
        try? await admin.runStatement("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        await admin.close()
    }

    /// Runs the cluster script with `arguments` and extra environment, its output to /dev/null.
    /// (posix_spawn and waitpid: Foundation's Process.waitUntilExit was seen never to return here.)
    public static func control(_ arguments: [String], environment: [String: String]) throws {
        guard let controlScript else { throw FleetStoreError.invalidURL("", reason: "SWIFTBLE_TEST_POSTGRES_CTL is not set") }
        let argv = ["/usr/bin/env"] + environment.map { "\($0)=\($1)" } + ["/bin/bash", controlScript] + arguments
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw FleetStoreError.spoolIOError(path: controlScript, reason: "posix_spawn failed (\(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "\(controlScript) \(arguments) exited with status \(status)")
    }
}
