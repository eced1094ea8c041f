import Foundation
import Logging
import Synchronization

/// SwiftBLE's per-layer loggers (swift-log): `ble.hci`, `ble.l2cap`, `ble.att`, `ble.gatt`,
/// `ble.smp`, `ble.gap`, `ble.world`, `ble.adapter`, `ble.device`.
///
/// Each layer's logger lets through only what its level allows; by default `warning`, so a
/// program hears of problems and nothing else. `SWIFTBLE_LOG` sets the levels for any
/// program (`SWIFTBLE_LOG=debug`, or per layer `SWIFTBLE_LOG=gap=debug,smp=trace`), and the
/// `ble` command line's `--log-level` and `--log LAYER=LEVEL` do the same. Messages are built
/// only when their level is on (swift-log's autoclosures), so a quiet logger costs a level
/// comparison. Where the lines go is the process's swift-log backend (`LoggingSystem`);
/// `ble` sends them to standard error.
public enum BLELog {
    /// The layers, by the short names `--log` and `SWIFTBLE_LOG` take.
    public static let layers = ["hci", "l2cap", "att", "gatt", "smp", "gap", "world", "adapter", "device", "phone", "gateway", "store"]

    /// A level setting that could not be read.
    public struct SpecError: Error, CustomStringConvertible, Sendable {
        /// What was wrong, in one sentence.
        public let description: String

        /// An error saying `description`.
        public init(description: String) { self.description = description }
    }

    private struct Levels: Sendable {
        var all: Logger.Level = .warning
        var byLayer: [String: Logger.Level] = [:]
    }

    private static let levels = Mutex(Levels())
    private static let fromEnvironment: Void = {
        if let spec = ProcessInfo.processInfo.environment["SWIFTBLE_LOG"], !spec.isEmpty { try? configure(spec) }
    }()

    /// Sets levels from `spec`: a level for every layer (`debug`), or comma-separated
    /// `LAYER=LEVEL` pairs (`gap=debug,ble.smp=trace`), or both (`info,smp=trace`). Levels
    /// are swift-log's: trace, debug, info, notice, warning, error, critical.
    /// - Throws: ``SpecError`` naming an unknown layer or level.
    public static func configure(_ spec: String) throws(SpecError) {
        let update = try parse(spec, over: levels.withLock { $0 })
        levels.withLock { $0 = update }
    }

    /// The level `layer` gets under `spec` (``configure(_:)``'s syntax) from the default,
    /// without changing anything: for checking a setting.
    /// - Throws: ``SpecError`` naming an unknown layer or level.
    public static func level(of layer: String, under spec: String) throws(SpecError) -> Logger.Level {
        let parsed = try parse(spec, over: Levels())
        return parsed.byLayer[layer] ?? parsed.all
    }

    private static func parse(_ spec: String, over current: Levels) throws(SpecError) -> Levels {
        var update = current
        for part in spec.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard let level = Logger.Level(rawValue: pieces.last?.lowercased() ?? "") else {
                throw SpecError(description: "\"\(pieces.last ?? part)\" is not a log level; use trace, debug, info, notice, warning, error or critical")
            }
            if pieces.count == 1 {
                update.all = level
                update.byLayer = [:]
            } else {
                let layer = pieces[0].hasPrefix("ble.") ? String(pieces[0].dropFirst(4)) : pieces[0]
                guard layers.contains(layer) else {
                    throw SpecError(description: "\"\(pieces[0])\" is not a layer; use one of " + layers.joined(separator: ", "))
                }
                update.byLayer[layer] = level
            }
        }
        return update
    }

    /// The logger of `layer` (one of ``layers``), at its configured level.
    public static func logger(_ layer: String) -> Logger {
        _ = fromEnvironment
        var logger = Logger(label: "ble." + layer)
        logger.logLevel = levels.withLock { $0.byLayer[layer] ?? $0.all }
        return logger
    }
}
