/// The numbers of a simulated iPhone's background policy. Apple documents some of them; the
/// others come from developers' measurements or are our choice, and each says which, so a
/// test can set the value it wants to examine.
public struct PhonePolicy: Hashable, Sendable {
    /// How long a backgrounded app keeps running before it is suspended, in microseconds.
    /// Apple: "shortly after" (Core Bluetooth Programming Guide, background execution);
    /// default 5 s, our choice.
    public var suspendGrace: Int64 = 5_000_000
    /// How long an app woken for a Bluetooth or region event runs before it is suspended
    /// again. Apple: "around 10 seconds"; developers measured 0 to 30 s. Default 10 s.
    public var wakeWindow: Int64 = 10_000_000
    /// The longest a background task (`beginBackgroundTask`) may run; an app still in one
    /// then is terminated by the system. Default 30 s (iOS 13 and later, observed; 180 s on
    /// iOS 7 to 9).
    public var backgroundTaskLimit: Int64 = 30_000_000
    /// Whether an app force-quit by the user is relaunched for a beacon region event. Observed
    /// since iOS 7.1; default `true`.
    public var beaconRelaunchAfterForceQuit = true
    /// Which iOS era's rules decide Bluetooth relaunches after a force-quit or a restart
    /// (research §5 and §9, rule 16; TN3115 and QA1962). Default ``RelaunchProfile/iOS11to18``.
    public var relaunchProfile: RelaunchProfile = .iOS11to18
    /// Whether the phone has a passcode, so that after a restart (``PhoneAction/reboot``)
    /// nothing is relaunched for Bluetooth until the user first unlocks it
    /// (``PhoneAction/unlock``): the apps' data stays encrypted until then (TN3115: "not
    /// before the first unlock when a passcode is set"). Default `true`.
    public var passcodeSet = true
    /// Whether Airplane Mode leaves Bluetooth on, as it does once the user has switched
    /// Bluetooth on in Airplane Mode (Apple, "Use Airplane Mode on your iPhone": the phone
    /// remembers it); the phone then remembers each later choice made in Airplane Mode.
    /// Default `false`: Airplane Mode turns Bluetooth off.
    public var bluetoothStaysOnInAirplaneMode = false
    /// A fault a scenario can switch on: the probability that the system skips a
    /// `peripheralManagerIsReady(toUpdateSubscribers:)` it owes, drawn with the phone's seed
    /// for each one, so an app that waits only for that call after `updateValue` returned
    /// `false` stalls, and one that also tries again on a timer does not. Our fault, after
    /// the field reports; default 0 (never).
    public var readyToUpdateSubscribersSkipRate: Double = 0
    /// A fault a scenario can switch on: the phone model whose apps' scans stop delivering
    /// discoveries once the screen has been locked and turned on again, until an app starts
    /// its scan afresh (`scanForPeripherals` again). Apple Developer Forums thread 3774: a
    /// scan that "freezes", revived by restarting it. Default `false`.
    public var scanFreezesAfterScreenLock = false
    /// How late a region entry reaches an app that is not in the foreground: a delay drawn
    /// uniformly from this range, in microseconds. Measured 1 to 12 s (Radius Networks,
    /// 2015); in the foreground the entry comes at once.
    public var backgroundEntryDelay: ClosedRange<Int64> = 1_000_000 ... 12_000_000
    /// The share of beacon region departures whose exit reaches the app late, in the
    /// foreground or not: the monitoring of iOS decides it, not the app's state. Default 0.2,
    /// our choice so that exits average 39 s with a 30 s exit period, within the 35–42 s
    /// Radius Networks measured (iOS 8.3, 2015); they saw "mostly 20–30 s, some over 2
    /// minutes" on iOS 10.3.1 (2017). Research §7 and §9, rule 21.
    public var lateExitProbability = 0.2
    /// How much later than the manager's exit period (default 30 s) a late exit comes: a delay
    /// drawn uniformly from this range, in microseconds. Default 0 to 90 s, so that exits come
    /// 30 s to 2 min after the last packet (research §9, rule 21: "30 s with a tail to 120 s").
    public var lateExitDelay: ClosedRange<Int64> = 0 ... 90_000_000
    /// The share of beacon region departures whose exit never reaches the app: the region
    /// stays inside for the app until a beacon of it is heard again and a later departure is
    /// reported. Default 0.1 (research §9, rule 21); Radius Networks saw no exit at all in
    /// 1 of 6 to 7 of 10 trials (2015), and "some never" (2017). 0 reports every exit.
    public var exitMissProbability = 0.1

