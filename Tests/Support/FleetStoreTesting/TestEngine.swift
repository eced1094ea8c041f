import Foundation

/// The engines a store or back-end test runs on: SQLite always, PostgreSQL when
/// `SWIFTBLE_TEST_POSTGRES` names a server (docs/store.md, "Tests").
public enum TestEngine: String, CustomStringConvertible, Sendable, CaseIterable {
    /// The embedded engine, in a temporary directory of the test's own.
    case sqlite
    /// The fleet engine, in a database of the test's own on the `SWIFTBLE_TEST_POSTGRES` server.
    case postgres

    /// The engine's name, as the test's argument is shown.
    public var description: String { rawValue }

    /// SQLite, and PostgreSQL when a server is configured (a line says why it is skipped otherwise).
    public static var available: [TestEngine] { PostgresTesting.isConfigured ? [.sqlite, .postgres] : [.sqlite] }
}

/// A fresh, empty directory under the system's temporary directory, for a test's files.
public func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "ble-store-\(UInt64.random(in: 0 ... UInt64.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
