// The `security:` mapping of a scenario's GATT device: what its Security Manager brings to pairing.

/// What a scenario GATT device's Security Manager brings to pairing (`security: {io:
/// displayOnly}` beside `gatt:`): its input and output (Core 5.4, Vol 3, Part H, §2.3.2),
/// which with the phone's pick the association model (§2.3.5.1, Table 2.8). A device with a
/// display (`displayOnly`, `displayYesNo`) asks its central to pair when it connects (a
/// Security Request, §2.4.6), MITM protection asked for, and asks again after a failure
/// once its waiting interval is over (§2.3.6); it shows each passkey where the phone's user
/// reads it. A device with a keyboard would need someone to type on it, which no scenario
/// user does, so the file offers none.
public struct ScenarioSecurity: Hashable, Sendable {
    /// The device's input and output, named as `BLE`'s `PairingOptions.IO` names them.
    public enum IO: String, Hashable, Sendable, CaseIterable {
        /// No display, no buttons: Just Works only.
        case noInputNoOutput
        /// A display that shows a passkey, and nothing to type with: the phone's user types
        /// the code it shows (Passkey Entry, §2.3.5.3).
        case displayOnly
        /// A display and yes/no buttons: Passkey Entry shown on the device in LE legacy
        /// pairing, Numeric Comparison with Secure Connections (the device's yes pressed,
        /// the phone's user compares).
        case displayYesNo

        /// Whether the device can show a passkey for the other side to type.
        public var displays: Bool { self != .noInputNoOutput }
    }

    /// The device's input and output.
    public var io: IO

    /// A device with this input and output.
    public init(io: IO) { self.io = io }
}

/// The YAML form of ``ScenarioSecurity``.
struct SecuritySection: Decodable {
    var security: ScenarioSecurity

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["io"])
        let names = ScenarioSecurity.IO.allCases.map(\.rawValue).joined(separator: ", ")
        let text = try fields.required("io", String.self, expected: names)
        guard let io = ScenarioSecurity.IO(rawValue: text) else {
            throw fields.error("io", "\"\(text)\" is not an IO capability; use " + names)
        }
        security = ScenarioSecurity(io: io)
    }
}
