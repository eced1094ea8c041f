import BLEHost
import BLEProfiles
import BLEWire
import BLEWorld

// The YAML form of a serve file, decoded by hand through YAMLFields (as scenarios are) so
// that every problem names its field path and line and unknown keys are refused.

/// The whole file.
struct ServeFileSection: Decodable {
    var file: ServeFile

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["name", "advertise", "services"])
        let name = try fields.optional("name", String.self, expected: "the advertised local name")
        if let name, name.isEmpty || name.utf8.count > ServeFile.maximumNameLength {
            throw fields.error("name", "the name must be 1 to \(ServeFile.maximumNameLength) octets of UTF-8")
        }
        let advertiseTexts = try fields.optional("advertise", [String].self, expected: "a list of service UUIDs") ?? []
        let advertise = try advertiseTexts.enumerated().map { index, text in
            try YAMLFields.uuid(text, field: { ServeFields.indexed(fields.error("advertise", $0), index) })
        }
        let sections = try fields.required("services", [ServiceSection].self, expected: "a list of services")
        guard !sections.isEmpty else { throw fields.error("services", "a serve file needs at least one service") }
        var profiles: [Int: StandardService] = [:]
        for (index, section) in sections.enumerated() { profiles[index] = section.profile }
        let services = sections.map(\.definition)
        for (index, service) in services.enumerated() {
            for (position, include) in service.includes.enumerated() {
                let others = services.enumerated().filter { $0.offset != index }.map(\.element.uuid)
                guard others.contains(include) else {
                    var error = fields.error("services", "includes \(include), which is not another service of this file")
                    error.path += "[\(index)].includes[\(position)]"
                    throw error
                }
            }
        }
        file = ServeFile(name: name, advertise: advertise, services: services, profiles: profiles)
    }
}

/// One entry of `services`: a service written out, or `profile: NAME`.
struct ServiceSection: Decodable {
    var definition: GATTServiceDefinition
    var profile: StandardService?

    init(from decoder: any Decoder) throws {
        let probe = try YAMLFields(decoder, allowed: ["uuid", "primary", "includes", "characteristics", "profile"])
        if probe.has("profile") {
            let fields = try YAMLFields(decoder, allowed: ["profile"])
            let name = try fields.required("profile", String.self, expected: "a standard service's name")
            guard let service = StandardService(name: name) else {
                throw fields.error("profile", "\"\(name)\" is not a standard service; use one of "
                    + StandardService.allCases.map(\.name).joined(separator: ", "))
            }
            definition = service.defaultDefinition
            profile = service
            return
        }
        let fields = probe
        guard let uuid = try fields.uuid("uuid") else {
            throw fields.error(nil, .missingField, "missing \"uuid\" (the service's UUID), or \"profile\" (a standard service)")
        }
        let isPrimary = try fields.optional("primary", Bool.self, expected: "true or false") ?? true
        let includeTexts = try fields.optional("includes", [String].self, expected: "a list of service UUIDs") ?? []
        let includes = try includeTexts.enumerated().map { index, text in
            try YAMLFields.uuid(text, field: { ServeFields.indexed(fields.error("includes", $0), index) })
        }
        let characteristics = try fields.optional("characteristics", [CharacteristicSection].self,
                                                  expected: "a list of characteristics") ?? []
        definition = GATTServiceDefinition(uuid: uuid, isPrimary: isPrimary, includes: includes,
                                           characteristics: characteristics.map(\.definition))
        profile = nil
    }
}

/// One characteristic.
struct CharacteristicSection: Decodable {
    var definition: GATTCharacteristicDefinition

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["uuid", "properties", "permissions", "value", "maximumLength",
                                                       "descriptors"])
        guard let uuid = try fields.uuid("uuid") else {
            throw fields.error(nil, .missingField, "missing \"uuid\" (the characteristic's UUID)")
        }
        let propertyNames = try fields.required("properties", [String].self, expected: "a list of properties")
        guard !propertyNames.isEmpty else { throw fields.error("properties", "a characteristic needs at least one property") }
        var properties: GATTCharacteristicProperties = []
        var extended: GATTExtendedProperties = []
        for (index, name) in propertyNames.enumerated() {
            if let property = ServeFields.properties[name] {
                properties.insert(property)
            } else if let property = ServeFields.extendedProperties[name] {
                extended.insert(property)
            } else {
                throw ServeFields.indexed(fields.error("properties", "\"\(name)\" is not a property; use "
                    + (ServeFields.properties.keys.sorted() + ServeFields.extendedProperties.keys.sorted())
                    .joined(separator: ", ")), index)
            }
        }
        let permissions = try ServeFields.permissions(fields) ?? ServeFields.defaultPermissions(properties, extended)
        let maximumLength = try fields.integer("maximumLength", Int.self) ?? 512
        guard (0 ... 512).contains(maximumLength) else {
            throw fields.error("maximumLength", "\(maximumLength) is outside 0…512 (Core 5.4, Vol 3, Part F, §3.2.9)")
        }
        let value = try fields.optional("value", ValueSection.self, expected: "{hex: \"00FF\"} or {utf8: \"text\"}")
        if let value, value.bytes.count > maximumLength {
            throw fields.error("value", "\(value.bytes.count) octets is longer than the maximum length, \(maximumLength)")
        }
        let descriptors = try fields.optional("descriptors", [DescriptorSection].self, expected: "a list of descriptors") ?? []
        for (index, descriptor) in descriptors.enumerated() {
            if let reason = ServeFields.serverOwnedDescriptors[descriptor.definition.uuid] {
                throw ServeFields.indexed(fields.error("descriptors", "\(descriptor.definition.uuid) is \(reason)"), index)
            }
        }
        definition = GATTCharacteristicDefinition(uuid: uuid, properties: properties, extendedProperties: extended,
                                                  permissions: permissions, value: value.map { .stored($0.bytes) } ?? .dynamic,
                                                  maximumLength: maximumLength, descriptors: descriptors.map(\.definition))
    }
}

