import BLEFleetStore
import BLELogging
import Foundation

/// The SQLite fleet store a system's run writes to: the file its setup names, or a new one in
/// a temporary directory that ``close()`` removes.
struct SystemStore {
    /// The store, migrated.
    let store: SQLiteFleetStore
    /// The file.
    let path: String
    private let temporaryDirectory: String?

    /// Opens and migrates the store of `setup`.
    init(_ setup: SystemSetup) async throws {
        if let path = setup.storePath {
            self.path = path
            temporaryDirectory = nil
        } else {
            let directory = NSTemporaryDirectory() + "swiftble-system-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/fleet.sqlite"
            temporaryDirectory = directory
        }
        // The store's log lines follow --log-level and --log store=LEVEL, as every layer's do.
        store = SQLiteFleetStore(path: path, logger: BLELog.logger("store"))
        try await store.migrate()
    }

    /// Closes the store, and removes its file when it was a temporary one.
    func close() async {
        await store.close()
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }
}
