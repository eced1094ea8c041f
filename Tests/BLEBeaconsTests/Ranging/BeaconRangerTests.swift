import BLEBeacons
import Testing

@Suite("Ranging core")
struct BeaconRangerTests {
    static let door = IBeaconIdentity(uuid: neighbourhoodUUID, major: 1, minor: 1)
    static let shop = IBeaconIdentity(uuid: neighbourhoodUUID, major: 1, minor: 2)
    static let yard = IBeaconIdentity(uuid: neighbourhoodUUID, major: 2, minor: 7)

    /// Feeds `identity` ten samples a second of `rssi` over [from, to).
    static func feed(_ ranger: inout BeaconRanger<IBeaconIdentity>, _ identity: IBeaconIdentity, rssi: Int,
                     from: Double, to: Double, power: Int8 = -59) {
        let count = Int(((to - from) * 10).rounded())
        for index in 0 ..< count {
            ranger.add(identity, rssi: rssi, measuredPower: power, at: seconds(from + Double(index) / 10))
        }
    }

    @Test("A tick lists beacons closest first, with the RSSI since the previous tick and the filtered RSSI")
    func ordering() throws {
        var ranger = BeaconRanger<IBeaconIdentity>()
        Self.feed(&ranger, Self.yard, rssi: -85, from: 0, to: 1)
        Self.feed(&ranger, Self.door, rssi: -52, from: 0, to: 1)
        Self.feed(&ranger, Self.shop, rssi: -30, from: 0, to: 1)
        let beacons = ranger.range(at: seconds(1))
        #expect(beacons.map(\.identity) == [Self.shop, Self.door, Self.yard])
        #expect(beacons.map(\.proximity) == [.immediate, .near, .far])
        #expect(beacons.map(\.rssi) == [-30, -52, -85])
        #expect(beacons.map(\.filteredRSSI) == [-30, -52, -85])
        let door = try #require(beacons.dropFirst().first)
        #expect(door.accuracy == ReceiverModel.nexus5.distance(rssi: -52, measuredPower: -59))
        #expect(door.timestamp == seconds(1) && door.measuredPower == -59)
        #expect(abs(door.lastHeard - seconds(0.9)) <= 1)
    }

    @Test("Within one class, the smaller accuracy comes first; exact ties keep the order first heard")
    func accuracyOrder() {
        var ranger = BeaconRanger<IBeaconIdentity>()
        ranger.add(Self.yard, rssi: -80, measuredPower: -59, at: seconds(0.1))
        ranger.add(Self.door, rssi: -80, measuredPower: -59, at: seconds(0.2))
        ranger.add(Self.shop, rssi: -75, measuredPower: -59, at: seconds(0.3))
        #expect(ranger.range(at: seconds(1)).map(\.identity) == [Self.shop, Self.yard, Self.door])
    }

    @Test("The last-second RSSI is the rounded mean of that second's samples, nil in a silent second")
    func lastSecond() {
        var ranger = BeaconRanger<IBeaconIdentity>()
        ranger.add(Self.door, rssi: -60, measuredPower: -59, at: seconds(0.2))
        ranger.add(Self.door, rssi: -61, measuredPower: -59, at: seconds(0.5))
        #expect(ranger.range(at: seconds(1)).first?.rssi == -61) // -60.5 rounds away from zero
        ranger.add(Self.door, rssi: -70, measuredPower: -59, at: seconds(1.5))
        let second = ranger.range(at: seconds(2)).first
        #expect(second?.rssi == -70)
        #expect(second?.filteredRSSI == (-60.0 - 61 - 70) / 3)
        let third = ranger.range(at: seconds(3)).first
        #expect(third?.rssi == nil && third?.proximity == .near) // heard 1.5 s ago: still ranged
    }

    @Test("A beacon silent for 2 s is unknown with accuracy -1, and after 10 s it is gone")
    func forgetting() {
        var ranger = BeaconRanger<IBeaconIdentity>()
        Self.feed(&ranger, Self.door, rssi: -60, from: 0, to: 5)
        Self.feed(&ranger, Self.shop, rssi: -70, from: 0, to: 20)
        let lastDoor = seconds(4.9)
        var proximities: [BeaconProximity] = []
        for tick in 5 ... 20 {
            let listed = ranger.range(at: seconds(Double(tick)))
            if let door = listed.first(where: { $0.identity == Self.door }) {
                proximities.append(door.proximity)
                if door.proximity == .unknown {
                    #expect(door.accuracy == -1 && door.rssi == nil)
                    #expect(listed.last?.identity == Self.door) // unknown sorts last
                }
            }
        }
        // Ticks 5 and 6 (0.1 s and 1.1 s of silence) near; 7 … 14 unknown; from 15 (10.1 s) gone.
        #expect(proximities == [.near, .near] + Array(repeating: .unknown, count: 8))
        #expect(seconds(15) - lastDoor >= seconds(10))
        #expect(ranger.trackedCount == 1)
    }

