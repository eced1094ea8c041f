import Yams

// The YAML form of obstacles and scripted actions.

struct ObstacleSection: Decodable {
    var obstacle: Obstacle
    var attachedTo: String?

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["name", "box", "cylinder", "sphere", "lossDB", "attachedTo"])
        attachedTo = try fields.optional("attachedTo", String.self, expected: "the name of the device it moves with")
        let name = try fields.optional("name", String.self, expected: "a name") ?? "obstacle"
        guard let loss = try fields.number("lossDB", in: 0 ... 200, unit: "dB") else {
            throw fields.error(nil, .missingField, "obstacle \"\(name)\" needs lossDB")
        }
        let shapes = ["box", "cylinder", "sphere"].filter(fields.has)
        guard shapes.count == 1, let shape = shapes.first else {
            throw fields.error(nil, shapes.isEmpty ? .missingField : .invalidField,
                               "obstacle \"\(name)\" needs exactly one shape: box, cylinder or sphere")
        }
        let value = try fields.required(shape, ShapeSection.self, expected: "a \(shape)")
        obstacle = Obstacle(name: name, shape: value.shape, lossDB: loss)
    }
}

struct ShapeSection: Decodable {
    var shape: ObstacleShape

    init(from decoder: any Decoder) throws {
        let kind = decoder.codingPath.last?.stringValue ?? ""
        switch kind {
        case "box":
            let fields = try YAMLFields(decoder, allowed: ["min", "max"])
            guard let low = try fields.point("min"), let high = try fields.point("max") else {
                throw fields.error(nil, .missingField, "a box needs min and max corners [x, y, z]")
            }
            guard low.x <= high.x, low.y <= high.y, low.z <= high.z else {
                throw fields.error("max", "every coordinate of max must be at least that of min")
            }
            shape = .box(min: low, max: high)
        case "cylinder":
            let fields = try YAMLFields(decoder, allowed: ["base", "radius", "height"])
            guard let base = try fields.point("base"),
                  let radius = try fields.number("radius", in: 0.001 ... 10_000, unit: "m"),
                  let height = try fields.number("height", in: 0.001 ... 10_000, unit: "m") else {
                throw fields.error(nil, .missingField, "a cylinder needs base [x, y, z], radius and height")
            }
            shape = .cylinder(base: base, radius: radius, height: height)
        default:
            let fields = try YAMLFields(decoder, allowed: ["center", "radius"])
            guard let center = try fields.point("center"),
                  let radius = try fields.number("radius", in: 0.001 ... 10_000, unit: "m") else {
                throw fields.error(nil, .missingField, "a sphere needs center [x, y, z] and radius")
            }
            shape = .sphere(center: center, radius: radius)
        }
    }
}

struct ActionSection: Decodable {
    var action: ScenarioTimedAction

    static let singleDevice = ["powerOff", "powerOn", "powerCycle", "stopAdvertising", "startAdvertising", "reboot", "unlock"]
    static let verbs = singleDevice + ["setPacketLoss", "blockLink", "moveTo", "turn", "app", "bluetooth", "screen", "network", "notification",
                                       "airplaneMode", "controlCenterBluetooth", "preciseLocation"]

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["at"] + Self.verbs)
        guard let at = try fields.number("at", in: 0 ... 1_000_000_000, unit: "seconds") else {
            throw fields.error(nil, .missingField, "an action needs at (seconds)")
        }
        let verbs = Self.verbs.filter(fields.has)
        guard verbs.count == 1, let verb = verbs.first else {
            throw fields.error(nil, verbs.isEmpty ? .missingField : .invalidField,
                               "an action needs exactly one of \(Self.verbs.joined(separator: ", "))")
        }
        let action: ScenarioAction
        switch verb {
        case "setPacketLoss":
            let pair = try fields.required(verb, PairSection.self, expected: "{between: [a, b], rate}")
            guard let rate = pair.rate else { throw fields.error(verb, "setPacketLoss needs rate (0…1)") }
            action = .setPacketLoss(pair.a, pair.b, rate: rate)
        case "blockLink":
            let pair = try fields.required(verb, PairSection.self, expected: "{between: [a, b], blocked}")
            action = .blockLink(pair.a, pair.b, blocked: pair.blocked ?? true)
        case "moveTo":
            let move = try fields.required(verb, MoveSection.self, expected: "{device, position}")
            action = .moveTo(move.device, move.position)
        case "turn":
            let turn = try fields.required(verb, TurnSection.self, expected: "{device, heading}")
            action = .turn(turn.device, degrees: turn.heading)
        case "app":
            let app = try fields.required(verb, AppActionSection.self, expected: "{device, app, do}")
            action = .app(app.device, app: app.app, app.action)
        case "bluetooth", "screen", "network", "airplaneMode", "controlCenterBluetooth":
            let switched = try fields.required(verb, BluetoothSection.self, expected: "{device, on}")
            action = Self.phoneSwitch(verb, switched.device, on: switched.on)
        case "preciseLocation":
            let section = try fields.required(verb, PreciseLocationSection.self, expected: "{device, app, on}")
            action = .preciseLocation(section.device, app: section.app, on: section.on)
        case "notification":
            let section = try fields.required(verb, NotificationSection.self, expected: "{device, do, id, category, app, title}")
            action = .notification(section.device, section.notification)
        default:
            let name = try fields.required(verb, String.self, expected: "a device name")
            switch verb {
            case "powerOff": action = .powerOff(name)
            case "powerOn": action = .powerOn(name)
            case "powerCycle": action = .powerCycle(name)
            case "reboot": action = .reboot(name)
            case "unlock": action = .unlock(name)
            case "stopAdvertising": action = .stopAdvertising(name)
            default: action = .startAdvertising(name)
            }
        }
        self.action = ScenarioTimedAction(atSeconds: at, action: action)
    }
}

