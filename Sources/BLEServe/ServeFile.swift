import BLEHost
import BLEProfiles
import BLEWire
import BLEWorld
import Foundation

/// A serve file, as `ble serve FILE.yaml` takes it (DESIGN.md, "The command line"): the GATT
/// server a device offers and what it advertises.
///
/// ```yaml
/// name: Thermometer                 # advertised local name (optional)
/// advertise: [1809]                 # service UUIDs to advertise (optional)
/// services:
///   - uuid: "1809"                  # 16-, 32- or 128-bit
///     primary: true                 # default true
///     includes: ["180F"]            # services of this file it includes (optional)
///     characteristics:
///       - uuid: "2A1C"
///         properties: [read, write, writeWithoutResponse, notify, indicate]
///         permissions: [readable, writeable]
///         value: {hex: "00FF"}      # or {utf8: "text"}; omitted = dynamic
///         maximumLength: 512        # longest value a write may leave (optional, ≤ 512)
///         descriptors:
///           - uuid: "2901"
///             value: {utf8: "Temperature"}
///   - profile: battery              # a standard service from BLEProfiles, by name
/// ```
///
/// Properties: `broadcast`, `read`, `writeWithoutResponse`, `write`, `notify`, `indicate`,
/// `authenticatedSignedWrites` (Core 5.4, Vol 3, Part G, §3.3.1.1) and the extended
/// properties `reliableWrite`, `writableAuxiliaries` (§3.3.3.1). Permissions: `readable`,
/// `writeable`, `readEncryptionRequired`, `writeEncryptionRequired`,
/// `readAuthenticationRequired`, `writeAuthenticationRequired` (Part F, §3.2.5); when omitted
/// they follow the properties (`read` → readable; any write → writeable). Authorization is
/// not offered: `ble serve` has no app to ask.
///
/// A value given as `hex` or `utf8` is stored by the server and answered by the stack. An
/// omitted value is dynamic: the `ble serve` runtime keeps it (initially empty), stores each
/// write, answers reads with what was last written and notifies or indicates it to
/// subscribed clients. The Client Characteristic Configuration (0x2902) and Extended
/// Properties (0x2900) descriptors are added by the server from the properties and may not
/// be declared.
public struct ServeFile: Hashable, Sendable {
    /// The advertised local name.
    public var name: String?
    /// Service UUIDs to advertise.
    public var advertise: [BluetoothUUID]
    /// The GATT services, in file order (profile entries expanded to their definitions).
    public var services: [GATTServiceDefinition]
    /// The standard services among `services`, by index, so the runtime can drive their
    /// dynamic behaviour (heart-rate notifications, control points).
    public var profiles: [Int: StandardService]

    /// The longest local name: the Device Name characteristic's 248 octets (Core 5.4, Vol 3,
    /// Part C, §12.1).
    public static let maximumNameLength = 248

    /// Reads and checks the file at `path`.
    public static func load(path: String) throws(ServeFileError) -> ServeFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            // Foundation's sentence without its period, as a clause of ours.
            var reason = error.localizedDescription
            while reason.hasSuffix(".") { reason.removeLast() }
            throw ServeFileError(file: path, message: "cannot read the file (\(reason)); check the path")
        }
        return try parse(yaml: text, file: path)
    }

    /// Reads and checks a serve file from YAML text; `file` names it in errors.
    public static func parse(yaml: String, file: String? = nil) throws(ServeFileError) -> ServeFile {
        do {
            return try YAMLDocument.decode(ServeFileSection.self, yaml: yaml, file: file,
                                           emptyMessage: "the file is empty; a serve file needs services").file
        } catch {
            throw ServeFileError(error)
        }
    }
}

/// Why a serve file cannot be used: where (file, line, field path) and what is expected.
public struct ServeFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, when the text came from one.
    public var file: String?
    /// The 1-based line, when known.
    public var line: Int?
    /// The field, e.g. `services[0].characteristics[2].properties[1]`.
    public var path: String
    /// What is wrong, and what is expected.
    public var message: String

    /// An error with every field.
    public init(file: String? = nil, line: Int? = nil, path: String = "", message: String) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
    }

    /// The error the shared YAML reader reported.
    init(_ error: ScenarioError) {
        self.init(file: error.file, line: error.line, path: error.path, message: error.message)
    }

    /// `file:line: path: message`.
    public var description: String {
        var location = file ?? "serve file"
        if let line { location += ":\(line)" }
        return "\(location): \(path.isEmpty ? "" : path + ": ")\(message)"
    }
}
