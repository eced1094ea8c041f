import BLEWire
import Yams

// The YAML form of a scenario. Each mapping is decoded by hand through YAMLFields so
// that every problem becomes a ScenarioError naming the field and its line, and unknown
// keys (typos) are refused instead of silently ignored.

/// The whole file.
struct ScenarioFile: Decodable {
    var scenario: Scenario

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["name", "seed", "duration", "timing", "radio", "devices",
                                                           "obstacles", "actions", "origin", "zones", "system"])
        let name = try fields.optional("name", String.self, expected: "a name") ?? "scenario"
        let seed = try fields.integer("seed", UInt64.self) ?? Scenario.defaultSeed
        let duration = try fields.number("duration", in: 0 ... 1_000_000, unit: "seconds")
        var timing = TimingMode.realistic
        if let text = try fields.optional("timing", String.self, expected: "realistic or ideal") {
            guard let mode = TimingMode(rawValue: text) else {
                throw fields.error("timing", "\"\(text)\" is not a timing mode; use realistic or ideal")
            }
            timing = mode
        }
        let radio = try fields.optional("radio", RadioSection.self, expected: "a radio mapping")?.model ?? RadioModel()
        let devices = try fields.optional("devices", [DeviceSection].self, expected: "a list of devices") ?? []
        let obstacles = try fields.optional("obstacles", [ObstacleSection].self, expected: "a list of obstacles") ?? []
        let actions = try fields.optional("actions", [ActionSection].self, expected: "a list of actions") ?? []
        let origin = try fields.optional("origin", OriginSection.self, expected: "a mapping with latitude and longitude")
        let zones = try fields.optional("zones", [ZoneSection].self, expected: "a list of zones {name, box|cylinder|sphere, attachedTo}") ?? []
        scenario = Scenario(
            name: name, seed: seed, timing: timing, radio: radio,
            devices: devices.enumerated().map { $1.device(index: $0) },
            obstacles: obstacles.filter { $0.attachedTo == nil }.map(\.obstacle),
            attachedObstacles: obstacles.compactMap { section in
                section.attachedTo.map { ScenarioAttachedObstacle(obstacle: section.obstacle, device: $0) }
            },
            actions: actions.map(\.action), durationSeconds: duration, origin: origin?.origin)
        scenario.zones = zones.map(\.zone)
        scenario.system = try fields.optional("system", String.self, expected: "the name of a field system, e.g. ride-log")
    }
}

/// `origin: {latitude: 51.5007, longitude: -0.1246}`: where the world's (0, 0) is on Earth.
struct OriginSection: Decodable {
    var origin: GeographicOrigin

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["latitude", "longitude"])
        guard let latitude = try fields.number("latitude", in: -90 ... 90, unit: "degrees"),
              let longitude = try fields.number("longitude", in: -180 ... 180, unit: "degrees") else {
            throw fields.error("latitude", "an origin needs both latitude and longitude")
        }
        origin = GeographicOrigin(latitude: latitude, longitude: longitude)
    }
}

struct RadioSection: Decodable {
    var model = RadioModel()

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["referenceLossDB", "pathLossExponent", "shadowingSigmaDB",
                                                           "fastFading", "captureMarginDB"])
        if let value = try fields.number("referenceLossDB", in: 0 ... 200, unit: "dB") { model.referenceLossDB = value }
        if let value = try fields.number("pathLossExponent", in: 1 ... 10, unit: "(exponent)") { model.pathLossExponent = value }
        if let value = try fields.number("shadowingSigmaDB", in: 0 ... 50, unit: "dB") { model.shadowingSigmaDB = value }
        if let value = try fields.optional("fastFading", Bool.self, expected: "true or false") { model.fastFading = value }
        if let value = try fields.number("captureMarginDB", in: 0 ... 100, unit: "dB") { model.captureMarginDB = value }
    }
}

struct DeviceSection: Decodable {
    var name: String
    var address: BluetoothAddress?
    var description: DeviceDescription
    var txPowerDBm: Double
    var host: ScenarioDevice.HostKind?
    var advertising: ScenarioAdvertising?
    var scanning: ScenarioScanning?
    var observing: ScenarioObserver?
    var carriedBy: ScenarioCarriage?
    var start = ScenarioDeviceStart.at(0)
    var gatt: [String] = []
    var apps: [ScenarioApp] = []
    var phone: ScenarioPhone?
    var program: String?
    var gateway: ScenarioGateway?
    var copying: ScenarioCopying?
    var attack: ScenarioAttack?
    var security: ScenarioSecurity?

