import BLEFleetStore
import Foundation
import Logging

/// The fleet store a dashboard reads (and its world's gateways write): the one `--store`
/// names, which must already hold the gateway schema, or a new SQLite file in a temporary
/// directory, migrated, that ``close()`` removes.
public struct DashboardStore: Sendable {
    /// The open store.
    public let store: any FleetStore
    /// What the page and the logs call it.
    public let url: String
    private let temporaryDirectory: String?

    /// Opens the store `url` names and checks that it holds the gateway schema, without
    /// migrating it: a dashboard only reads (and writes sightings into) a store the fleet made.
    /// - Throws: ``DashboardError/store(url:reason:)`` when it cannot be opened,
    ///   ``DashboardError/noGatewaySchema(url:reason:)`` when it has no sightings or gateways table.
    public static func open(_ url: String, logger: Logger = Logger(label: "ble.dashboard.store")) async throws(DashboardError) -> DashboardStore {
        let store: any FleetStore
        do {
            store = try await FleetStores.open(url, logger: logger)
        } catch {
            throw .store(url: url, reason: error.description)
        }
        do {
            _ = try await store.gateways()
            _ = try await store.count()
        } catch {
            await store.close()
            throw .noGatewaySchema(url: url, reason: error.description)
        }
        return DashboardStore(store: store, url: url, temporaryDirectory: nil)
    }

    /// A new SQLite store in a temporary directory, migrated, for a world's gateways to write.
    public static func temporary(logger: Logger = Logger(label: "ble.dashboard.store")) async throws(DashboardError) -> DashboardStore {
        let directory = NSTemporaryDirectory() + "swiftble-dashboard-" + UUID().uuidString
        let path = directory + "/fleet.sqlite"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .store(url: "sqlite:" + path, reason: "\(error.localizedDescription)")
        }
        let store = SQLiteFleetStore(path: path, logger: logger)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            try? FileManager.default.removeItem(atPath: directory)
            throw .store(url: "sqlite:" + path, reason: error.description)
        }
        return DashboardStore(store: store, url: "sqlite:" + path, temporaryDirectory: directory)
    }

    /// Closes the store, and removes its file when it was a temporary one.
    public func close() async {
        await store.close()
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }
}
