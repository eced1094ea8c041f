/// Why a scenario (or another YAML file read through ``YAMLDocument``) cannot be read or
/// built: one sentence that names the file, line, device and field where it can, so a user
/// fixes the file without guessing.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of problem.
    public enum Kind: String, Hashable, Sendable {
        /// The file could not be read.
        case unreadable
        /// The text is not valid YAML.
        case syntax
        /// A required field is absent.
        case missingField
        /// A field has the wrong type or a value out of range.
        case invalidField
        /// A key the scenario format does not know (often a typo).
        case unknownField
        /// Two devices share a name or an address.
        case duplicateDevice
        /// An action names a device the scenario does not have.
        case unknownDevice
        /// Advertising or scan response data exceeds the 31-octet legacy budget.
        case advertisingDataTooLong
        /// No built-in scenario has that name.
        case unknownBuiltIn
        /// The world cannot do what the scenario asks.
        case unsupported
    }

    /// The kind of problem.
    public var kind: Kind
    /// The field, as a path from the top: `devices[2].advertise.interval`.
    public var path: String
    /// The device concerned, by name, when known.
    public var device: String?
    /// The 1-based line in the YAML text, when known.
    public var line: Int?
    /// The file, when the scenario came from one.
    public var file: String?
    /// What is wrong, and what is expected.
    public var message: String

    /// An error with every field.
    public init(_ kind: Kind, path: String = "", device: String? = nil, line: Int? = nil, file: String? = nil,
                message: String) {
        self.kind = kind
        self.path = path
        self.device = device
        self.line = line
        self.file = file
        self.message = message
    }

    /// `file:line: device "name", path: message`.
    public var description: String {
        var location = file ?? "scenario"
        if let line { location += ":\(line)" }
        var subject: [String] = []
        if let device { subject.append("device \"\(device)\"") }
        if !path.isEmpty { subject.append(path) }
        let prefix = subject.isEmpty ? "" : subject.joined(separator: ", ") + ": "
        return "\(location): \(prefix)\(message)"
    }
}
