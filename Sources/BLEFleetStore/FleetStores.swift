import Logging

/// Opens a fleet store from a database URL, whichever engine it names.
public enum FleetStores {
    /// Opens the store `url` names and checks that it answers (``FleetStore/ping()``); it does not migrate.
    ///
    /// - Parameters:
    ///   - url: `sqlite:PATH`, `sqlite::memory:` or `postgres://…` (see ``DatabaseURL``);
    ///     ``DatabaseURL/defaultURL`` when the user gave none.
    ///   - logger: Where the store logs.
    ///   - environment: Where the `PG*` variables are read (the process environment by default).
    /// - Returns: The open store.
    /// - Throws: ``FleetStoreError/invalidURL(_:reason:)`` for a URL of no accepted form, and the
    ///   open or connect errors of the engine.
    public static func open(_ url: String, logger: Logger = Logger(label: "ble.fleet.store"),
                            environment: [String: String] = DatabaseURL.processEnvironment()) async throws(FleetStoreError) -> any FleetStore {
        try await open(try DatabaseURL(parsing: url, environment: environment), logger: logger)
    }

    /// Opens the store `url` names and checks that it answers; it does not migrate.
    public static func open(_ url: DatabaseURL, logger: Logger = Logger(label: "ble.fleet.store")) async throws(FleetStoreError) -> any FleetStore {
        let store: any FleetStore
        switch url {
        case .sqlite(let path): store = SQLiteFleetStore(path: path, logger: logger)
        case .sqliteInMemory: store = SQLiteFleetStore(path: ":memory:", logger: logger)
        case .postgres(let target): store = PostgresFleetStore(configuration: target, logger: logger)
        }
        do throws(FleetStoreError) {
            try await store.ping()
        } catch {
            await store.close()
            throw error
        }
        return store
    }
}
