import Foundation

/// The back end's OpenAPI document as a checker of answers: an operation's documented statuses
/// and content types, and a validator for the subset of JSON Schema the document uses — `type`
/// (one or a list), `required`, `properties`, `items`, `enum` and `$ref` to
/// `#/components/…`. Keywords outside the subset (`format`, `minimum`, `description`) are not
/// checked; the document uses them only to inform.
struct OpenAPIContract: Sendable {
    let document: JSONValue

    init(yaml: String) throws {
        document = try JSONValue.yaml(yaml)
        guard document["openapi"]?.string?.hasPrefix("3.") == true else { throw ContractError("not an OpenAPI 3 document") }
    }

    /// What is wrong with an answer to `method path` (`path` as documented, e.g.
    /// `/identities/{identity}/location`): an empty list when it keeps the contract.
    func violations(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        guard let operation = document["paths"]?[path]?[method.lowercased()] else {
            return ["\(method) \(path) is not in the document"]
        }
        guard let responseValue = operation["responses"]?[String(status)] else {
            return ["\(method) \(path) answered \(status), which the document does not list"]
        }
        let response: JSONValue
        do { response = try resolve(responseValue) } catch { return ["\(error)"] }
        guard let content = response["content"]?.object else {
            return body.isEmpty ? [] : ["\(method) \(path) \(status) has a body, but the document gives it none"]
        }
        let mediaType = contentType.map { String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces) } ?? ""
        guard let media = content[mediaType] else {
            return ["\(method) \(path) \(status) answered content type '\(mediaType)', the document lists \(content.keys.sorted())"]
        }
        guard let schema = media["schema"] else { return [] }
        if mediaType != "application/json" {
            return validate(.string(String(decoding: body, as: UTF8.self)), against: schema, at: "body")
        }
        let value: JSONValue
        do { value = try JSONValue.parse(body) } catch { return ["\(method) \(path) \(status): the body is not JSON: \(error)"] }
        return validate(value, against: schema, at: "body")
    }

    /// What is wrong with a request body sent to `method path`, under its `requestBody` schema.
    func requestViolations(method: String, path: String, body: Data) -> [String] {
        guard let schema = document["paths"]?[path]?[method.lowercased()]?["requestBody"]?["content"]?["application/json"]?["schema"] else {
            return ["\(method) \(path) takes no JSON body in the document"]
        }
        do {
            return validate(try JSONValue.parse(body), against: schema, at: "request")
        } catch {
            return ["the request to \(method) \(path) is not JSON: \(error)"]
        }
    }

    /// What is wrong with `value` under `schema`; `location` names where, for the messages.
    func validate(_ value: JSONValue, against schemaValue: JSONValue, at location: String) -> [String] {
        let schema: JSONValue
        do { schema = try resolve(schemaValue) } catch { return ["\(location): \(error)"] }
        var problems: [String] = []
        if let types = schema["type"] {
            let allowed = types.array?.compactMap(\.string) ?? [types.string].compactMap { $0 }
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                return ["\(location): \(Self.describe(value)) is not of type \(allowed.joined(separator: " or "))"]
            }
        }
        if let options = schema["enum"]?.array, !options.contains(value) {
            problems.append("\(location): \(Self.describe(value)) is not one of \(options.map(Self.describe))")
        }
        if let object = value.object {
            for name in schema["required"]?.array?.compactMap(\.string) ?? [] where object[name] == nil {
                problems.append("\(location): the required property '\(name)' is missing")
            }
            for (name, propertySchema) in schema["properties"]?.object ?? [:] {
                if let property = object[name] { problems += validate(property, against: propertySchema, at: "\(location).\(name)") }
            }
        }
        if let items = value.array, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() { problems += validate(item, against: itemSchema, at: "\(location)[\(index)]") }
        }
        return problems
    }

    /// Follows `$ref: "#/components/…"` until a value without one.
    func resolve(_ value: JSONValue) throws -> JSONValue {
        var current = value
        for _ in 0 ..< 16 {
            guard let reference = current["$ref"]?.string else { return current }
            guard reference.hasPrefix("#/") else { throw ContractError("the reference \(reference) is not local") }
            var target = document
            for part in reference.dropFirst(2).split(separator: "/") {
                guard let next = target[String(part)] else { throw ContractError("the reference \(reference) leads nowhere") }
                target = next
            }
            current = target
        }
        throw ContractError("references nest too deep")
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
             ("string", .string), ("array", .array), ("object", .object): true
        default: false
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
