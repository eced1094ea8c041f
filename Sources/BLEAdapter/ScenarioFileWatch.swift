import BLEWorld
import Synchronization

/// Watchers of the embedded worlds opened from one scenario file (`--hci sim:FILE.yaml`),
/// called as each such world is built and before it runs: the place for a program that
/// opens a world through an app's `--hci` spec (a simulated phone's Core Location manager)
/// to see what happens in that world, e.g. what the app's device receives
/// (``BLEWorld/World/onReception``). A watcher is kept under the file's path exactly as
/// the spec spells it; a path unique to the caller keeps runs in one process apart.
public enum ScenarioFileWatch {
    /// What a watcher is given: the world as built, and the device the host is attached to.
    /// It runs as the world is opened, before its first event; it may install
    /// hooks on the world (chaining any already there) but must not run it.
    public typealias Watcher = @Sendable (_ built: BuiltScenario, _ world: World, _ hostDevice: DeviceID) -> Void

    private static let watchers = Mutex<[String: Watcher]>([:])

    /// Calls `watcher` for every world opened from `path` (`sim:PATH`) until
    /// ``stopWatching(_:)``; a second watcher for the same path replaces the first.
    public static func watch(_ path: String, _ watcher: @escaping Watcher) {
        watchers.withLock { $0[path] = watcher }
    }

    /// Stops watching the worlds opened from `path`.
    public static func stopWatching(_ path: String) {
        _ = watchers.withLock { $0.removeValue(forKey: path) }
    }

    /// The watcher of `path`, if any.
    static func watcher(of path: String) -> Watcher? {
        watchers.withLock { $0[path] }
    }
}