    static let keys = ["name", "address", "addressType", "position", "heading", "antenna", "antennaGain", "txPower",
                       "sensitivity", "rssiOffset", "route", "advertise", "host", "headingFollowsRoute", "body",
                       "carriedBy", "scan", "observe", "startAt", "gatt", "apps", "phone", "program", "gateway", "copies", "attack",
                       "security"]

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: Self.keys)
        let deviceName = try fields.required("name", String.self, expected: "the device's name")
        guard !deviceName.isEmpty else { throw fields.error("name", "a device needs a non-empty name") }
        do {
            try self.init(fields: fields)
        } catch var error as ScenarioError {
            error.device = error.device ?? deviceName
            throw error
        }
    }

    private init(fields: YAMLFields) throws {
        name = try fields.required("name", String.self, expected: "the device's name")
        var kind = BluetoothAddress.Kind.public
        if let text = try fields.optional("addressType", String.self, expected: "public or random") {
            switch text {
            case "public": kind = .public
            case "random": kind = .random
            default: throw fields.error("addressType", "\"\(text)\" is not an address type; use public or random")
            }
        }
        if let text = try fields.optional("address", String.self, expected: "an address like C0:11:22:33:44:55") {
            guard let parsed = BluetoothAddress(text, kind: kind) else {
                throw fields.error("address", "\"\(text)\" is not an address like C0:11:22:33:44:55")
            }
            if kind == .random, parsed.randomSubtype == .reserved {
                throw fields.error("address", "\(text) is a reserved kind of random address (top bits 10); "
                                   + "use a static one starting C0–FF")
            }
            address = parsed
        } else if fields.has("addressType") {
            throw fields.error(nil, .missingField, "addressType is given but address is not")
        }
        var description = DeviceDescription(name: name, position: try fields.point("position") ?? Vector3(x: 0, y: 0, z: 0))
        if let value = try fields.number("heading", in: -360 ... 360, unit: "degrees") { description.headingDegrees = value }
        if let antenna = try fields.optional("antenna", AntennaSection.self, expected: "isotropic or {beamwidth, frontToBack}") {
            description.antenna = antenna.pattern
        }
        if let value = try fields.number("antennaGain", in: -30 ... 30, unit: "dBi") { description.antennaGainDBi = value }
        if let value = try fields.number("sensitivity", in: -130 ... 0, unit: "dBm") { description.sensitivityDBm = value }
        if let value = try fields.number("rssiOffset", in: -50 ... 50, unit: "dB") { description.rssiOffsetDB = value }
        if let route = try fields.optional("route", RouteSection.self, expected: "a route {waypoints, speed, loop}") {
            description.route = route.route
        }
        if let follows = try fields.optional("headingFollowsRoute", Bool.self, expected: "true or false") {
            description.headingFollowsRoute = follows
        }
        if let body = try fields.optional("body", BodySection.self, expected: "{lossDB}") { description.bodyLossDB = body.lossDB }
        carriedBy = try fields.optional("carriedBy", CarriageSection.self, expected: "{device, offset}")?.carriage
        if carriedBy != nil, description.route != nil {
            throw fields.error("carriedBy", "a carried device goes where its carrier goes; leave out its route")
        }
        self.description = description
        txPowerDBm = try fields.number("txPower", in: -127 ... 20, unit: "dBm") ?? 0
        if let text = try fields.optional("host", String.self, expected: "external or none") {
            guard let kind = ScenarioDevice.HostKind(rawValue: text), kind == .external || kind == .none else {
                throw fields.error("host", "\"\(text)\" is not a host kind; use external (a host attaches from outside) or none")
            }
            host = kind
        }
        advertising = try fields.optional("advertise", AdvertiseSection.self, expected: "an advertise mapping")?.advertising
        if advertising != nil, let host {
            throw fields.error("host", "a device with host: \(host.rawValue) cannot also have advertise "
                               + "(its advertising comes from that host)")
        }
        gatt = try Self.gattProfiles(fields, address: address, advertising: advertising, explicitHost: host)
        if !gatt.isEmpty, advertising?.extended != nil {
            throw fields.error("advertise", "a GATT device's host advertises with the legacy commands; drop extended and phy, "
                               + "or make the extended advertiser a device of its own")
        }
        scanning = try fields.optional("scan", ScanSection.self, expected: "{interval, window, active}")?.scanning
        if scanning != nil, let host {
            throw fields.error("host", "a device with host: \(host.rawValue) cannot also have scan "
                               + "(its scanning comes from that host)")
        }
        if scanning != nil, advertising != nil {
            throw fields.error("scan", "a scripted device either advertises or scans; split it into two devices "
                               + "(one carried by the other)")
        }
        gateway = try fields.optional("gateway", GatewaySection.self, expected: "{zone, keep}")?.gateway
        if gateway != nil {
            if let host { throw fields.error("gateway", "a gateway scans with its own scripted host; leave out host: \(host.rawValue)") }
            if advertising != nil { throw fields.error("gateway", "a gateway scans; it cannot also advertise (make a second device)") }
            // A gateway without scan: listens continuously and passively, as `ble gateway` does by default.
            scanning = scanning ?? ScenarioScanning(intervalMilliseconds: 100, windowMilliseconds: 100, active: false)
        }
        copying = try fields.optional("copies", CopiesSection.self, expected: "{device, captureUntil, replayFrom, interval}")?.copying
        if copying != nil {
            if let host { throw fields.error("copies", "a copier scans and replays with its own scripted host; leave out host: \(host.rawValue)") }
            if advertising != nil { throw fields.error("copies", "a copier advertises only what it copied; leave out advertise") }
            if gateway != nil { throw fields.error("copies", "a gateway does not copy; make the copier a device of its own") }
            if scanning?.extendedPHYs != nil { throw fields.error("scan", "a copier copies legacy advertising; scan without phy, phys and extended") }
            // Without scan: listens continuously and passively, as a phone's scan in the foreground does.
            scanning = scanning ?? ScenarioScanning(intervalMilliseconds: 100, windowMilliseconds: 100, active: false)
        }
        attack = try fields.optional("attack", AttackSection.self, expected: "{kind, target, budget}")?.attack
        if attack != nil, host != nil || advertising != nil || scanning != nil || gateway != nil || copying != nil {
            throw fields.error("attack", "a hostile device connects with its own scripted host; leave out host, advertise, scan, gateway and copies")
        }
        if fields.has("startAt") {
            if let text = try? fields.optional("startAt", String.self, expected: "seconds or random"), text == "random" {
                start = .randomInFirstInterval
            } else if let seconds = try fields.number("startAt", in: 0 ... 1_000_000, unit: "seconds (or random)") {
                start = .at(seconds)
            }
            if advertising == nil, scanning == nil {
                throw fields.error("startAt", "only a device with advertise or scan has a scripted host to start")
            }
        }
        security = try fields.optional("security", SecuritySection.self, expected: "{io}")?.security
        if security != nil, gatt.isEmpty {
            throw fields.error("security", "only a GATT device (gatt:) has a Security Manager the scenario sets; "
                               + "give it gatt: or leave out security")
        }
        observing = try fields.optional("observe", ObserveSection.self, expected: "{monitor, range, exitPeriod, filter}")?.observer
        apps = try fields.optional("apps", [AppSection].self, expected: "a list of apps {name, modes, restoresState, regions, program}")?
            .map(\.app) ?? []
        // A phone (apps) without scan: scans as its system does (ScenarioDevice.scansAsPhone).
        // A phone with host: external observes with its system's region monitoring on its
        // host's scan, shared with its apps (BLE's PhoneRegionMonitoring, docs/phone.md).
        if observing != nil, scanning == nil, apps.isEmpty {
            throw fields.error("observe", "only a scanning device hears beacons; add scan: {interval, window}")
        }
        if observing != nil, let host, host != .external {
            throw fields.error("observe", "a phone with host: \(host.rawValue) has no host to scan with; give it host: external "
                               + "(its system scans with that host) or leave out host: (it scans as its iOS rules say)")
        }
        phone = try fields.optional("phone", PhoneSection.self, expected: "{profile, passcode, bluetoothStaysOnInAirplaneMode, "
                                    + "backgroundAdvertisingDropouts, readyToUpdateSubscribersSkipRate, scanFreezesAfterScreenLock, pairing}")?.phone
        program = try fields.optional("program", String.self, expected: "the name of the accessory program its host runs")
        // A phone has apps, or is the host: external device a run's phone host attaches to.
        if phone != nil, apps.isEmpty, host != .external || program != nil {
            throw fields.error("phone", "only a phone has phone settings: give the device apps (or host: external, for the phone of a run)")
        }
        if program != nil, host != .external || !apps.isEmpty {
            throw fields.error("program", "an accessory program runs on a host: external device without apps "
                               + "(a phone's apps name their programs themselves)")
        }
        if let app = apps.first(where: { $0.program != nil && $0.regions != nil }) {
            throw fields.error("apps", "app \"\(app.name)\" runs a program, which registers its own regions with its location "
                               + "manager; leave out regions: (it lists the regions of an app without a program)")
        }
        if apps.contains(where: { $0.program != nil }), host != .external {
            throw fields.error("apps", "an app that runs a program needs a host on its phone: give the device host: external "
                               + "(ble sim run, or a program on sim:FILE, attaches to it)")
        }
        var appNames = Set<String>()
        for app in apps where !appNames.insert(app.name).inserted {
            throw fields.error("apps", "two apps are called \"\(app.name)\"; app names must be unique on a phone")
        }
        let regions = Set(observing?.regions.map(\.identifier) ?? [])
        for app in apps {
            for region in app.regions ?? [] where !regions.contains(region) {
                throw fields.error("apps", "app \"\(app.name)\" follows region \"\(region)\", which the device does not monitor "
                                   + "(observe.monitor has: \(regions.sorted().joined(separator: ", ")))")
            }
        }
    }

    func device(index: Int) -> ScenarioDevice {
        // Devices without an address get a random static one from their index.
        let address = address ?? BluetoothAddress(0xC0_5B_1E_00_00_00 + UInt64(index + 1), kind: .random)
        var device = ScenarioDevice(name: name, address: address, description: description, txPowerDBm: txPowerDBm,
                                    host: host, advertising: advertising, scanning: scanning, observing: observing,
                                    carriedBy: carriedBy, gatt: gatt)
        device.start = start
        device.apps = apps
        device.phone = phone
        device.program = program
        device.gateway = gateway
        device.copying = copying
        device.attack = attack
        device.security = security
        return device
    }
}

