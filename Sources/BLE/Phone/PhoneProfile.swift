import BLEPhone
import BLEWorld

/// What changed between iOS versions, in one place: the phone's rules (``PhonePolicy``) and
/// its host's habits on the air (``HostProfile``). Open the phone's device with
/// `profile: phoneProfile.host` and make the phone with `SimulatedPhone(device:profile:)`.
public struct PhoneProfile: Hashable, Sendable {
    /// Its name, as scenario files and docs write it.
    public var name: String
    /// The phone's rules: scanning, relaunches, region events.
    public var policy: PhonePolicy
    /// The host's habits: ATT MTU, data length, connection parameters, long writes.
    public var host: HostProfile

    /// A profile.
    public init(name: String, policy: PhonePolicy, host: HostProfile) {
        self.name = name
        self.policy = policy
        self.host = host
    }

    /// Today's iPhone, the default: ``PhonePolicy``'s defaults and ``HostProfile/iPhone``
    /// (ATT MTU 185, 251-octet PDUs).
    public static let today = PhoneProfile(name: "today", policy: PhonePolicy(), host: .iPhone)

    /// The iOS 7 era of the field reports: background scans in bursts about every 11 minutes
    /// (``ScanProfile/legacyIOS5to7``), no Bluetooth relaunch after a restart or a force-quit
    /// and no relaunch for a beacon region after a force-quit (before iOS 7.1), ATT MTU 23
    /// with writes without response past 20 octets silently cut (``HostProfile/iPhoneIOS7``).
    /// Which restarts iOS 7 relaunched for is not documented; the oldest documented rules,
    /// iOS 10's (``RelaunchProfile/iOS10``), stand in.
    public static let iOS7 = PhoneProfile(name: "iOS7", policy: .iOS7, host: .iPhoneIOS7)

    /// Every profile, by name.
    public static let all = [today, iOS7]

    /// The profile a scenario's phone names (`phone: {profile}`), with the file's switches
    /// in its policy; today's for a device without a `phone:` section.
    public init(scenario phone: ScenarioPhone?) {
        let base = Self.all.first { $0.name == phone?.profile } ?? .today
        self.init(name: base.name, policy: phone?.policy ?? base.policy, host: base.host)
    }
}
