import ArgumentParser
import BLEBackend
import BLEFleetStore
import Foundation
import Logging

/// `ble backend`: the fleet's HTTP JSON API over the store (docs/backend.md): where an identity
/// is and was, passages, visits and dwell per zone, ride logs and phones' sightings. The OpenAPI
/// document it keeps is served at `/openapi.yaml`.
struct BackendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Serve the fleet store as an HTTP JSON API (OpenAPI document at /openapi.yaml).",
        discussion: """
            Opens the store (migrating it to this version's schema), listens on --address:--port (port 0 picks a \
            free one) and prints one line READY {"port": N} once it accepts connections. --database takes \
            sqlite:PATH (the default, ble-fleet.sqlite) or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with \
            the PG* variables filling what a postgres:// URL leaves out. SIGINT or SIGTERM stops it.
            """
    )

    @Option(help: "sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var database: String = DatabaseURL.defaultURL

    @Option(help: "The port to listen on (0: a free one, printed in the READY line).")
    var port: Int = 8080

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var address: String = "127.0.0.1"

    @Option(help: "A JSON file of the Eddystone-EID beacons POST /eid/resolve knows (docs/backend.md).")
    var eidBeacons: String?

    @Flag(help: "Check the database (opened and migrated), then exit.")
    var check = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func validate() throws {
        guard (0 ... 65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard !address.isEmpty else { throw ValidationError("--address must name an address, e.g. 127.0.0.1 or 0.0.0.0") }
    }

    func run() async throws {
        var registry = EIDBeaconRegistry.none
        if let eidBeacons {
            do {
                registry = try EIDBeaconRegistry(contentsOf: eidBeacons)
            } catch {
                throw ValidationError("--eid-beacons: \(error)")
            }
        }
        let url: DatabaseURL
        do {
            url = try DatabaseURL(parsing: database)
        } catch {
            throw ValidationError("--database: \(error)")
        }
        let store: any FleetStore
        do {
            store = try await FleetStores.open(url, logger: Logger(label: "ble.fleet.store"))
        } catch {
            throw CommandFailure("Cannot open the store: \(error)")
        }
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw CommandFailure("Cannot migrate the store: \(error)")
        }
        if check {
            print("ok: the store \(url) is open and at schema version \(FleetSchema.currentVersion)")
            await store.close()
            return
        }
        let server = BackendServer(store: store, address: address, port: port, logger: Logger(label: "ble.backend"), eidBeacons: registry)
        do {
            // SIGINT and SIGTERM shut the server down gracefully (Hummingbird's service group).
            try await server.run(stopOnSignals: true, onReady: { port in
                FileHandle.standardOutput.write(Data("READY {\"port\": \(port)}\n".utf8))
            })
        } catch is CancellationError {
            // Stopped: a normal end.
        } catch {
            await store.close()
            throw CommandFailure("The back end stopped: \(error); check that \(address) is an address of this machine and port \(port) is free.")
        }
        await store.close()
    }
}
