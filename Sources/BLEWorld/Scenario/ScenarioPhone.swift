import BLEPhone

/// A scenario phone's settings (`phone:` on a device with apps): the iOS profile it runs and
/// the rules that follow from it and from the file's switches and faults.
///
/// ```yaml
/// phone: {profile: iOS7, passcode: false, bluetoothStaysOnInAirplaneMode: true,
///         backgroundAdvertisingDropouts: true, readyToUpdateSubscribersSkipRate: 0.2,
///         scanFreezesAfterScreenLock: true}
/// ```
public struct ScenarioPhone: Hashable, Sendable {
    /// The profile's name (`PhonePolicy.profileNames`): `today` (the default) or `iOS7`.
    public var profile: String
    /// The phone's rules: the profile's, with the file's switches and faults applied.
    public var policy: PhonePolicy

    /// Settings of `profile` with `policy`.
    public init(profile: String, policy: PhonePolicy) {
        self.profile = profile
        self.policy = policy
    }
}

/// The YAML form of ``ScenarioPhone``.
struct PhoneSection: Decodable {
    var phone: ScenarioPhone

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["profile", "passcode", "bluetoothStaysOnInAirplaneMode",
                                                       "backgroundAdvertisingDropouts", "readyToUpdateSubscribersSkipRate",
                                                       "scanFreezesAfterScreenLock", "punctualExits"])
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
        phone = ScenarioPhone(profile: profile, policy: policy)
    }
}
