import BLEFleetStore
import Hummingbird
import Logging
import NIOCore

/// The fleet back end as a server: Hummingbird 2 serving ``BackendRoutes`` over a fleet store,
/// for `ble backend` and the tests (docs/backend.md).
///
/// `run` serves until its task is cancelled or, for `ble backend`, until SIGINT or SIGTERM;
/// port 0 asks the system for a free port, which `onReady` is told. (Cancelling logs two
/// harmless errors from Hummingbird's server about the closed channel; signals do not.)
public struct BackendServer: Sendable {
    /// The store answered from; it must be migrated (``FleetStore/migrate()``) before serving.
    public var store: any FleetStore
    /// The address listened on: `127.0.0.1` by default, `0.0.0.0` for every interface.
    public var address: String
    /// The port listened on; 0 picks a free one.
    public var port: Int
    /// Where the server logs.
    public var logger: Logger
    /// The Eddystone-EID beacons `POST /eid/resolve` resolves (`--eid-beacons FILE`).
    public var eidBeacons: EIDBeaconRegistry

    /// A server over `store` on `address:port`, resolving the identifiers of `eidBeacons`.
    public init(store: any FleetStore, address: String = "127.0.0.1", port: Int = 0, logger: Logger = Logger(label: "ble.backend"),
                eidBeacons: EIDBeaconRegistry = .none) {
        self.store = store
        self.address = address
        self.port = port
        self.logger = logger
        self.eidBeacons = eidBeacons
    }

    /// Serves until the calling task is cancelled, or, with `stopOnSignals`, until SIGINT or
    /// SIGTERM shuts it down gracefully (open requests are answered first).
    ///
    /// - Parameters:
    ///   - stopOnSignals: Whether SIGINT and SIGTERM stop the server (`ble backend`); a test
    ///     leaves this off and cancels the task.
    ///   - onReady: Called once with the port listened on, when the server accepts connections.
    /// - Throws: When the address cannot be bound (in use, not an address of this machine).
    public func run(stopOnSignals: Bool = false, onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = BackendRoutes.router(BackendQueries(store: store, eidBeacons: eidBeacons))
        let requested = port
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(address, port: port), serverName: "SwiftBLE-backend"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? requested) },
            logger: logger
        )
        if stopOnSignals {
            // Hummingbird's service group catches SIGTERM and SIGINT and shuts down gracefully.
            try await application.runService()
        } else {
            try await application.runService(gracefulShutdownSignals: [])
        }
    }
}
