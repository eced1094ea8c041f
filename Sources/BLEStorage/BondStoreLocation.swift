/// Where an adapter's bond store lives when no path is given (docs/bonds.md): the file
/// `$SWIFTBLE_BONDS` names, else `bonds-<adapter>.json` in `$XDG_DATA_HOME/swiftble`, else
/// in `~/.local/share/swiftble`.
public enum BondStoreLocation {
    /// The environment variable that names the store file outright.
    public static let environmentVariable = "SWIFTBLE_BONDS"

    /// The default store path for the adapter an `--hci` spec names.
    ///
    /// - Parameters:
    ///   - hci: the controller spec (`sim`, `hci:0`, `tcp:127.0.0.1:6402`, …); it becomes
    ///     the file name's adapter part with every character other than letters, digits,
    ///     `.` and `_` replaced by `-` (`hci-0`, `tcp-127.0.0.1-6402`).
    ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
    /// - Returns: the path, or `nil` when neither `SWIFTBLE_BONDS`, `XDG_DATA_HOME` nor
    ///   `HOME` is set.
    public static func defaultPath(hci: String, environment: [String: String]) -> String? {
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return explicit }
        let directory: String
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            directory = data + "/swiftble"
        } else if let home = environment["HOME"], !home.isEmpty {
            directory = home + "/.local/share/swiftble"
        } else {
            return nil
        }
        return directory + "/bonds-\(adapterName(hci: hci)).json"
    }

    /// The adapter part of a default file name: the spec with unsafe characters as `-`.
    public static func adapterName(hci: String) -> String {
        let safe = hci.map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_") ? character : "-"
        }
        return safe.isEmpty ? "sim" : String(safe)
    }
}
