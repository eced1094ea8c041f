/// Negative numbers as option values: ArgumentParser reads `-5` as an option, so
/// `--seconds -5` failed with "Missing value for '--seconds'" while `--seconds=-5` reached the
/// command's own check. A long option followed by a negative number is joined with `=` before
/// parsing, so every option gets its value and says what it accepts (`--power -59` works as
/// `--power=-59` does; `--seconds -5` says that seconds must be more than 0).
enum NegativeNumberArguments {
    /// `arguments` with each `--name -N` (no `=` in `--name`, N a decimal number) written
    /// `--name=-N`; everything after `--` stays as it is.
    static func joined(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="),
               index + 1 < arguments.count, isNegativeNumber(arguments[index + 1]) {
                result.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            result.append(argument)
            index += 1
        }
        return result
    }

    /// Whether `text` is a negative decimal number: `-5`, `-0.5`, `-.5`, `-1e3`.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let rest = text.dropFirst()
        guard let first = rest.first, first.isASCII, first.isNumber || first == "." else { return false }
        return Double(text) != nil
    }
}