    /// How many monitored regions the phone watches closely, across all its apps, in the
    /// order they were registered: their events come as rules 21 and 22 say. Observed: about
    /// 30 device-wide (Radius Networks, 2015; research §9, rule 20); default 30.
    public var deviceRegionPriority = 30
    /// How late an entry or exit of a region beyond ``deviceRegionPriority`` reaches an app
    /// that is not in the foreground: a delay drawn uniformly from this range, in
    /// microseconds. Observed only as "best effort: very late, possibly never while the
    /// screen is off" (Radius Networks, 2015); default 1 to 15 min, our choice after the
    /// "up to 15 min" of background monitoring measured on iOS 7 (Radius Networks, 2013).
    public var bestEffortRegionDelay: ClosedRange<Int64> = 60_000_000 ... 900_000_000

    /// The advertising interval of an app's peripheral manager while the app is not in the
    /// foreground, in microseconds. No Apple figure; 200 ms observed (research §9, rule 12).
    public var backgroundAdvertisingInterval: Int64 = 200_000
    /// Pauses of an off-screen app's advertising (research §9, rule 12, `bgAdvDropout`):
    /// `nil`, the default, for none; ``AdvertisingDropouts/occasional`` or numbers of a
    /// test's own to switch the fault on.
    public var backgroundAdvertisingDropouts: AdvertisingDropouts?

    /// The scan window and interval of the phone's one shared scan while an app scanning is
    /// in the foreground, in microseconds: 30 ms every 40 ms, as developers observed on iOS
    /// (research §3, "Duty cycle"; §9, rule 8). Apple publishes no figure.
    public var foregroundScanWindow: Int64 = 30_000
    /// See ``foregroundScanWindow``.
    public var foregroundScanInterval: Int64 = 40_000
    /// The scan window and interval of the shared scan while no app scanning is in the
    /// foreground, in microseconds. Apple says only that the interval grows (Core Bluetooth
    /// Programming Guide); 30 ms every 300 ms is our invented default, there being no public
    /// measurement of a current iPhone (research §9, rule 8, and §10).
    public var backgroundScanWindow: Int64 = 30_000
    /// See ``backgroundScanWindow``.
    public var backgroundScanInterval: Int64 = 300_000
    /// Which iOS era's background scanning the phone follows: ``ScanProfile/modern`` (the
    /// default) scans with the background duty all the time; ``ScanProfile/legacyIOS5to7``
    /// only in bursts (research §9, rule 8).
    public var scanProfile: ScanProfile = .modern
    /// How long each background scan burst of ``ScanProfile/legacyIOS5to7`` lasts, in
    /// microseconds. Default 25 s (research §9, rule 8; "20–30 s" in google/eddystone #125,
    /// second-hand).
    public var backgroundScanBurst: Int64 = 25_000_000
    /// How often a burst of ``ScanProfile/legacyIOS5to7`` starts, in microseconds. Default 11
    /// minutes (research §9, rule 8, between the "~10 minutes" of google/eddystone #125 and
    /// the "about 12 minutes" of our seeds; neither measured).
    public var backgroundScanBurstPeriod: Int64 = 660_000_000
    /// Whether the shared scan sends scan requests while no app scanning is in the
    /// foreground. Default `false`: background scans are passive, so a service UUID only in
    /// a scan response is not matched — a claim of our seeds that nothing public confirms
    /// (research §3 and §9, rule 9).
    public var backgroundActiveScan = false

    /// The ATT error code a remote read of a dynamic characteristic (no value at publish)
    /// gets while the app is suspended without `bluetooth-peripheral`. Not documented by
    /// Apple; default 0x0E, Unlikely Error (research §9, rule 4, an unverified choice).
    public var suspendedDynamicReadError: UInt8 = 0x0E

    /// The time of day on the phone's clock (UTC, its calendar) at time 0 of a simulation,
    /// in microseconds after midnight: it places 5 AM, when Control Center's Bluetooth button
    /// comes on again, and the dates of its notifications. `nil` (the default): midnight for
    /// virtual time (1 January 2026, 00:00), the system's time of day on the wall clock.
    public var timeOfDayAtStart: Int64?

    /// The defaults above.
    public init() {}

    /// The defaults above, but with every beacon region exit reported one exit period after
    /// the last packet (``lateExitProbability`` and ``exitMissProbability`` 0): for runs whose
    /// story rests on exits coming when the monitoring core's plain rule says.
    public static var punctualExits: PhonePolicy {
        var policy = PhonePolicy()
        policy.lateExitProbability = 0
        policy.exitMissProbability = 0
        return policy
    }
}
