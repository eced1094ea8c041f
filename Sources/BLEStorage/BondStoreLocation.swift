import BLEWire
import Foundation

/// Where an adapter's bond store lives when no path is given (docs/bonds.md): the file
/// `$SWIFTBLE_BONDS` names, else `bonds-<adapter>.json` in `$XDG_DATA_HOME/swiftble`, else
/// in `~/.local/share/swiftble`.
///
/// `<adapter>` is the controller's public address (Read BD_ADDR, Core 5.4, Vol 4, Part E,
/// §7.4.6) when it has one: the bonds belong to the controller, and a served world's
/// device keeps its address whatever TCP port it is served on this time. A controller
/// without a public address is named by its `--hci` spec instead.
public enum BondStoreLocation {
    /// The environment variable that names the store file outright.
    public static let environmentVariable = "SWIFTBLE_BONDS"

    /// The default store path for a controller.
    ///
    /// - Parameters:
    ///   - hci: the controller spec (`sim`, `hci:0`, `tcp:127.0.0.1:6402`, …); it names the
    ///     file when `controllerAddress` is `nil` or all zeros, with every character other
    ///     than letters, digits, `.` and `_` replaced by `-` (`hci-0`, `tcp-127.0.0.1-6402`).
    ///   - controllerAddress: the controller's public address, when known; it names the file
    ///     as `bonds-C0-5B-1E-00-00-01.json`. A store named after the spec is still used while
    ///     no store named after the address exists, so bonds kept before the address was
    ///     known are not left behind.
    ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
    /// - Returns: the path, or `nil` when neither `SWIFTBLE_BONDS`, `XDG_DATA_HOME` nor
    ///   `HOME` is set.
    public static func defaultPath(hci: String, controllerAddress: BluetoothAddress? = nil, environment: [String: String]) -> String? {
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return explicit }
        let directory: String
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            directory = data + "/swiftble"
        } else if let home = environment["HOME"], !home.isEmpty {
            directory = home + "/.local/share/swiftble"
        } else {
            return nil
        }
        let bySpec = directory + "/bonds-\(adapterName(hci: hci)).json"
        guard let name = addressName(controllerAddress) else { return bySpec }
        let byAddress = directory + "/bonds-\(name).json"
        let files = FileManager.default
        if !files.fileExists(atPath: byAddress), files.fileExists(atPath: bySpec) { return bySpec }
        return byAddress
    }

    /// Whether the default path depends on the controller: neither `$SWIFTBLE_BONDS` nor a
    /// missing home makes it fixed, so a caller without the controller's address must ask
    /// the controller first.
    public static func needsControllerAddress(environment: [String: String]) -> Bool {
        guard environment[environmentVariable].map(\.isEmpty) ?? true else { return false }
        return defaultPath(hci: "sim", environment: environment) != nil
    }

    /// The adapter part of a default file name: the spec with unsafe characters as `-`.
    public static func adapterName(hci: String) -> String {
        let safe = hci.map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_") ? character : "-"
        }
        return safe.isEmpty ? "sim" : String(safe)
    }

    /// The address part of a default file name (`C0-5B-1E-00-00-01`), or `nil` for no
    /// address or the all-zero address a controller without one reports.
    public static func addressName(_ address: BluetoothAddress?) -> String? {
        guard let address, address.value != 0 else { return nil }
        return address.description.split(separator: ":").joined(separator: "-")
    }
}
