import BLEPhone
import Testing

/// The seeds the phone gives its apps' region monitors for rule 21's late and missed exits
/// (research §9), and the policy's numbers for them.
@Suite("The simulated iPhone's exit seeds")
struct PhoneExitSeedTests {
    static let second: Int64 = 1_000_000

    @Test("Monitor seeds repeat with the phone's seed, differ from one monitor and one phone to the next")
    func seedsRepeat() {
        var phone = PhoneCore(seed: 9), again = PhoneCore(seed: 9), other = PhoneCore(seed: 10)
        let seeds = (0 ..< 5).map { _ in phone.nextMonitorSeed() }
        #expect((0 ..< 5).map { _ in again.nextMonitorSeed() } == seeds)
        #expect(Set(seeds).count == 5)
        #expect((0 ..< 5).map { _ in other.nextMonitorSeed() } != seeds)
    }

    @Test("Drawing monitor seeds leaves the entry delays of rule 21 as they were")
    func entryDelaysUntouched() throws {
        func entryDue(drawingSeeds: Bool) throws -> Int64? {
            var phone = PhoneCore(seed: 3)
            try phone.install(AppDescription(name: "Bus"))
            if drawingSeeds { for _ in 0 ..< 3 { _ = phone.nextMonitorSeed() } }
            let entry = PhoneEvent(kind: .region, detail: "didEnterRegion stop", time: 10 * Self.second)
            _ = try phone.event(entry, for: "Bus", at: entry.time)
            return phone.nextDeadline
        }
        let plain = try entryDue(drawingSeeds: false)
        #expect(plain != nil)
        #expect(try entryDue(drawingSeeds: true) == plain)
    }

    @Test("The default policy has rule 21's exits: a fifth late by up to 90 s, a tenth missed; punctualExits has none")
    func policy() {
        let policy = PhonePolicy()
        #expect(policy.lateExitProbability == 0.2)
        #expect(policy.lateExitDelay == 0 ... 90 * Self.second)
        #expect(policy.exitMissProbability == 0.1)
        let punctual = PhonePolicy.punctualExits
        #expect(punctual.lateExitProbability == 0 && punctual.exitMissProbability == 0)
        #expect(punctual.backgroundEntryDelay == policy.backgroundEntryDelay)
    }
}
