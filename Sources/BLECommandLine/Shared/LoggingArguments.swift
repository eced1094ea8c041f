import ArgumentParser
import BLELogging

/// The logging options of every `ble` command, taken out of the arguments before the
/// command's own are parsed: `--log-level LEVEL` and `--log LAYER=LEVEL` (or `--opt=value`).
enum LoggingArguments {
    /// `arguments` without the logging options, after configuring ``BLELogging/BLELog``.
    /// - Throws: ``BLELog/SpecError`` for an unknown level or layer, or an option without its value.
    static func extract(from arguments: [String]) throws -> [String] {
        let (rest, spec) = try split(arguments)
        if let spec { try BLELog.configure(spec) }
        return rest
    }

    /// `arguments` without the logging options, and the level setting they make (a level
    /// for every layer first, so a layer's own setting wins whatever the order), checked.
    static func split(_ arguments: [String]) throws -> (rest: [String], spec: String?) {
        var rest: [String] = []
        var specs: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                rest += arguments[index...]
                break
            }
            if let value = value(of: "--log-level", in: arguments, at: &index) ?? value(of: "--log", in: arguments, at: &index) {
                guard let value else { throw BLELog.SpecError(description: "\(argument) needs a value") }
                specs.append(value)
            } else {
                rest.append(argument)
            }
            index += 1
        }
        let ordered = specs.filter { !$0.contains("=") } + specs.filter { $0.contains("=") }
        guard !ordered.isEmpty else { return (rest, nil) }
        let spec = ordered.joined(separator: ",")
        _ = try BLELog.level(of: "gap", under: spec)
        return (rest, spec)
    }

    /// The value of option `name` at `index` (`--name value`, moving `index` past it, or
    /// `--name=value`); `.some(nil)` when the value is missing, `nil` when it is another argument.
    private static func value(of name: String, in arguments: [String], at index: inout Int) -> String?? {
        let argument = arguments[index]
        if argument == name {
            guard index + 1 < arguments.count else { return .some(nil) }
            index += 1
            return .some(arguments[index])
        }
        if argument.hasPrefix(name + "=") { return .some(String(argument.dropFirst(name.count + 1))) }
        return nil
    }
}

/// The logging options as every command's `--help` shows them. ``LoggingArguments`` takes
/// them out of the arguments before a command is parsed, so these values stay empty; the
/// group is there so that a user finds the options where the others are.
struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"),
            help: "Log every layer at this level on stderr: trace, debug, info, notice, warning (the default), error or critical; as $SWIFTBLE_LOG does.")
    var level: String?

    @Option(name: .customLong("log"),
            help: ArgumentHelp("Log one layer at its own level, LAYER=LEVEL; repeatable. Layers: "
                + BLELog.layers.joined(separator: ", ") + ".", valueName: "layer=level"))
    var layers: [String] = []
}
