import BLEWire
import Yams

// The YAML form of what a scenario device advertises: `advertise` and its scan response,
// their content (flags, name, services, manufacturer and service data, iBeacon, raw).

struct AdvertiseSection: Decodable {
    var advertising: ScenarioAdvertising

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["type", "interval", "scanResponse"] + ContentSection.keys)
        var kind = ScenarioAdvertising.Kind.ind
        if let text = try fields.optional("type", String.self, expected: "ind, scan_ind or nonconn_ind") {
            guard let value = ScenarioAdvertising.Kind(rawValue: text) else {
                throw fields.error("type", "\"\(text)\" is not an advertising type; use ind, scan_ind or nonconn_ind")
            }
            kind = value
        }
        let interval = try fields.number("interval", in: ScenarioAdvertising.intervalRange, unit: "ms") ?? 100
        let content = try ContentSection(fields: fields).content
        let scanResponse = try fields.optional("scanResponse", ContentSection.self, expected: "a scanResponse mapping")?.content
        if scanResponse != nil, !kind.isScannable {
            throw fields.error("scanResponse", "nonconn_ind advertising is not scannable, so a scan response is never sent; "
                               + "use ind or scan_ind")
        }
        advertising = ScenarioAdvertising(kind: kind, intervalMilliseconds: interval, data: content, scanResponse: scanResponse)
    }
}

struct ContentSection: Decodable {
    static let keys = ["flags", "name", "services", "manufacturer", "serviceData", "txPowerLevel", "appearance",
                       "iBeacon", "raw"]
    var content = ScenarioAdvertisingContent()

    init(from decoder: any Decoder) throws {
        try self.init(fields: try YAMLFields(decoder, allowed: Self.keys))
    }

    init(fields: YAMLFields) throws {
        content.flags = try fields.integer("flags", UInt8.self)
        content.name = try fields.optional("name", String.self, expected: "a local name")
        let services = try fields.optional("services", [String].self, expected: "a list of UUIDs") ?? []
        content.services = try services.map { text throws in try YAMLFields.uuid(text) { fields.error("services", $0) } }
        if let manufacturer = try fields.optional("manufacturer", ManufacturerSection.self,
                                                  expected: "{company, data}") {
            content.manufacturer = AdvertisingData.ManufacturerData(companyIdentifier: manufacturer.company,
                                                                   data: manufacturer.data[...])
        }
        let serviceData = try fields.optional("serviceData", [String: String].self, expected: "a mapping UUID: hex") ?? [:]
        // Sorted by UUID text: a YAML mapping has no order, and the output must be deterministic.
        for key in serviceData.keys.sorted() {
            let uuid = try YAMLFields.uuid(key) { fields.error("serviceData", $0) }
            guard let value = serviceData[key], let bytes = Hex.decode(value) else {
                throw fields.error("serviceData", "the data of \(key) is not hex octets")
            }
            content.serviceData.append(AdvertisingData.ServiceData(uuid: uuid, data: bytes[...]))
        }
        content.txPowerLevel = try fields.integer("txPowerLevel", Int8.self)
        content.appearance = try fields.integer("appearance", UInt16.self)
        content.iBeacon = try fields.optional("iBeacon", IBeaconSection.self, expected: "{uuid, major, minor, measuredPower}")?.frame
        content.raw = try fields.hex("raw")
        if content.raw != nil {
            let others = Self.keys.filter { $0 != "raw" && fields.has($0) }
            if !others.isEmpty {
                throw fields.error("raw", "raw is the whole payload; leave out \(others.joined(separator: ", ")) or drop raw")
            }
        }
    }
}

struct ManufacturerSection: Decodable {
    var company: UInt16
    var data: [UInt8]

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["company", "data"])
        guard let company = try fields.integer("company", UInt16.self) else {
            throw fields.error(nil, .missingField, "manufacturer data needs company (e.g. 0x004C)")
        }
        self.company = company
        data = try fields.hex("data") ?? []
    }
}

struct IBeaconSection: Decodable {
    var frame: ScenarioAdvertisingContent.IBeacon

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["uuid", "major", "minor", "measuredPower"])
        guard let uuid = try fields.uuid("uuid") else {
            throw fields.error(nil, .missingField, "an iBeacon needs uuid (8-4-4-4-12 form)")
        }
        guard uuid.width == .bits128 else { throw fields.error("uuid", "an iBeacon UUID is 128-bit (8-4-4-4-12 form)") }
        frame = ScenarioAdvertisingContent.IBeacon(
            uuid: uuid.value, major: try fields.integer("major", UInt16.self) ?? 0,
            minor: try fields.integer("minor", UInt16.self) ?? 0,
            measuredPower: try fields.integer("measuredPower", Int8.self) ?? -59)
    }
}
