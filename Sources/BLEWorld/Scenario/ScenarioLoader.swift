import Foundation
import Yams

/// Reads scenarios from YAML files or text, checks them and reports every problem as a
/// ``ScenarioError`` that names the file, line, device and field.
public enum ScenarioLoader {
    /// Reads and checks the scenario in the file at `path`.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError(.unreadable, file: path,
                                message: "cannot read the file (\(error.localizedDescription)); check the path")
        }
        return try parse(yaml: text, file: path)
    }

    /// Reads and checks a scenario from YAML text; `file` names it in errors.
    public static func parse(yaml: String, file: String? = nil) throws(ScenarioError) -> Scenario {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, file: file)
        }
        guard let node else {
            throw ScenarioError(.syntax, file: file, message: "the file is empty; a scenario needs at least devices")
        }
        do {
            let scenario = try YAMLDecoder().decode(ScenarioFile.self, from: node).scenario
            try scenario.validate()
            return scenario
        } catch var error as ScenarioError {
            error.file = file
            if error.line == nil { error.line = line(in: node, path: error.path) }
            if error.device == nil { error.device = deviceName(in: node, path: error.path) }
            throw error
        } catch let error as DecodingError {
            throw decodingError(error, node: node, file: file)
        } catch {
            throw ScenarioError(.invalidField, file: file, message: String(describing: error))
        }
    }

    private static func syntaxError(_ error: any Error, file: String?) -> ScenarioError {
        guard let yamlError = error as? YamlError else {
            return ScenarioError(.syntax, file: file, message: "not valid YAML: \(error)")
        }
        switch yamlError {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ScenarioError(.syntax, line: mark.line, file: file, message: "not valid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ScenarioError(.syntax, line: context.mark.line, file: file,
                                 message: "duplicate keys \(duplicates.joined(separator: ", ")) in one mapping")
        default:
            return ScenarioError(.syntax, file: file, message: "not valid YAML: \(yamlError)")
        }
    }

    private static func decodingError(_ error: DecodingError, node: Node, file: String?) -> ScenarioError {
        let (path, message): (String, String)
        switch error {
        case let .typeMismatch(type, context):
            (path, message) = (scenarioPath(context.codingPath), "expected \(type)")
        case let .valueNotFound(type, context):
            (path, message) = (scenarioPath(context.codingPath), "expected \(type), found nothing")
        case let .keyNotFound(key, context):
            (path, message) = (scenarioPath(context.codingPath), "missing \"\(key.stringValue)\"")
        case let .dataCorrupted(context):
            (path, message) = (scenarioPath(context.codingPath), context.debugDescription)
        @unknown default:
            (path, message) = ("", String(describing: error))
        }
        return ScenarioError(.invalidField, path: path, device: deviceName(in: node, path: path),
                             line: line(in: node, path: path), file: file, message: message)
    }

    /// Splits `devices[2].advertise.name` into keys and indices.
    private enum Step {
        case key(String)
        case index(Int)
    }

    private static func steps(_ path: String) -> [Step] {
        var steps: [Step] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let open = rest.firstIndex(of: "["), open != rest.startIndex {
                steps.append(.key(String(rest[..<open])))
                rest = rest[open...]
            } else if !rest.hasPrefix("[") {
                steps.append(.key(String(rest)))
                continue
            }
            for index in rest.split(separator: "[").compactMap({ Int($0.dropLast()) }) { steps.append(.index(index)) }
        }
        return steps
    }

    private static func child(_ node: Node, _ step: Step) -> Node? {
        switch step {
        case let .key(key):
            return node[key]
        case let .index(index):
            guard case let .sequence(sequence) = node, sequence.indices.contains(index) else { return nil }
            return sequence[index]
        }
    }

    /// The line of the deepest node along `path` that exists.
    static func line(in node: Node, path: String) -> Int? {
        var current = node
        var line = node.mark?.line
        for step in steps(path) {
            guard let next = child(current, step) else { break }
            current = next
            line = next.mark?.line ?? line
        }
        return line
    }

    /// The name of the device a path points into, if it does.
    static func deviceName(in node: Node, path: String) -> String? {
        let parts = steps(path)
        guard parts.count >= 2, case .key("devices") = parts[0], case let .index(index) = parts[1],
              let devices = node["devices"], let device = child(devices, .index(index)) else { return nil }
        return device["name"]?.string
    }
}

extension Scenario {
    /// Checks what one field cannot: unique device names and addresses, actions that name
    /// existing devices, and advertising data within the legacy 31-octet budget.
    public func validate() throws(ScenarioError) {
        var names: [String: Int] = [:]
        var addresses: [BluetoothAddressKey: String] = [:]
        for (index, device) in devices.enumerated() {
            if let first = names[device.name] {
                throw ScenarioError(.duplicateDevice, path: "devices[\(index)].name", device: device.name,
                                    message: "the name is already used by devices[\(first)]; names must be unique")
            }
            names[device.name] = index
            let key = BluetoothAddressKey(value: device.address.value, random: device.address.kind == .random)
            if let other = addresses[key] {
                throw ScenarioError(.duplicateDevice, path: "devices[\(index)].address", device: device.name,
                                    message: "\(device.address) is already the address of \"\(other)\"; addresses must be unique")
            }
            addresses[key] = device.name
            do {
                _ = try device.advertisingPlan()
            } catch {
                var located = error
                located.path = "devices[\(index)]." + error.path
                throw located
            }
        }
        try validateCarriage(names: names)
        for (index, attached) in attachedObstacles.enumerated() where names[attached.device] == nil {
            throw ScenarioError(.unknownDevice, path: "obstacles (attached \(index + 1))",
                                message: "obstacle \"\(attached.obstacle.name)\" is attached to \"\(attached.device)\", "
                                    + "which is no device; known: \(devices.map(\.name).joined(separator: ", "))")
        }
        for (index, timed) in actions.enumerated() {
            for name in timed.action.deviceNames where names[name] == nil {
                throw ScenarioError(.unknownDevice, path: "actions[\(index)]",
                                    message: "no device is called \"\(name)\"; known: \(devices.map(\.name).joined(separator: ", "))")
            }
            switch timed.action {
            case let .startAdvertising(name), let .stopAdvertising(name):
                if device(named: name)?.advertising == nil || device(named: name)?.host != .scripted {
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: name,
                                        message: "only a device with advertise can start or stop advertising")
                }
            default:
                break
            }
        }
    }
}

extension Scenario {
    /// Every carrier exists, and no device carries itself, directly or through others.
    fileprivate func validateCarriage(names: [String: Int]) throws(ScenarioError) {
        for (index, device) in devices.enumerated() {
            guard let carriage = device.carriedBy else { continue }
            guard names[carriage.device] != nil else {
                throw ScenarioError(.unknownDevice, path: "devices[\(index)].carriedBy", device: device.name,
                                    message: "no device is called \"\(carriage.device)\"; known: "
                                        + devices.map(\.name).joined(separator: ", "))
            }
            var visited: Set<String> = [device.name]
            var next: String? = carriage.device
            while let name = next {
                guard visited.insert(name).inserted else {
                    throw ScenarioError(.invalidField, path: "devices[\(index)].carriedBy", device: device.name,
                                        message: "the device would carry itself (through \"\(name)\"); carriers cannot form a loop")
                }
                next = self.device(named: name)?.carriedBy?.device
            }
        }
    }
}

/// An address with its kind, hashable for the uniqueness check.
private struct BluetoothAddressKey: Hashable {
    var value: UInt64
    var random: Bool
}
