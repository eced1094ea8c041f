import BLEController
import BLEScenarios
import BLEWire
import BLEWorld
import Testing

/// A plain beacon run as a ``BeaconController`` driven by the world gives exactly what a
/// full ``Controller`` set up by its scripted host over HCI gives: the same packets at the
/// same times, so the same receptions, counters and timeline (docs/world-benchmarks.md).
@Suite("Plain beacons without HCI")
struct BeaconDrivingTests {
    /// Everything a run produced that the way its beacons were driven must not change.
    struct Outcome: Equatable {
        var receptions: [WorldReception] = []
        var timeline = ""
        /// Each device's counters but the HCI ones (a beacon without a host has no HCI).
        var airCounters: [[Int]] = []
        var plainBeacons = 0
    }

    static func run(_ scenario: Scenario, seconds: Double, beacons: ScenarioBeacons) throws -> Outcome {
        let runner = try ScenarioRunner(scenario: scenario, beacons: beacons)
        var outcome = Outcome()
        runner.world.onReception = { outcome.receptions.append($0) }
        outcome.timeline = runner.run(until: seconds).text
        outcome.airCounters = runner.world.statistics.perDevice.map {
            [$0.transmissions, $0.receptions, $0.collisions, $0.belowSensitivity, $0.losses, $0.blocked, $0.halfDuplex]
        }
        outcome.plainBeacons = runner.world.devices.filter { runner.world.controller(of: $0) is BeaconController }.count
        return outcome
    }

    /// A small city in the shape of scripts/make-city-scenario.py's: beacons switched on at a
    /// random moment of their first second (some at the same moment), some close together on
    /// a short interval so that their packets collide, phones (one walking) and a gateway
    /// observing, with packet loss, a blocked link and a move that touch beacons without
    /// changing how they advertise, one beacon whose advertising an action stops, and a phone
    /// switched on at the same moment as some beacons.
    static var city: String {
        var lines = [
            "name: small city",
            "seed: 7",
            "timing: realistic",
            "radio: {referenceLossDB: 40, pathLossExponent: 2.5, shadowingSigmaDB: 2, captureMarginDB: 6}",
            "devices:",
        ]
        let monitor = "observe: {monitor: [{identifier: city, uuid: 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6}]"
        lines.append("  - {name: phone 1, address: \"D0:C1:00:00:00:01\", position: [0, 0, 1.2], "
            + "scan: {interval: 100, window: 100}, \(monitor), range: true}}")
        lines.append("  - {name: phone 2, address: \"D0:C1:00:00:00:02\", position: [30, 0, 1.2], "
            + "route: {waypoints: [[-30, 0, 1.2], [30, 10, 1.2]], speed: 1.4, loop: true}, "
            + "scan: {interval: 100, window: 50}, \(monitor), range: false}}")
        lines.append("  - {name: gateway, address: \"D0:C2:00:00:00:01\", position: [5, 5, 4], antennaGain: 5, "
            + "scan: {interval: 100, window: 100}, \(monitor), range: false}}")
        // Switched on at the same microsecond as beacons 3, 13, 23 and 33 beside it: its
        // scanner's setup (five commands) ends before theirs (six), so it hears their first
        // packets only if a beacon without HCI starts as late as one with it.
        lines.append("  - {name: phone 3, address: \"D0:C1:00:00:00:03\", position: [-4, -11, 1.2], startAt: 0.5, "
            + "scan: {interval: 100, window: 100}, \(monitor), range: false}}")
        for index in 1 ... 40 {
            let x = Double(index % 8) * 7 - 25, y = Double(index / 8) * 6 - 12
            let hex = String(index, radix: 16, uppercase: true)
            let address = "C0:C3:00:00:00:" + (hex.count == 1 ? "0" + hex : hex)
            let interval = index % 5 == 0 ? 100 : 250 + 10 * (index % 7)
            let start = index % 10 == 3 ? "startAt: 0.5" : "startAt: random"
            lines.append("  - {name: beacon \(index), address: \"\(address)\", addressType: random, position: [\(x), \(y), 3], "
                + "txPower: -12, \(start), advertise: {type: nonconn_ind, interval: \(interval), "
                + "iBeacon: {uuid: 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6, major: 1, minor: \(index), measuredPower: -52}}}")
        }
        lines += [
            "actions:",
            "  - {at: 2, setPacketLoss: {between: [beacon 4, phone 1], rate: 0.5}}",
            "  - {at: 3, blockLink: {between: [beacon 5, gateway], blocked: true}}",
            "  - {at: 4, moveTo: {device: beacon 6, position: [2, 2, 3]}}",
            "  - {at: 5, stopAdvertising: beacon 7}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("A generated city gives the same receptions, counters and timeline with beacons run directly as with full controllers")
    func city() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.city)
        let direct = try Self.run(scenario, seconds: 8, beacons: .direct)
        let throughHost = try Self.run(scenario, seconds: 8, beacons: .throughHost)
        // Every beacon but the one an action stops runs without HCI, and they are heard.
        #expect(direct.plainBeacons == 39)
        #expect(throughHost.plainBeacons == 0)
        #expect(direct.receptions.count > 1_000)
        #expect(direct.airCounters.map { $0[2] }.reduce(0, +) > 0, "no collision: the city tests too little")
        #expect(direct.receptions == throughHost.receptions)
        #expect(direct.airCounters == throughHost.airCounters)
        #expect(direct.timeline == throughHost.timeline)
    }