/// One descriptor.
struct DescriptorSection: Decodable {
    var definition: GATTDescriptorDefinition

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["uuid", "permissions", "value"])
        guard let uuid = try fields.uuid("uuid") else {
            throw fields.error(nil, .missingField, "missing \"uuid\" (the descriptor's UUID)")
        }
        let permissions = try ServeFields.permissions(fields) ?? .readable
        let value = try fields.optional("value", ValueSection.self, expected: "{hex: \"00FF\"} or {utf8: \"text\"}")
        if let value, value.bytes.count > 512 {
            throw fields.error("value", "\(value.bytes.count) octets is longer than an attribute may be, 512")
        }
        definition = GATTDescriptorDefinition(uuid: uuid, permissions: permissions, value: value.map { .stored($0.bytes) } ?? .dynamic)
    }
}

/// A value: `{hex: "00FF"}` or `{utf8: "text"}`.
struct ValueSection: Decodable {
    var bytes: [UInt8]

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["hex", "utf8"])
        switch (fields.has("hex"), fields.has("utf8")) {
        case (true, false):
            bytes = try fields.hex("hex") ?? []
        case (false, true):
            bytes = Array((try fields.optional("utf8", String.self, expected: "text") ?? "").utf8)
        default:
            throw fields.error(nil, "give exactly one of hex or utf8")
        }
    }
}

/// The names the file uses, and helpers shared by the sections.
enum ServeFields {
    static let properties: [String: GATTCharacteristicProperties] = [
        "broadcast": .broadcast, "read": .read, "writeWithoutResponse": .writeWithoutResponse, "write": .write,
        "notify": .notify, "indicate": .indicate, "authenticatedSignedWrites": .authenticatedSignedWrites,
    ]
    static let extendedProperties: [String: GATTExtendedProperties] = [
        "reliableWrite": .reliableWrite, "writableAuxiliaries": .writableAuxiliaries,
    ]
    static let permissionNames: [String: GATTPermissions] = [
        "readable": .readable, "writeable": .writeable,
        "readEncryptionRequired": .readEncryptionRequired, "writeEncryptionRequired": .writeEncryptionRequired,
        "readAuthenticationRequired": .readAuthenticationRequired, "writeAuthenticationRequired": .writeAuthenticationRequired,
    ]
    /// Descriptors the server adds itself (Core 5.4, Vol 3, Part G, §3.3.3).
    static let serverOwnedDescriptors: [BluetoothUUID: String] = [
        0x2900: "the Extended Properties descriptor, which the server adds from reliableWrite/writableAuxiliaries",
        0x2902: "the Client Characteristic Configuration descriptor, which the server adds for notify/indicate",
    ]

    /// `permissions:` of a characteristic or descriptor, `nil` when omitted.
    static func permissions(_ fields: YAMLFields) throws -> GATTPermissions? {
        guard let names = try fields.optional("permissions", [String].self, expected: "a list of permissions") else { return nil }
        var permissions: GATTPermissions = []
        for (index, name) in names.enumerated() {
            guard let permission = permissionNames[name] else {
                throw indexed(fields.error("permissions", "\"\(name)\" is not a permission; use "
                    + permissionNames.keys.sorted().joined(separator: ", ")), index)
            }
            permissions.insert(permission)
        }
        return permissions
    }

    /// Permissions that let a client do what the properties advertise.
    static func defaultPermissions(_ properties: GATTCharacteristicProperties, _ extended: GATTExtendedProperties) -> GATTPermissions {
        var permissions: GATTPermissions = []
        if properties.contains(.read) { permissions.insert(.readable) }
        if !properties.isDisjoint(with: [.write, .writeWithoutResponse, .authenticatedSignedWrites])
            || extended.contains(.reliableWrite) {
            permissions.insert(.writeable)
        }
        return permissions
    }

    /// `error` moved to element `index` of the list it is about.
    static func indexed(_ error: ScenarioError, _ index: Int) -> ScenarioError {
        var located = error
        located.path += "[\(index)]"
        return located
    }
}
