import Yams

// The YAML form of fleets in a scenario: a device's `gateway:` and the file's `zones:`.

/// `gateway: {zone: "stop 1", keep: {ibeacon: [UUID], irk: ["rider=HEX"]}}`.
struct GatewaySection: Decodable {
    var gateway: ScenarioGateway

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["zone", "keep"])
        let zone = try fields.required("zone", String.self, expected: "the zone it reports for")
        guard !zone.isEmpty else { throw fields.error("zone", "a gateway's zone needs a non-empty name") }
        let keep = try fields.optional("keep", KeepSection.self, expected: "a mapping {ibeacon, eddystone, altbeacon, service, name, address, irk}")
        gateway = ScenarioGateway(zone: zone, keep: keep?.rules ?? [])
    }
}

/// `keep: {ibeacon: [UUID[:MAJOR[:MINOR]]], irk: [[NAME=]HEX], …}`: each key a `ble gateway` option, each value one text or a list.
struct KeepSection: Decodable {
    var rules: [ScenarioGatewayRule] = []

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ScenarioGatewayRule.kinds)
        for kind in ScenarioGatewayRule.kinds where fields.has(kind) {
            let values: [String]
            if let one = try? fields.optional(kind, String.self, expected: "a text") {
                values = [one]
            } else {
                values = try fields.required(kind, [String].self, expected: "a text or a list of texts")
            }
            rules += values.map { ScenarioGatewayRule(kind: kind, value: $0) }
        }
    }
}

/// `- {name: kitchen, box: {min: […], max: […]}, attachedTo: bus}`.
struct ZoneSection: Decodable {
    var zone: ScenarioZone

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["name", "box", "cylinder", "sphere", "attachedTo"])
        let name = try fields.required("name", String.self, expected: "the zone's name")
        guard !name.isEmpty else { throw fields.error("name", "a zone needs a non-empty name") }
        let shapes = ["box", "cylinder", "sphere"].filter(fields.has)
        guard shapes.count == 1, let shape = shapes.first else {
            throw fields.error(nil, shapes.isEmpty ? .missingField : .invalidField,
                               "zone \"\(name)\" needs exactly one shape: box, cylinder or sphere")
        }
        let value = try fields.required(shape, ShapeSection.self, expected: "a \(shape)")
        let attachedTo = try fields.optional("attachedTo", String.self, expected: "the name of the device it moves with")
        zone = ScenarioZone(name: name, shape: value.shape, attachedTo: attachedTo)
    }
}
