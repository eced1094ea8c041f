import Foundation
import Yams

/// A fleet file (`ble gateway --fleet FILE.yaml`): several gateways in one process, as a
/// simulated fleet on a served world runs them. Each entry takes the options of one `ble
/// gateway`:
///
/// ```yaml
/// gateways:
///   - {name: stop 1, hci: "tcp:127.0.0.1:7000", zone: stop 1, keep: {ibeacon: [3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64]}}
///   - {name: stop 2, hci: "tcp:127.0.0.1:7001", active: true}
/// ```
public enum FleetFile {
    /// The keys an entry accepts.
    static let entryKeys: Set<String> = ["name", "hci", "zone", "keep", "active"]

    /// Reads the gateways of the fleet file at `path`.
    /// - Throws: ``GatewayConfigurationError`` naming the file, the entry and what is wrong.
    public static func load(path: String) throws(GatewayConfigurationError) -> [GatewayConfiguration] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw GatewayConfigurationError("cannot read the fleet file \(path)")
        }
        return try parse(yaml: text, file: path)
    }

    /// Reads the gateways of a fleet file's text.
    /// - Throws: ``GatewayConfigurationError`` naming the entry and what is wrong.
    public static func parse(yaml: String, file: String = "fleet file") throws(GatewayConfigurationError) -> [GatewayConfiguration] {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            throw GatewayConfigurationError("\(file) is not YAML: \(error)")
        }
        guard let root = node?.mapping, let list = root["gateways"]?.sequence else {
            throw GatewayConfigurationError("\(file) needs a list `gateways:` of {name, hci, zone, keep, active}")
        }
        for key in root.keys.compactMap(\.string) where key != "gateways" {
            throw GatewayConfigurationError("\(file): unknown key \"\(key)\"; the file holds gateways:")
        }
        var configurations: [GatewayConfiguration] = []
        for (index, entry) in list.enumerated() {
            let place = "\(file), gateways[\(index)] (line \(entry.mark?.line ?? 0))"
            guard let mapping = entry.mapping else { throw GatewayConfigurationError("\(place): expected a mapping {name, hci, …}") }
            for key in mapping.keys.compactMap(\.string) where !entryKeys.contains(key) {
                throw GatewayConfigurationError("\(place): unknown key \"\(key)\"; use " + entryKeys.sorted().joined(separator: ", "))
            }
            guard let name = mapping["name"]?.string, let hci = mapping["hci"]?.string else {
                throw GatewayConfigurationError("\(place): every gateway needs name and hci")
            }
            var rules: [(kind: String, value: String)] = []
            if let keep = mapping["keep"] {
                guard let keepMapping = keep.mapping else { throw GatewayConfigurationError("\(place): keep must be a mapping of option → values") }
                for (key, value) in keepMapping {
                    let kind = key.string ?? ""
                    let values = value.sequence.map { $0.compactMap(\.string) } ?? value.string.map { [$0] } ?? []
                    rules += values.map { (kind: kind, value: $0) }
                }
            }
            let filter: GatewayFilter
            do {
                filter = try GatewayFilter(parsing: rules)
            } catch {
                throw GatewayConfigurationError("\(place): \(error)")
            }
            var configuration = GatewayConfiguration(name: name, hci: hci, zone: mapping["zone"]?.string, filter: filter)
            if let active = mapping["active"] {
                guard let flag = active.bool else { throw GatewayConfigurationError("\(place): active must be true or false") }
                configuration.scanning.active = flag
            }
            try configuration.validate()
            guard !configurations.contains(where: { $0.name == name }) else {
                throw GatewayConfigurationError("\(place): two gateways are called \"\(name)\"; names must be unique")
            }
            configurations.append(configuration)
        }
        guard !configurations.isEmpty else { throw GatewayConfigurationError("\(file) lists no gateway") }
        return configurations
    }
}