    @Test("The 20 s running average lags a step in RSSI: trimmed mean of the window")
    func stepResponse() throws {
        var ranger = BeaconRanger<IBeaconIdentity>()
        Self.feed(&ranger, Self.door, rssi: -60, from: 0, to: 10)
        Self.feed(&ranger, Self.door, rssi: -80, from: 10, to: 15)
        let door = try #require(ranger.range(at: seconds(15)).first)
        // 100 samples of -60 and 50 of -80; k = 15 of each end go: 35 × -80 and 85 × -60 stay.
        #expect(abs((door.filteredRSSI ?? 0) - (35.0 * -80 + 85 * -60) / 120) < 1e-9)
        // No earlier tick, so "since the previous tick" is every sample: -66.7 rounds to -67.
        #expect(door.rssi == -67)
    }

    @Test("An ARMA ranger follows the configured filter and receiver model")
    func armaConfiguration() throws {
        var ranger = BeaconRanger<IBeaconIdentity>(configuration: RangingConfiguration(filter: .standardARMA, receiver: .simulatedWorld))
        ranger.add(Self.door, rssi: -59, measuredPower: -59, at: 0)
        ranger.add(Self.door, rssi: -84, measuredPower: -59, at: seconds(0.5))
        let door = try #require(ranger.range(at: seconds(1)).first)
        #expect(door.filteredRSSI == -61.5)
        #expect(abs(door.accuracy - 1.258_925) < 1e-6) // 10^(2.5 / 25)
        #expect(door.proximity == .near)
    }

    @Test("Samples without an RSSI (127) or outside -127…+20 dBm are ignored; a zero measured power ranges as unknown")
    func invalidInput() {
        var ranger = BeaconRanger<IBeaconIdentity>()
        ranger.add(Self.door, rssi: 127, measuredPower: -59, at: 0)
        ranger.add(Self.door, rssi: 21, measuredPower: -59, at: 0)
        ranger.add(Self.door, rssi: -128, measuredPower: -59, at: 0)
        #expect(ranger.range(at: seconds(1)).isEmpty)
        ranger.add(Self.shop, rssi: -60, measuredPower: 0, at: seconds(1.5))
        let shop = ranger.range(at: seconds(2)).first
        #expect(shop?.proximity == .unknown && shop?.accuracy == -1 && shop?.rssi == -60)
    }

    @Test("Frames range by their identity and RSSI at 1 m; telemetry has none and is skipped")
    func frames() throws {
        var iBeacons = BeaconRanger<IBeaconIdentity>()
        iBeacons.add(IBeacon(identity: Self.door, measuredPower: -56), rssi: -56, at: 0)
        #expect(iBeacons.range(at: seconds(1)).first?.measuredPower == -56)
        var any = BeaconRanger<BeaconIdentity>()
        any.add(try #require(BeaconFrame(decoding: bytes(EddystoneFrameTests.neighbourhoodURL))), rssi: -62, at: 0)
        any.add(try #require(BeaconFrame(decoding: bytes(EddystoneFrameTests.mikrotikTLM))), rssi: -62, at: 0)
        let listed = any.range(at: seconds(1))
        #expect(listed.map(\.identity) == [.eddystoneURL("https://example.com")])
        #expect(listed.first?.measuredPower == -62 && listed.first?.proximity == .near)
        any.removeAll()
        #expect(any.range(at: seconds(2)).isEmpty)
    }

    @Test("With a 1 s window, a walk past the beacon at the world's path loss reads far, near, immediate, near, far")
    func walk() {
        // A log-distance receiver and a short window, as a scenario that must show
        // "immediate" for the moment a walker passes within 5 cm would configure.
        let configuration = RangingConfiguration(filter: .runningAverage(window: .seconds(1), trimFraction: 0.1),
                                                 receiver: .simulatedWorld)
        var ranger = BeaconRanger<IBeaconIdentity>(configuration: configuration)
        var timeline: [BeaconProximity] = []
        // Distances held for a second each: 6 m, 1.5 m, 5 cm, 1.5 m, 6 m.
        for (second, distance) in [6.0, 1.5, 0.05, 1.5, 6].enumerated() {
            let rssi = Int(DistanceAndProximityTests.worldRSSI(at: distance).rounded())
            Self.feed(&ranger, Self.door, rssi: rssi, from: Double(second), to: Double(second + 1))
            timeline += ranger.range(at: seconds(Double(second + 1))).map(\.proximity)
        }
        #expect(timeline == [.far, .near, .immediate, .near, .far])
    }
}