    @Test("Every bundled scenario gives the same receptions, counters and timeline either way", arguments: BundledScenarios.names)
    func bundled(name: String) throws {
        let scenario = try BundledScenarios.scenario(named: name)
        let seconds = Swift.min(20, scenario.durationSeconds ?? 20)
        let direct = try Self.run(scenario, seconds: seconds, beacons: .direct)
        let throughHost = try Self.run(scenario, seconds: seconds, beacons: .throughHost)
        #expect(direct.receptions == throughHost.receptions)
        #expect(direct.airCounters == throughHost.airCounters)
        #expect(direct.timeline == throughHost.timeline)
    }

    @Test("At least one bundled scenario has plain beacons, so the comparison above is not empty")
    func bundledHavePlainBeacons() throws {
        var plain = 0
        for name in BundledScenarios.names {
            let runner = try ScenarioRunner(scenario: BundledScenarios.scenario(named: name))
            plain += runner.world.devices.filter { runner.world.controller(of: $0) is BeaconController }.count
        }
        #expect(plain > 0)
    }

    @Test("A world that captures HCI runs every beacon with a full controller, so its snoops hold the setup")
    func capturingUsesControllers() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.city)
        let runner = try ScenarioRunner(scenario: scenario, capturesHCI: true)
        #expect(!runner.world.devices.contains { runner.world.controller(of: $0) is BeaconController })
    }

    @Test("A beacon controller refuses what a controller would refuse and advertises on each mapped channel")
    func beaconController() throws {
        let configuration = ControllerConfiguration(publicAddress: BluetoothAddress(1), seed: 3, txPowerDBm: -4)
        let address = BluetoothAddress(0xC0_00_00_00_00_01, kind: .random)
        func parameters(_ type: HCI.LESetAdvertisingParameters.AdvertisingType, interval: UInt16 = 160,
                        map: HCI.AdvertisingChannelMap = .all) -> HCI.LESetAdvertisingParameters {
            HCI.LESetAdvertisingParameters(advertisingIntervalMin: interval, advertisingIntervalMax: interval,
                                           advertisingType: type, ownAddressType: .random, advertisingChannelMap: map)
        }
        #expect(BeaconController(configuration: configuration, parameters: parameters(.connectableUndirected),
                                 ownAddress: address, advertisingData: []) == nil)
        #expect(BeaconController(configuration: configuration, parameters: parameters(.nonConnectableUndirected, interval: 0x1F),
                                 ownAddress: address, advertisingData: []) == nil)
        #expect(BeaconController(configuration: configuration, parameters: parameters(.nonConnectableUndirected),
                                 ownAddress: address, advertisingData: Array(repeating: 0, count: 32)) == nil)
        var beacon = try #require(BeaconController(configuration: configuration,
                                                   parameters: parameters(.nonConnectableUndirected, map: [.channel37, .channel39]),
                                                   ownAddress: address, advertisingData: [2, 1, 6]))
        #expect(beacon.nextDeadline == nil)
        beacon.startAdvertising(at: 1_000)
        var channels: [UInt8] = []
        while let deadline = beacon.nextDeadline, deadline < 100_000 {
            for case let .transmit(transmission) in beacon.handle(.timer, at: deadline) {
                channels.append(transmission.channel)
                #expect(transmission.txPowerDBm == -4)
            }
        }
        #expect(channels == [37, 39])
        #expect(beacon.powerCycle(at: 200_000) == [.stopListening])
        #expect(!beacon.isAdvertising && beacon.nextDeadline == nil)
    }
}
