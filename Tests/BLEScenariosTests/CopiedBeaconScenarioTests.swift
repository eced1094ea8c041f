import BLEBeacons
import BLEController
import BLEWire
import BLEWorld
import Testing

/// A world's rotating Eddystone-EID beacons and the devices that copy what beacons send
/// (docs/scenarios.md, `eddystoneEID` and `copies`).
@Suite("Rotating EID beacons and copiers in a world")
struct CopiedBeaconScenarioTests {
    static let key = "0102030405060708090A111213141516"

    /// Every advertising report `listener` received, with its time, address and data.
    static func run(_ yaml: String, until seconds: Double, listener: String) throws
        -> (built: BuiltScenario, reports: [(time: Microseconds, address: BluetoothAddress, data: [UInt8])]) {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
        let world = World(configuration: scenario.worldConfiguration)
        let built = try scenario.build(into: world)
        let id = try #require(built.id(of: listener))
        var reports: [(Microseconds, BluetoothAddress, [UInt8])] = []
        built.onHostPacket = { device, packet in
            guard device == id, case let .event(event) = packet,
                  case let .leMeta(.advertisingReport(report))? = try? HCI.Event(decoding: event) else { return }
            for entry in report.reports { reports.append((world.now, entry.address, Array(entry.data))) }
        }
        world.run(until: Microseconds(seconds * 1_000_000))
        return (built, reports)
    }

    /// The Eddystone-EID identifier in advertising data, if any.
    static func ephemeralIdentifier(_ data: [UInt8]) -> UInt64? {
        guard let parsed = try? AdvertisingData(decoding: data[...]),
              let service = parsed.serviceData(for: BluetoothUUID(0xFEAA)),
              case let .eid(frame)? = try? EddystoneFrame(serviceData: service) else { return nil }
        return frame.ephemeralIdentifier
    }

    @Test("The world's EID computation gives ephemeral_calc's published identifiers, as BLEBeacons does")
    func publishedVectors() throws {
        let eid = ScenarioAdvertisingContent.EddystoneEID(identityKey: 0x0102_0304_0506_0708_090A_1112_1314_1516, rotationExponent: 10)
        #expect(try eid.ephemeralIdentifier(timeCounter: 0) == 0xA9B7_6A71_C5F8_9290)
        #expect(try eid.ephemeralIdentifier(timeCounter: 2000) == 0x4144_413E_45FE_FA58)
        let key = try EddystoneEIDKey(identityKey: eid.identityKey, rotationExponent: 10)
        for counter: UInt32 in [65_280, 65_535, 65_536, 1_000_000] {
            #expect(try eid.ephemeralIdentifier(timeCounter: counter) == key.ephemeralIdentifier(timeCounter: counter))
        }
    }

