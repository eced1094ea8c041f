import BLEWire
import Yams

// The YAML form of what scenario devices carry, scan and observe: `body`, `carriedBy`,
// `scan` and `observe`.

struct BodySection: Decodable {
    var lossDB: Double

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["lossDB"])
        guard let loss = try fields.number("lossDB", in: 0 ... 60, unit: "dB") else {
            throw fields.error(nil, .missingField, "a body needs lossDB (its loss straight behind, e.g. 15)")
        }
        lossDB = loss
    }
}

struct CarriageSection: Decodable {
    var carriage: ScenarioCarriage

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "offset"])
        let device = try fields.required("device", String.self, expected: "the name of the carrying device")
        carriage = ScenarioCarriage(device: device, offset: try fields.point("offset") ?? .zero)
    }
}

struct ScanSection: Decodable {
    var scanning: ScenarioScanning

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["interval", "window", "active", "sync"] + ExtendedKeys.scanning)
        let interval = try fields.number("interval", in: ScenarioScanning.range, unit: "ms") ?? 100
        let window = try fields.number("window", in: ScenarioScanning.range, unit: "ms") ?? interval
        guard window <= interval else {
            throw fields.error("window", "the scan window (\(window) ms) cannot be longer than the interval (\(interval) ms)")
        }
        let active = try fields.optional("active", Bool.self, expected: "true or false") ?? false
        let phys = try ExtendedKeys.scanning(fields)
        let sync = try fields.optional("sync", String.self, expected: "the name of a device with periodic advertising")
        if sync != nil, phys == nil {
            throw fields.error("sync", "synchronising to a periodic train needs an extended scan (it finds the train through "
                               + "the set's AUX_ADV_IND); add extended: true")
        }
        scanning = ScenarioScanning(intervalMilliseconds: interval, windowMilliseconds: window, active: active,
                                    extendedPHYs: phys, periodicSync: sync)
    }
}

struct ObserveSection: Decodable {
    var observer: ScenarioObserver

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["monitor", "range", "exitPeriod", "filter", "receiver",
                                                                   "passes"])
        let regions = try fields.required("monitor", [RegionSection].self,
                                          expected: "a list of regions [{identifier, uuid, major, minor}]").map(\.region)
        guard !regions.isEmpty else { throw fields.error("monitor", "an observer needs at least one region to monitor") }
        var seen: Set<String> = []
        for region in regions where !seen.insert(region.identifier).inserted {
            throw fields.error("monitor", "two regions are called \"\(region.identifier)\"; identifiers must be unique")
        }
        var observer = ScenarioObserver(regions: regions)
        if let ranges = try fields.optional("range", Bool.self, expected: "true or false") { observer.ranges = ranges }
        if let passes = try fields.optional("passes", Bool.self, expected: "true or false") { observer.reportsPasses = passes }
        if let period = try fields.number("exitPeriod", in: 0.1 ... 3600, unit: "seconds") { observer.exitPeriodSeconds = period }
        if let filter = try fields.optional("filter", FilterSection.self, expected: "{kind, window} or {kind, coefficient}") {
            observer.filter = filter.filter
        }
        if let text = try fields.optional("receiver", String.self, expected: "world or nexus5") {
            guard let receiver = ScenarioObserver.Receiver(rawValue: text) else {
                throw fields.error("receiver", "\"\(text)\" is not a receiver model; use world or nexus5")
            }
            observer.receiver = receiver
        }
        self.observer = observer
    }
}

struct RegionSection: Decodable {
    var region: ScenarioObserver.Region

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["identifier", "uuid", "major", "minor"])
        let identifier = try fields.required("identifier", String.self, expected: "the region's name")
        guard let uuid = try fields.uuid("uuid") else {
            throw fields.error(nil, .missingField, "region \"\(identifier)\" needs uuid (8-4-4-4-12 form)")
        }
        guard uuid.width == .bits128 else { throw fields.error("uuid", "an iBeacon UUID is 128-bit (8-4-4-4-12 form)") }
        let major = try fields.integer("major", UInt16.self)
        let minor = try fields.integer("minor", UInt16.self)
        if minor != nil, major == nil {
            throw fields.error("minor", "a region with a minor needs a major too (a minor only means something within its major)")
        }
        region = ScenarioObserver.Region(identifier: identifier, uuid: uuid.value, major: major, minor: minor)
    }
}

struct FilterSection: Decodable {
    var filter: ScenarioObserver.Filter

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["kind", "window", "trim", "coefficient"])
        let kind = try fields.required("kind", String.self, expected: "runningAverage or arma")
        switch kind {
        case "runningAverage":
            if fields.has("coefficient") { throw fields.error("coefficient", "a running average has a window, not a coefficient") }
            let window = try fields.number("window", in: 0.01 ... 600, unit: "seconds") ?? 20
            let trim = try fields.number("trim", in: 0 ... 0.49, unit: "(fraction at each end)") ?? 0.1
            filter = .runningAverage(windowSeconds: window, trimFraction: trim)
        case "arma":
            for field in ["window", "trim"] where fields.has(field) {
                throw fields.error(field, "an ARMA filter has a coefficient, not a \(field)")
            }
            filter = .arma(coefficient: try fields.number("coefficient", in: 0.001 ... 1, unit: "(weight of each sample)") ?? 0.1)
        default:
            throw fields.error("kind", "\"\(kind)\" is not a filter; use runningAverage or arma")
        }
    }
}
