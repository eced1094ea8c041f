import BLEWire
import Yams

// The YAML form of what a scenario device advertises: `advertise` and its scan response,
// their content (flags, name, services, manufacturer and service data, iBeacon, raw).

struct AdvertiseSection: Decodable {
    var advertising: ScenarioAdvertising

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["type", "interval", "scanResponse", "periodic"] + ExtendedKeys.advertising + ContentSection.keys)
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
        var extended = try ExtendedKeys.advertising(fields)
        if let periodic = try fields.optional("periodic", PeriodicSection.self, expected: "a periodic mapping {interval, ...}")?.periodic {
            guard extended != nil else {
                throw fields.error("periodic", "periodic advertising is sent beside an extended set; add extended: true")
            }
            guard kind == .nonconnInd else {
                throw fields.error("periodic", "periodic advertising is sent beside a non-connectable, non-scannable set "
                                   + "(Core 5.4, Vol 6, Part B, §4.4.2.12); use type: nonconn_ind")
            }
            extended?.periodic = periodic
        }
        if extended != nil {
            if kind == .scanInd {
                // A scannable extended set (Core 5.4, Vol 6, Part B, §4.4.2.7) has no advertising
                // data: what it says is in its scan response, sent in AUX_SCAN_RSP.
                let content = ContentSection.keys.filter(fields.has)
                if let first = content.first {
                    throw fields.error(first, "an extended scan_ind set sends no advertising data, only its scan response in "
                                       + "AUX_SCAN_RSP; move \(content.joined(separator: ", ")) into scanResponse")
                }
                if scanResponse == nil {
                    throw fields.error("scanResponse", "an extended scan_ind set needs a scanResponse: its data is sent only "
                                       + "in AUX_SCAN_RSP (up to 1,650 octets)")
                }
            } else if scanResponse != nil {
                throw fields.error("scanResponse", "an extended nonconn_ind or ind set is not scannable, so a scan response "
                                   + "is never sent; put everything in the advertising data (up to 1,650 octets), or use scan_ind")
            }
        }
        advertising = ScenarioAdvertising(kind: kind, intervalMilliseconds: interval, data: content, scanResponse: scanResponse,
                                          extended: extended)
    }
}

/// `advertise`'s `periodic`: the interval and the data's content keys.
struct PeriodicSection: Decodable {
    var periodic: ScenarioAdvertising.Extended.Periodic

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["interval"] + ContentSection.keys)
        guard let interval = try fields.number("interval", in: ScenarioAdvertising.Extended.Periodic.intervalRange, unit: "ms") else {
            throw fields.error(nil, .missingField, "periodic advertising needs interval (ms, 7.5 to 4800)")
        }
        periodic = ScenarioAdvertising.Extended.Periodic(intervalMilliseconds: interval, data: try ContentSection(fields: fields).content)
    }
}

struct ContentSection: Decodable {
    static let keys = ["flags", "name", "services", "manufacturer", "serviceData", "txPowerLevel", "appearance",
                       "iBeacon", "eddystoneEID", "raw"]
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
        content.eddystoneEID = try fields.optional("eddystoneEID", EddystoneEIDSection.self,
                                                   expected: "{identityKey, rotationExponent, timeCounter, txPower}")?.beacon
        if content.eddystoneEID != nil, content.serviceData.contains(where: { $0.uuid.uuid16 == ScenarioAdvertisingContent.EddystoneEID.serviceUUID }) {
            throw fields.error("serviceData", "FEAA's service data is the Eddystone-EID frame; leave it out of serviceData")
        }
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

struct EddystoneEIDSection: Decodable {
    var beacon: ScenarioAdvertisingContent.EddystoneEID

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["identityKey", "rotationExponent", "timeCounter", "txPower"])
        guard let text = try fields.optional("identityKey", String.self, expected: "32 hex digits") else {
            throw fields.error(nil, .missingField, "an Eddystone-EID beacon needs identityKey (32 hex digits, the AES-128 key)")
        }
        guard let key = Hex.decode(text), key.count == 16 else {
            throw fields.error("identityKey", "\"\(text)\" is not an AES-128 key; write its 16 octets as 32 hex digits")
        }
        guard let exponent = try fields.integer("rotationExponent", UInt8.self) else {
            throw fields.error(nil, .missingField, "an Eddystone-EID beacon needs rotationExponent (K, 0–15: it rotates every 2^K s)")
        }
        guard exponent <= 15 else {
            throw fields.error("rotationExponent", "\(exponent) is outside 0…15 (the identifier changes every 2^K seconds)")
        }
        beacon = ScenarioAdvertisingContent.EddystoneEID(
            identityKey: key.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }, rotationExponent: exponent,
            timeCounter: try fields.integer("timeCounter", UInt32.self) ?? 0,
            txPower: try fields.integer("txPower", Int8.self) ?? -4)
    }
}