    @Test("An eddystoneEID beacon changes its frame every 2^K seconds of its counter, on the world's clock; a scanner hears each identifier BLEBeacons computes for that time")
    func rotatesOnVirtualTime() throws {
        let yaml = """
        devices:
          - name: beacon
            position: [0, 0, 1]
            advertise: {type: nonconn_ind, interval: 100, eddystoneEID: {identityKey: \(Self.key), rotationExponent: 2, timeCounter: 101}}
          - name: phone
            position: [2, 0, 1]
            scan: {interval: 100, window: 100}
        """
        let (built, reports) = try Self.run(yaml, until: 20, listener: "phone")
        let beacon = try #require(built.scenario.device(named: "beacon"))
        let key = try EddystoneEIDKey(identityKey: 0x0102_0304_0506_0708_090A_1112_1314_1516, rotationExponent: 2)
        var heard: [UInt64] = []
        for report in reports where report.address.value == beacon.address.value {
            let identifier = try #require(Self.ephemeralIdentifier(report.data))
            let counter = 101 + UInt32(report.time / 1_000_000)
            // A frame changes at the boundary; the advertising event under way then may still carry the last one.
            let justBefore = 101 + UInt32(max(0, report.time - 20_000) / 1_000_000)
            #expect(try [key.ephemeralIdentifier(timeCounter: counter), key.ephemeralIdentifier(timeCounter: justBefore)].contains(identifier),
                    "at \(report.time) µs")
            if heard.last != identifier { heard.append(identifier) }
        }
        // Counters 101–120: periods 100, 104, 108, 112, 116 and 120.
        #expect(heard.count >= 5)
        #expect(Set(heard).count == heard.count, "an identifier came back")
    }

    @Test("A copier near a beacon replays exactly the octets it received, from its own address, after the beacon is gone; one too far away to hear it copies nothing")
    func copierReplaysWhatItHeard() throws {
        let yaml = """
        devices:
          - name: beacon
            position: [0, 0, 1]
            advertise: {type: nonconn_ind, interval: 100, iBeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 7, minor: 1}}
          - name: copier
            position: [1, 0, 1]
            copies: {device: beacon, captureUntil: 3, replayFrom: 6}
          - name: far copier
            position: [2000, 0, 1]
            copies: {device: beacon, captureUntil: 3, replayFrom: 6}
          - name: phone
            position: [0, 2, 1]
            scan: {interval: 100, window: 100}
        actions:
          - {at: 4, powerOff: beacon}
        """
        let (built, reports) = try Self.run(yaml, until: 10, listener: "phone")
        let beacon = try #require(built.scenario.device(named: "beacon"))
        let copier = try #require(built.scenario.device(named: "copier"))
        let plan = try beacon.advertisingPlan()
        let sent = try #require(plan).advertisingData
        let capture = try #require(built.capture(of: "copier"))
        #expect(capture.data == sent)
        #expect(capture.time < 3_000_000 && capture.reports > 10)
        #expect(built.capture(of: "far copier") == nil)
        let replayed = reports.filter { $0.address.value == copier.address.value }
        #expect(!replayed.isEmpty)
        #expect(replayed.allSatisfy { $0.time >= 6_000_000 && $0.data == sent })
        #expect(!reports.contains { $0.address.value == beacon.address.value && $0.time > 4_100_000 })
    }

    @Test("Bad eddystoneEID and copies keys are refused with the file, line and key path", arguments: [
        ("advertise: {eddystoneEID: {identityKey: 0102, rotationExponent: 5}}", "devices[0].advertise.eddystoneEID.identityKey", 3),
        ("advertise: {eddystoneEID: {identityKey: \(key), rotationExponent: 16}}", "devices[0].advertise.eddystoneEID.rotationExponent", 3),
        ("advertise: {eddystoneEID: {rotationExponent: 5}}", "devices[0].advertise.eddystoneEID", 3),
        ("advertise: {eddystoneEID: {identityKey: \(key), rotationExponent: 5}, serviceData: {FEAA: '00'}}", "devices[0].advertise.serviceData", 3),
        ("copies: {device: b, captureUntil: 10, replayFrom: 5}", "devices[0].copies.replayFrom", 3),
        ("copies: {device: b, replayFrom: 5}", "devices[0].copies", 3),
    ])
    func badKeys(line: String, path: String, lineNumber: Int) throws {
        let yaml = "devices:\n  - name: a\n    \(line)\n  - name: b\n"
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.path == path)
            #expect(error.line == lineNumber)
            #expect(error.description.hasPrefix("test.yaml:\(lineNumber): device \"a\", \(path): "), "\(error)")
        }
    }

    @Test("A copier of a device the scenario does not have is refused, naming it")
    func unknownTarget() throws {
        do {
            _ = try ScenarioLoader.parse(yaml: "devices:\n  - name: a\n    copies: {device: shop, captureUntil: 1, replayFrom: 2}\n", file: "test.yaml")
            Issue.record("accepted")
        } catch {
            #expect(error.path == "devices[0].copies.device")
            #expect(error.description.contains("\"shop\""))
        }
    }
}
