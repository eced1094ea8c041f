import BLEWorld
import Foundation
import Testing

/// Every bundled scenario decodes to the same `Scenario` value as it did before loading was made
/// fast (issue 31, item 3): the digests below were recorded from the earlier decoder, so a change
/// to how YAML scalars are resolved or read cannot silently change a number, a flag or a name.
@Suite("Bundled scenarios decode unchanged")
struct BundledScenarioDigestTests {
    /// FNV-1a (64-bit) of `String(reflecting:)` of each decoded scenario, recorded with the
    /// decoder that composed with Yams' default (regular-expression) resolver. Re-recorded when
    /// ScenarioDevice gained `attack` (each device reflects one more `attack: nil`; with those
    /// removed every digest equalled the earlier one). car-pocket, car-pocket-20, bus-route-pocket, heart-rate-run and
    /// bus-stop-coded were recorded when they were added, with the decoder of their day;
    /// heart-rate-run again when it gained `phone: {punctualExits: true}`.
    static let recorded: [String: String] = [
        "bus-fleet.yaml": "84293fb081a4379f",
        "bus-route.yaml": "8913b6824993adc6",
        "bus-route-pocket.yaml": "e468645f9bae15ad",
        "bus-stop-pocket.yaml": "19961a6b8444bcd2",
        "bus-stop.yaml": "66060c0770b3bad1",
        "bus-stop-coded.yaml": "b75ee22300fb1e3c",
        "call-notification-light.yaml": "818e51338c22d3ad",
        "car.yaml": "5eaadff39ef8b0e5",
        "car-pocket.yaml": "a51aa5c5e94bbfe8",
        "car-pocket-20.yaml": "89a9dfa9b6101ff9",
        "cheating.yaml": "cec4e1578cfd955e",
        "crowd.yaml": "a2d563a637d21fbc",
        "flat.yaml": "cf2b6dc65b015cea",
        "heart-rate-force-quit.yaml": "9d355449f174457b",
        "heart-rate-restore.yaml": "3378b32210c407c0",
        "heart-rate-run.yaml": "5226901714848b57",
        "neighbourhood.yaml": "d56717b518b112c2",
        "ride-log.yaml": "9c7aa6069839a2d6",
        "shop.yaml": "9da32ebb6f1d4b87",
        "stolen-car.yaml": "1cbc86f0bf442da6",
        "walk.yaml": "569502ce8bccd636",
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios")

    /// FNV-1a, 64-bit: a small stable digest (Swift's own hashing is seeded per process).
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    @Test("Each bundled scenario decodes to its recorded value", arguments: recorded.keys.sorted())
    func decodesUnchanged(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: Self.folder.appendingPathComponent(name).path)
        // heart-rate-run alone names phone settings (punctualExits), recorded with them.
        #expect(scenario.devices.allSatisfy { $0.phone == nil } || name == "heart-rate-run.yaml", "phone settings in \(name)")
        // ScenarioDevice gained `phone`, ScenarioAdvertising `extended` and ScenarioScanning
        // `extendedPHYs` after the digests were recorded: each reflects one more `nil`, which is
        // taken out so the recorded digests stay the proof (bus-stop-coded was recorded without them too);
        // likewise ScenarioApp's `preciseLocation`, true unless a file turns it off, and its
        // `location`, "always" unless a file says otherwise, and, in
        // heart-rate-run's phone, ScenarioPhone's `pairing` and PhonePolicy's `timeOfDayAtStart`;
        // ScenarioDevice's `security`, nil unless a GATT device says otherwise; and
        // ScenarioAdvertising.Extended's `periodic` and ScenarioScanning's `periodicSync`.
        let reflected = String(reflecting: scenario).replacingOccurrences(of: ", phone: nil", with: "")
            .replacingOccurrences(of: ", extended: nil", with: "").replacingOccurrences(of: ", extendedPHYs: nil", with: "")
            .replacingOccurrences(of: ", preciseLocation: true", with: "").replacingOccurrences(of: ", location: \"always\"", with: "")
            .replacingOccurrences(of: ", pairing: nil", with: "").replacingOccurrences(of: ", security: nil", with: "").replacingOccurrences(of: ", timeOfDayAtStart: nil", with: "")
            .replacingOccurrences(of: ", periodic: nil", with: "").replacingOccurrences(of: ", periodicSync: nil", with: "")
        #expect(Self.digest(reflected) == Self.recorded[name])
    }

    @Test("Every bundled scenario has a recorded digest")
    func everyScenarioRecorded() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(Set(files) == Set(Self.recorded.keys))
    }
}
