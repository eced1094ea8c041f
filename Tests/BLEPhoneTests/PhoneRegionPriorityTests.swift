import BLEPhone
import Testing

/// The device-wide priority of monitored regions (research §9, rule 20), on the phone's
/// system alone.
@Suite("The simulated iPhone's region priority")
struct PhoneRegionPriorityTests {
    static let second: Int64 = 1_000_000

    /// The time the region event `detail` of `app` is delivered, advancing the phone's
    /// deadlines one by one.
    static func delivery(of detail: String, to app: String, on phone: inout PhoneCore) -> Int64? {
        while let deadline = phone.nextDeadline {
            for output in phone.advance(to: deadline) {
                if case let .deliver(name, events) = output, name == app, events.contains(where: { $0.detail == detail }) { return deadline }
            }
        }
        return nil
    }

    @Test("Rule 20: beyond deviceRegionPriority regions across apps, a region's entry and exit reach a background app best effort, late; stopping one lets the next in")
    func bestEffortBeyondPriority() throws {
        var policy = PhonePolicy()
        policy.deviceRegionPriority = 2
        var phone = PhoneCore(policy: policy, seed: 9)
        try phone.install(AppDescription(name: "Shop"))
        try phone.install(AppDescription(name: "Bus"))
        phone.startMonitoringRegion("door", for: "Shop")
        phone.startMonitoringRegion("till", for: "Shop")
        phone.startMonitoringRegion("stop", for: "Bus")
        phone.startMonitoringRegion("door", for: "Shop")
        #expect(phone.isPriorityRegion("door", of: "Shop") && phone.isPriorityRegion("till", of: "Shop"))
        #expect(!phone.isPriorityRegion("stop", of: "Bus"), "the third region device-wide")
        for name in ["Shop", "Bus"] {
            _ = try phone.handle(.launch(name), at: 0)
            _ = try phone.handle(.background(name), at: 0)
        }

        let start = 10 * Self.second
        _ = try phone.event(PhoneEvent(kind: .region, detail: "didEnterRegion door", time: start, region: "door"), for: "Shop", at: start)
        _ = try phone.event(PhoneEvent(kind: .region, detail: "didExitRegion stop", time: start, region: "stop"), for: "Bus", at: start)
        var copy = phone
        let door = try #require(Self.delivery(of: "didEnterRegion door", to: "Shop", on: &copy))
        #expect(policy.backgroundEntryDelay.contains(door - start))
        let stop = try #require(Self.delivery(of: "didExitRegion stop", to: "Bus", on: &phone))
        #expect(policy.bestEffortRegionDelay.contains(stop - start), "an exit too, and minutes late")

        // In the foreground the app hears it at once.
        _ = try phone.handle(.foreground("Bus"), at: stop)
        let now = try phone.event(PhoneEvent(kind: .region, detail: "didEnterRegion stop", time: stop, region: "stop"), for: "Bus", at: stop)
        #expect(now.contains { if case .deliver(app: "Bus", events: _) = $0 { true } else { false } })

        phone.stopMonitoringRegion("till", for: "Shop")
        #expect(phone.isPriorityRegion("stop", of: "Bus"))
    }
}
