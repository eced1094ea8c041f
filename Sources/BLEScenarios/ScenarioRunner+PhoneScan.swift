import BLEController
import BLEPhone
import BLEWorld

/// A phone's scan in a scenario run: the device it listens with and the duty it runs at.
struct PhoneScan {
    /// The phone's device in the scenario.
    var device: ScenarioDevice
    /// Its device in the world.
    var id: DeviceID
    /// The duty its controller scans with now; `nil` before the first is chosen.
    var duty: ScanDuty?
    /// Whether that duty is the one for apps off screen (so the profile's bursts apply).
    var offScreen = true
}

extension ScenarioRunner {
    /// Starts the scan of every phone that scans as its system does (a phone with `observe:`
    /// and no `scan:`): its beacon regions are watched with the phone's shared scan, whose
    /// duty is the phone's (iOS research §9, rule 8), so a phone in a pocket hears beacons
    /// as an iPhone with no app on screen does.
    func startPhoneScans() {
        for (device, id) in zip(scenario.devices, built.deviceIDs) where device.scansAsPhone && phones[device.name] != nil {
            phoneScans[device.name] = PhoneScan(device: device, id: id)
            reconsiderScan(of: device.name, at: world.now)
        }
    }

    /// Chooses the duty of phone `name`'s scan after its apps' states changed: the
    /// foreground duty while an app that follows a region is on screen, else the background
    /// duty (`PhonePolicy.scanDuty(foregroundScanner:)`). Our reading of rule 8 for beacon
    /// regions: iOS watches them with the same radio as its apps' scans, and Apple publishes
    /// no duty for either. A change restarts the controller's scan and goes on the timeline.
    func reconsiderScan(of name: String, at now: Microseconds) {
        guard var scan = phoneScans[name], let phone = phones[name] else { return }
        let onScreen = (phoneApps[name] ?? []).filter { app in (app.regions.map { !$0.isEmpty } ?? true)
            && (try? phone.state(of: app.name)) == .foreground }.map(\.name)
        let duty = phone.policy.scanDuty(foregroundScanner: !onScreen.isEmpty)
        guard duty != scan.duty else { return }
        scan.duty = duty
        scan.offScreen = onScreen.isEmpty
        phoneScans[name] = scan
        built.startScanner(scan.device.scanPlan(window: duty.window, interval: duty.interval, active: duty.active), for: scan.id)
        let why = onScreen.isEmpty ? "no app following a region on screen" : onScreen.joined(separator: ", ") + " on screen"
        let bursts = onScreen.isEmpty && phone.policy.scanProfile == .legacyIOS5to7
            ? ", in bursts of \(Self.milliseconds(phone.policy.backgroundScanBurst)) every \(Self.milliseconds(phone.policy.backgroundScanBurstPeriod))"
            : ""
        let words = "phone scan: \(Self.milliseconds(duty.window)) every \(Self.milliseconds(duty.interval)), "
            + (duty.active ? "active" : "passive") + bursts + " (\(why))"
        keep(ScenarioTimelineEvent(time: now, device: name, kind: .action(words)))
    }

    /// Whether the scan of `name` listens at `time`: always, except for a phone scanning as
    /// its system does with no app on screen between the bursts of the `legacyIOS5to7`
    /// profile (`PhonePolicy.backgroundScanPhase(at:)`, rule 8), when it hears nothing.
    func phoneScanListens(_ name: String, at time: Microseconds) -> Bool {
        guard !phoneScans.isEmpty, let scan = phoneScans[name], scan.offScreen, let phone = phones[name] else { return true }
        return phone.policy.backgroundScanPhase(at: time).listening
    }

    /// `microseconds` as milliseconds, seconds or minutes in words (`30 ms`, `25 s`, `11 min`).
    static func milliseconds(_ microseconds: Int64) -> String {
        if microseconds >= 60_000_000, microseconds % 60_000_000 == 0 { return "\(microseconds / 60_000_000) min" }
        if microseconds >= 1_000_000, microseconds % 1_000_000 == 0 { return "\(microseconds / 1_000_000) s" }
        return "\(ScenarioTimeline.number(Double(microseconds) / 1_000, places: 0)) ms"
    }
}
