import Yams

/// A point written `[x, y, z]`, `[x, y]` (z = 0) or `{x:, y:, z:}`, in metres.
struct ScenarioPoint: Decodable {
    var vector: Vector3

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var values: [Double] = []
            while !list.isAtEnd { values.append(try list.decode(Double.self)) }
            guard values.count == 2 || values.count == 3, values.allSatisfy(\.isFinite) else {
                throw ScenarioError(.invalidField, path: yamlPath(decoder.codingPath), line: decoder.yamlLine,
                                    message: "expected a point [x, y, z] in metres, got \(values.count) numbers")
            }
            vector = Vector3(x: values[0], y: values[1], z: values.count == 3 ? values[2] : 0)
        } else {
            let fields = try YAMLFields(decoder, allowed: ["x", "y", "z"])
            vector = Vector3(x: try fields.required("x", expected: "metres"), y: try fields.required("y", expected: "metres"),
                             z: try fields.optional("z", expected: "metres") ?? 0)
        }
    }
}

extension YAMLFields {
    /// A point in metres: `[x, y, z]`, `[x, y]` or `{x:, y:, z:}`.
    func point(_ name: String) throws -> Vector3? {
        try optional(name, ScenarioPoint.self, expected: "a point [x, y, z] in metres")?.vector
    }
}