extension ActionSection {
    /// The phone switch `verb` names (`bluetooth`, `screen`, `network`, `airplaneMode`,
    /// `controlCenterBluetooth`), for the phone `device`.
    static func phoneSwitch(_ verb: String, _ device: String, on: Bool) -> ScenarioAction {
        switch verb {
        case "bluetooth": .bluetooth(device, on: on)
        case "screen": .screen(device, on: on)
        case "network": .network(device, on: on)
        case "airplaneMode": .airplaneMode(device, on: on)
        default: .controlCenterBluetooth(device, on: on)
        }
    }
}

struct PairSection: Decodable {
    var a: String
    var b: String
    var rate: Double?
    var blocked: Bool?

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["between", "rate", "blocked"])
        let names = try fields.required("between", [String].self, expected: "two device names [a, b]")
        guard names.count == 2, names[0] != names[1] else {
            throw fields.error("between", "expected two different device names [a, b]")
        }
        a = names[0]
        b = names[1]
        rate = try fields.number("rate", in: 0 ... 1, unit: "(probability)")
        blocked = try fields.optional("blocked", Bool.self, expected: "true or false")
    }
}

struct MoveSection: Decodable {
    var device: String
    var position: Vector3

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "position"])
        device = try fields.required("device", String.self, expected: "a device name")
        guard let position = try fields.point("position") else {
            throw fields.error(nil, .missingField, "moveTo needs position [x, y, z]")
        }
        self.position = position
    }
}

struct TurnSection: Decodable {
    var device: String
    var heading: Double

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "heading"])
        device = try fields.required("device", String.self, expected: "a device name")
        guard let heading = try fields.number("heading", in: -360 ... 360, unit: "degrees") else {
            throw fields.error(nil, .missingField, "turn needs heading (degrees, 0 along +x, counter-clockwise)")
        }
        self.heading = heading
    }
}

/// `app: {device: phone, app: Bus, do: background}`.
struct AppActionSection: Decodable {
    var device: String
    var app: String
    var action: ScenarioAppAction

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "app", "do"])
        device = try fields.required("device", String.self, expected: "the phone's name")
        app = try fields.required("app", String.self, expected: "the app's name")
        let verb = try fields.required("do", String.self, expected: "what happens to the app")
        guard let action = ScenarioAppAction(rawValue: verb) else {
            throw fields.error("do", "\"\(verb)\" is not an app action; use "
                + ScenarioAppAction.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.action = action
    }
}

/// `bluetooth: {device: phone, on: false}` (and `screen:` and `network:`, the same shape).
struct BluetoothSection: Decodable {
    var device: String
    var on: Bool

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "on"])
        device = try fields.required("device", String.self, expected: "the phone's name")
        on = try fields.required("on", Bool.self, expected: "true or false")
    }
}

/// `preciseLocation: {device: iPhone, app: Pulse, on: false}`: the user turns the app's
/// Precise Location switch in Settings.
struct PreciseLocationSection: Decodable {
    var device: String
    var app: String
    var on: Bool

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "app", "on"])
        device = try fields.required("device", String.self, expected: "the phone's name")
        app = try fields.required("app", String.self, expected: "the app's name")
        on = try fields.required("on", Bool.self, expected: "true or false (the Precise Location switch)")
    }
}
