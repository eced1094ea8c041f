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
        try parse(yaml: yaml, file: file, resolver: nil)
    }

    /// ``parse(yaml:file:)`` with the YAML tags resolved by `resolver` instead of
    /// `YAMLDocument.resolver(for:)`'s choice, and decoded as `decoding` says: tests compare
    /// the fast path with Yams' default resolver and decoder.
    static func parse(yaml: String, file: String?, resolver: Resolver?,
                      decoding: YAMLDocument.Decoding = .fastest) throws(ScenarioError) -> Scenario {
        try YAMLDocument.decode(
            ScenarioFile.self, yaml: yaml, file: file, emptyMessage: "the file is empty; a scenario needs at least devices",
            resolver: resolver, decoding: decoding,
            validate: { file throws(ScenarioError) in try file.scenario.validate() },
            locate: { error, node in
                if error.device == nil { error.device = deviceName(in: node, path: error.path) }
            }).scenario
    }

    /// The name of the device a path points into, if it does.
    static func deviceName(in node: Node, path: String) -> String? {
        let parts = YAMLDocument.steps(path)
        guard parts.count >= 2, case .key("devices") = parts[0], case let .index(index) = parts[1],
              let devices = node["devices"], let device = YAMLDocument.child(devices, .index(index)) else { return nil }
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
        try validateCopies(names: names)
        try validatePeriodicSyncs(names: names)
        try validateAttacks(names: names)
        // The one host a run attaches goes to the first `host: external` device.
        let external = devices.indices.filter { devices[$0].host == .external }
        if let first = external.first, let program = devices[first].program {
            throw ScenarioError(.invalidField, path: "devices[\(first)].program", device: devices[first].name,
                                message: "the first host: external device is the run's phone, which runs no accessory program "
                                    + "(\(program)); put the phone first")
        }
        for index in external.dropFirst() where devices[index].apps.contains(where: { $0.program != nil }) {
            throw ScenarioError(.invalidField, path: "devices[\(index)].apps", device: devices[index].name,
                                message: "apps that run programs must be on the first host: external device (\""
                                    + devices[external[0]].name + "\"), the one a run's host attaches to")
        }
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
            case let .app(name, app, _):
                guard let phone = device(named: name), !phone.apps.isEmpty else {
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: name,
                                        message: "\"\(name)\" is not a phone: it has no apps")
                }
                guard phone.apps.contains(where: { $0.name == app }) else {
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: name,
                                        message: "no app called \"\(app)\" is installed on \"\(name)\"; installed: "
                                            + phone.apps.map(\.name).joined(separator: ", "))
                }
            case let .preciseLocation(name, app, _):
                guard let phoneApp = device(named: name)?.apps.first(where: { $0.name == app }) else {
                    throw ScenarioError(.invalidField, path: "actions[\(index)].preciseLocation", device: name,
                                        message: "no app called \"\(app)\" is installed on \"\(name)\"")
                }
                guard phoneApp.program != nil else {
                    throw ScenarioError(.invalidField, path: "actions[\(index)].preciseLocation", device: name,
                                        message: "app \"\(app)\" runs no program, so it has no Core Location manager to hear "
                                            + "its Precise Location switch; give it program:")
                }
            case let .bluetooth(name, _), let .screen(name, _), let .network(name, _), let .airplaneMode(name, _),
                 let .controlCenterBluetooth(name, _), let .reboot(name), let .unlock(name):
                if device(named: name)?.apps.isEmpty ?? true {
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: name,
                                        message: "\"\(name)\" is not a phone: it has no apps")
                }
            case let .startAdvertising(name), let .stopAdvertising(name):
                if device(named: name)?.advertising == nil || device(named: name)?.host != .scripted {  // a GATT host advertises by itself
                    throw ScenarioError(.invalidField, path: "actions[\(index)]", device: name,
                                        message: "only a device with advertise can start or stop advertising")
                }
            default:
                break
            }
        }
        try validateNotifications()
        try validateFleet(names: names)
    }

    /// Zones have unique names and existing carriers, and when the scenario declares zones,
    /// each gateway reports for one of them.
    fileprivate func validateFleet(names: [String: Int]) throws(ScenarioError) {
        var zoneNames: Set<String> = []
        for (index, zone) in zones.enumerated() {
            guard zoneNames.insert(zone.name).inserted else {
                throw ScenarioError(.invalidField, path: "zones[\(index)].name",
                                    message: "two zones are called \"\(zone.name)\"; zone names must be unique")
            }
            if let carrier = zone.attachedTo, names[carrier] == nil {
                throw ScenarioError(.unknownDevice, path: "zones[\(index)].attachedTo",
                                    message: "zone \"\(zone.name)\" moves with \"\(carrier)\", which is no device; known: "
                                        + devices.map(\.name).joined(separator: ", "))
            }
        }
        guard !zones.isEmpty else { return }
        for (index, device) in devices.enumerated() {
            guard let gateway = device.gateway, !zoneNames.contains(gateway.zone) else { continue }
            throw ScenarioError(.invalidField, path: "devices[\(index)].gateway.zone", device: device.name,
                                message: "\"\(gateway.zone)\" is not a zone of the scenario; zones: "
                                    + zones.map(\.name).joined(separator: ", "))
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
