import BLEWorld
import Foundation
import Testing

/// Every bundled scenario decodes to the same `Scenario` value as it did before loading was made
/// fast (issue 31, item 3): the digests below were recorded from the earlier decoder, so a change
/// to how YAML scalars are resolved or read cannot silently change a number, a flag or a name.
@Suite("Bundled scenarios decode unchanged")
struct BundledScenarioDigestTests {
    /// FNV-1a (64-bit) of `String(reflecting:)` of each decoded scenario, recorded with the
    /// decoder that composed with Yams' default (regular-expression) resolver.
    static let recorded: [String: String] = [
        "bus-fleet.yaml": "d317d86af6c81934",
        "bus-route.yaml": "26840c5799d10d9d",
        "bus-stop-pocket.yaml": "b09b28021a299d58",
        "bus-stop.yaml": "a9daea793f0dabda",
        "call-notification-light.yaml": "835eeb8d552dc18d",
        "car.yaml": "7f5b90a93d3bebc7",
        "cheating.yaml": "2f8120fc40df3d14",
        "crowd.yaml": "790413ca7728cc7",
        "flat.yaml": "83a899e00671cdd6",
        "heart-rate-force-quit.yaml": "c0c87506469e430d",
        "heart-rate-restore.yaml": "c9deb834c78e152e",
        "neighbourhood.yaml": "2613a58c3ce20387",
        "ride-log.yaml": "21a8ba747d8e99a2",
        "shop.yaml": "c4cfd47c08bd8f34",
        "stolen-car.yaml": "a9ff56ce6c83ec94",
        "walk.yaml": "2b82710c13e79130",
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
        #expect(Self.digest(String(reflecting: scenario)) == Self.recorded[name])
    }

    @Test("Every bundled scenario has a recorded digest")
    func everyScenarioRecorded() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(Set(files) == Set(Self.recorded.keys))
    }
}
