import BLEPhone

/// A scenario phone's settings (`phone:` on a device with apps): the iOS profile it runs and
/// the rules that follow from it and from the file's switches and faults.
///
/// ```yaml
/// phone: {profile: iOS7, passcode: false, bluetoothStaysOnInAirplaneMode: true,
///         backgroundAdvertisingDropouts: true, readyToUpdateSubscribersSkipRate: 0.2,
///         scanFreezesAfterScreenLock: true, pairing: {answer: cancel, after: 3}}
/// ```
public struct ScenarioPhone: Hashable, Sendable {
    /// The profile's name (`PhonePolicy.profileNames`): `today` (the default) or `iOS7`.
    public var profile: String
    /// The phone's rules: the profile's, with the file's switches and faults applied.
    public var policy: PhonePolicy
    /// How the phone's user answers its pairing dialogs (`pairing:`); `nil`: the phone
    /// shows none and pairs as a device with no input or output.
    public var pairing: ScenarioPairing?

    /// Settings of `profile` with `policy`, and the user's answers to pairing dialogs.
    public init(profile: String, policy: PhonePolicy, pairing: ScenarioPairing? = nil) {
        self.profile = profile
        self.policy = policy
        self.pairing = pairing
    }
}

/// How a scenario phone's user answers iOS's "Bluetooth Pairing Request" (`pairing:` in
/// `phone:`): `{answer: pair, after: 2, mistypes: false}`. With it the phone pairs as an
/// iPhone does (display and keyboard) and shows each dialog on its timeline: Pair or Cancel
/// for Just Works, the six digits to confirm for Numeric Comparison, the code to type for
/// Passkey Entry (Core 5.4, Vol 3, Part H, §2.3.5.1).
public struct ScenarioPairing: Hashable, Sendable {
    /// What the user does with each dialog.
    public enum Answer: String, Hashable, Sendable, CaseIterable {
        /// Taps Pair (types the code when asked for one).
        case pair
        /// Taps Cancel.
        case cancel
        /// Leaves the dialog on screen: the pairing times out after 30 s (§3.4).
        case ignore
    }

    /// What the user does with each dialog; `pair` by default.
    public var answer: Answer
    /// How long the user takes to answer, in seconds; 0 by default. An answer later than
    /// the 30 s SMP timeout comes too late: the dialog is gone.
    public var afterSeconds: Double
    /// How many codes the user types wrong (the last digit one too high) before typing the
    /// one shown: `mistypes: 2`; `true` is one, `false` (the default) none. Each wrong code
    /// fails its pairing with Confirm Value Failed (0x04; Core 5.4, Vol 3, Part H, §2.3.5.3).
    public var mistypes: Int

    /// Answers; by default the user taps Pair at once and types what is shown.
    public init(answer: Answer = .pair, afterSeconds: Double = 0, mistypes: Int = 0) {
        self.answer = answer
        self.afterSeconds = afterSeconds
        self.mistypes = mistypes
    }
}

/// The YAML form of ``ScenarioPairing``.
struct PairingSection: Decodable {
    var pairing: ScenarioPairing

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["answer", "after", "mistypes"])
        let names = ScenarioPairing.Answer.allCases.map(\.rawValue).joined(separator: ", ")
        var answer = ScenarioPairing.Answer.pair
        if let text = try fields.optional("answer", String.self, expected: names) {
            guard let known = ScenarioPairing.Answer(rawValue: text) else {
                throw fields.error("answer", "\"\(text)\" is not an answer to a pairing dialog; use " + names)
            }
            answer = known
        }
        let after = try fields.number("after", in: 0 ... 600, unit: "seconds") ?? 0
        let mistypes: Int
        if let count = try? fields.optional("mistypes", Int.self, expected: "a count of wrong codes, or true or false") {
            guard (0 ... 10).contains(count) else {
                throw fields.error("mistypes", "\(count) is not a count of wrong codes from 0 to 10")
            }
            mistypes = count
        } else {
            mistypes = try fields.optional("mistypes", Bool.self, expected: "a count of wrong codes (0 to 10), or true or false") == true ? 1 : 0
        }
        pairing = ScenarioPairing(answer: answer, afterSeconds: after, mistypes: mistypes)
    }
}

/// The YAML form of ``ScenarioPhone``.
struct PhoneSection: Decodable {
    var phone: ScenarioPhone

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["profile", "passcode", "bluetoothStaysOnInAirplaneMode",
                                                       "backgroundAdvertisingDropouts", "readyToUpdateSubscribersSkipRate",
                                                       "scanFreezesAfterScreenLock", "punctualExits", "pairing"])
        let profile = try fields.optional("profile", String.self, expected: PhonePolicy.profileNames.joined(separator: " or ")) ?? "today"
        guard var policy = PhonePolicy.profile(named: profile) else {
            throw fields.error("profile", "\"\(profile)\" is no iOS profile; use " + PhonePolicy.profileNames.joined(separator: " or "))
        }
        if let passcode = try fields.optional("passcode", Bool.self, expected: "true or false") { policy.passcodeSet = passcode }
        if let stays = try fields.optional("bluetoothStaysOnInAirplaneMode", Bool.self, expected: "true or false") {
            policy.bluetoothStaysOnInAirplaneMode = stays
        }
        if try fields.optional("backgroundAdvertisingDropouts", Bool.self, expected: "true or false") == true {
            policy.backgroundAdvertisingDropouts = .occasional
        }
        if let rate = try fields.number("readyToUpdateSubscribersSkipRate", in: 0 ... 1, unit: "(probability)") {
            policy.readyToUpdateSubscribersSkipRate = rate
        }
        if let freezes = try fields.optional("scanFreezesAfterScreenLock", Bool.self, expected: "true or false") {
            policy.scanFreezesAfterScreenLock = freezes
        }
        if try fields.optional("punctualExits", Bool.self, expected: "true or false") == true {
            policy.lateExitProbability = 0
            policy.exitMissProbability = 0
        }
        let pairing = try fields.optional("pairing", PairingSection.self, expected: "{answer, after, mistypes}")?.pairing
        phone = ScenarioPhone(profile: profile, policy: policy, pairing: pairing)
    }
}
