import BLEScenarios
import BLEWorld
import Foundation

/// What a field system runs from: its scenario, the scenario's YAML text (the phones' Core
/// Location managers open the world from a file, as an app's `--hci sim:FILE` would), how long
/// to run, and where the fleet store lives.
public struct SystemSetup: Sendable {
    /// The scenario, with the seed to run.
    public var scenario: Scenario
    /// The scenario's YAML, with the same seed as ``scenario``.
    public var text: String
    /// Virtual seconds to run.
    public var seconds: Double
    /// The SQLite file of the fleet store; `nil` for a temporary file removed after the run.
    public var storePath: String?

    /// The field system the scenario names (its `system:` key).
    /// - Throws: ``SystemError`` when it names none, or one the registry does not know.
    public var system: FieldSystem {
        get throws(SystemError) { try FieldSystems.system(of: scenario) }
    }

    /// A setup from a scenario's YAML text.
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: the file's name, for errors.
    ///   - seed: the seed to run with instead of the file's (`--seed`).
    ///   - seconds: virtual seconds to run instead of the file's `duration` (`--until`).
    ///   - storePath: where the SQLite fleet store is kept; `nil` for a temporary file.
    /// - Throws: ``SystemError`` when the text is not a scenario.
    public init(text: String, file: String, seed: UInt64? = nil, seconds: Double? = nil, storePath: String? = nil) throws(SystemError) {
        var text = text
        if let seed { text = Self.replacingSeed(in: text, with: seed) }
        do {
            scenario = try ScenarioLoader.parse(yaml: text, file: file)
        } catch {
            throw SystemError("\(error)")
        }
        if let seed, scenario.seed != seed {
            throw SystemError("\(file): the seed could not be set to \(seed); give the file a top-level \"seed:\" line")
        }
        self.text = text
        self.seconds = seconds ?? scenario.durationSeconds ?? 10
        self.storePath = storePath
    }

    /// A setup from a bundled scenario's name (`ride-log`) or a path to a YAML file.
    /// - Throws: ``SystemError`` when neither names a scenario, or it does not parse.
    public init(named argument: String, seed: UInt64? = nil, seconds: Double? = nil, storePath: String? = nil) throws(SystemError) {
        if let text = BundledScenarios.yaml(named: argument) {
            try self.init(text: text, file: argument + ".yaml", seed: seed, seconds: seconds, storePath: storePath)
            return
        }
        let text: String
        do {
            text = try String(contentsOfFile: argument, encoding: .utf8)
        } catch {
            throw SystemError("cannot read the scenario \(argument): give a bundled scenario's name (" + BundledScenarios.names.joined(separator: ", ")
                              + ") or a readable .yaml file")
        }
        try self.init(text: text, file: argument, seed: seed, seconds: seconds, storePath: storePath)
    }

    /// `text` with its top-level `seed:` line saying `seed` (one added after the first line
    /// when it has none).
    static func replacingSeed(in text: String, with seed: UInt64) -> String {
        var lines = text.components(separatedBy: "\n")
        if let index = lines.firstIndex(where: { $0.hasPrefix("seed:") }) {
            lines[index] = "seed: \(seed)"
        } else {
            let name = lines.firstIndex { $0.hasPrefix("name:") } ?? -1
            lines.insert("seed: \(seed)", at: name + 1)
        }
        return lines.joined(separator: "\n")
    }

    /// Virtual microseconds of ``seconds``.
    var microseconds: Int64 { Int64((seconds * 1e6).rounded()) }
}