/// A waypoint: `[x, y, z]`, or `{at: [x, y, z], pause: SECONDS}` where the device stays a while.
struct WaypointSection: Decodable {
    var vector: Vector3
    var pause: Double = 0

    init(from decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            vector = try ScenarioPoint(from: decoder).vector
            return
        }
        if let point = try? ScenarioPoint(from: decoder) {  // {x:, y:, z:}
            vector = point.vector
            return
        }
        let fields = try YAMLFields(decoder, allowed: ["at", "pause"])
        guard let point = try fields.point("at") else { throw fields.error(nil, .missingField, "a waypoint mapping needs at: [x, y, z]") }
        vector = point
        pause = try fields.number("pause", in: 0 ... 86_400, unit: "seconds") ?? 0
    }
}

struct AntennaSection: Decodable {
    var pattern: AntennaPattern

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            guard text == "isotropic" else {
                throw ScenarioError(.invalidField, path: yamlPath(decoder.codingPath), line: decoder.yamlLine,
                                    message: "\"\(text)\" is not an antenna; use isotropic or {beamwidth, frontToBack}")
            }
            pattern = .isotropic
            return
        }
        let fields = try YAMLFields(decoder, allowed: ["beamwidth", "frontToBack"])
        guard let beamwidth = try fields.number("beamwidth", in: 1 ... 360, unit: "degrees") else {
            throw fields.error(nil, .missingField, "a directional antenna needs beamwidth (degrees)")
        }
        pattern = .directional(beamwidthDegrees: beamwidth,
                               frontToBackDB: try fields.number("frontToBack", in: 0 ... 60, unit: "dB") ?? 20)
    }
}

