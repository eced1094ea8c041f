import BLEController
import BLEWire

/// A hostile device of a scenario (the file's `attack:`): its controller is a
/// ``BLEController/HostileController`` running one SweynTooth attack (docs/security.md), and
/// its scripted host (``ScenarioAttacker``) connects to `target` and gives the attack
/// packets to work on.
///
/// ```yaml
/// - name: mallory
///   position: [1, 0, 1]
///   attack: {kind: llid-deadlock, target: lock, budget: 3}
/// ```
public struct ScenarioAttack: Hashable, Sendable {
    /// What the device's controller does to its packets.
    public var attack: SweynToothAttack
    /// The name of the device attacked: it must advertise connectably.
    public var target: String
    /// How many packets the attack rewrites before the device behaves (`budget`; all when absent).
    public var budget: Int

    /// An attack with every field.
    public init(attack: SweynToothAttack, target: String, budget: Int = .max) {
        self.attack = attack
        self.target = target
        self.budget = budget
    }

    /// The names `kind:` takes, and what each stages.
    static let kinds = ["link-layer-length-overflow", "llid-deadlock", "silent-length-overflow",
                        "invalid-connection-request", "invalid-channel-map"]
}

/// `attack: {kind, target, budget, octets, fault, map}`.
struct AttackSection: Decodable {
    var attack: ScenarioAttack

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["kind", "target", "budget", "octets", "fault", "map"])
        let kind = try fields.required("kind", String.self, expected: ScenarioAttack.kinds.joined(separator: ", "))
        let target = try fields.required("target", String.self, expected: "the name of the device attacked")
        let budget = try fields.number("budget", in: 1 ... 1_000_000, unit: "packets").map { Int($0) } ?? .max
        let attack: SweynToothAttack
        switch kind {
        case "link-layer-length-overflow": attack = .linkLayerLengthOverflow
        case "llid-deadlock": attack = .llidDeadlock
        case "silent-length-overflow":
            attack = .silentLengthOverflow(octets: Int(try fields.number("octets", in: 28 ... 255, unit: "octets") ?? 114))
        case "invalid-connection-request":
            let names = SweynToothAttack.ConnectionRequestFault.allCases.map(\.rawValue)
            let text = try fields.optional("fault", String.self, expected: names.joined(separator: ", ")) ?? "intervalZero"
            guard let fault = SweynToothAttack.ConnectionRequestFault(rawValue: text) else {
                throw fields.error("fault", "\"\(text)\" is not a CONNECT_IND fault; use one of " + names.joined(separator: ", "))
            }
            attack = .invalidConnectionRequest(fault)
        case "invalid-channel-map":
            attack = .invalidChannelMap(map: UInt64(try fields.number("map", in: 0 ... 0x1F_FFFF_FFFF, unit: "a 37-bit channel map") ?? 0))
        default:
            throw fields.error("kind", "\"\(kind)\" is not an attack; use one of " + ScenarioAttack.kinds.joined(separator: ", "))
        }
        self.attack = ScenarioAttack(attack: attack, target: target, budget: budget)
    }
}

extension Scenario {
    /// Checks that each hostile device attacks another device of the scenario.
    func validateAttacks(names: [String: Int]) throws(ScenarioError) {
        for (index, device) in devices.enumerated() {
            guard let attack = device.attack else { continue }
            guard names[attack.target] != nil, attack.target != device.name else {
                throw ScenarioError(.unknownDevice, path: "devices[\(index)].attack.target", device: device.name,
                                    message: "\"\(attack.target)\" is not another device of the scenario")
            }
        }
    }
}