struct RouteSection: Decodable {
    var route: Route

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["waypoints", "speed", "loop"])
        let points = try fields.required("waypoints", [WaypointSection].self,
                                         expected: "a list of points [x, y, z] or {at: [x, y, z], pause: SECONDS}")
        guard !points.isEmpty else { throw fields.error("waypoints", "a route needs at least one waypoint") }
        guard let speed = try fields.number("speed", in: 0.001 ... 1000, unit: "m/s") else {
            throw fields.error(nil, .missingField, "a route needs speed (m/s)")
        }
        let loops = try fields.optional("loop", Bool.self, expected: "true or false") ?? false
        route = Route(waypoints: points.map { Waypoint(position: $0.vector, speed: speed, pause: $0.pause) }, loops: loops)
    }
}

/// One app of a phone: `{name: Bus, modes: [location], restoresState: false, regions: [stop], notifications: deny,
/// bluetooth: deny, bluetoothUsageDescription: "Finds your bus stop."}` (`bluetoothUsageDescription: false`: none);
/// an app with `program:` may say `preciseLocation: false`, one without `location: whenInUse` (or `always`,
/// `denied`, `notDetermined`).
struct AppSection: Decodable {
    var app: ScenarioApp

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["name", "modes", "restoresState", "regions", "notifyEntryStateOnDisplay",
                                                       "program", "notifications", "bluetooth", "bluetoothUsageDescription",
                                                       "preciseLocation", "location"])
        let name = try fields.required("name", String.self, expected: "the app's name")
        let modes = try fields.optional("modes", [String].self, expected: "a list of background modes") ?? []
        for mode in modes where !ScenarioApp.modeNames.contains(mode) {
            throw fields.error("modes", "\"\(mode)\" is not a background mode; use " + ScenarioApp.modeNames.joined(separator: ", "))
        }
        let restores = try fields.optional("restoresState", Bool.self, expected: "true or false") ?? false
        let regions = try fields.optional("regions", [String].self, expected: "a list of region identifiers")
        let onDisplay = try fields.optional("notifyEntryStateOnDisplay", Bool.self, expected: "true or false") ?? false
        let program = try fields.optional("program", String.self, expected: "the name of the program the app runs")
        if let program, program.allSatisfy(\.isWhitespace) {
            throw fields.error("program", "a program needs a name, e.g. heart-rate-monitor")
        }
        let notifications = try fields.optional("notifications", String.self, expected: "the user's answer to the notification prompt") ?? "allow"
        guard ScenarioApp.notificationAnswers.contains(notifications) else {
            throw fields.error("notifications", "\"\(notifications)\" is not an answer; use " + ScenarioApp.notificationAnswers.joined(separator: ", "))
        }
        let bluetooth = try fields.optional("bluetooth", String.self, expected: "the user's answer to the Bluetooth prompt") ?? "allow"
        guard ScenarioApp.bluetoothAnswers.contains(bluetooth) else {
            throw fields.error("bluetooth", "\"\(bluetooth)\" is not an answer; use " + ScenarioApp.bluetoothAnswers.joined(separator: ", "))
        }
        let usage = try fields.optional("bluetoothUsageDescription", String.self,
                                        expected: "the app's NSBluetoothAlwaysUsageDescription, or false for none")
        app = ScenarioApp(name: name, modes: modes, restoresState: restores, regions: regions, notifyEntryStateOnDisplay: onDisplay,
                          program: program, notifications: notifications, bluetooth: bluetooth,
                          bluetoothUsageDescription: usage == "false" ? nil : usage ?? ScenarioApp.defaultBluetoothUsageDescription)
        if let precise = try fields.optional("preciseLocation", Bool.self, expected: "true or false (the Precise Location switch)") {
            guard program != nil else {
                throw fields.error("preciseLocation", "app \"\(name)\" runs no program, so it has no Core Location manager to give "
                                   + "reduced accuracy; give it program: or leave out preciseLocation")
            }
            app.preciseLocation = precise
        }
        if let location = try fields.optional("location", String.self, expected: "the app's location authorization") {
            guard ScenarioApp.locationAuthorizations.contains(location) else {
                throw fields.error("location", "\"\(location)\" is not a location authorization; use "
                                   + ScenarioApp.locationAuthorizations.joined(separator: ", "))
            }
            guard program == nil else {
                throw fields.error("location", "app \"\(name)\" runs a program, whose Core Location code asks for authorization "
                                   + "itself; leave out location")
            }
            app.location = location
        }
    }
}
