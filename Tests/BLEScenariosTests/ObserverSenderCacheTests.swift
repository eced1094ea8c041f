import BLEBeacons
@testable import BLEScenarios
import BLEWire
import BLEWorld
import Testing

/// The runner's cache of what its observers hear (``HeardSenders``) and the observers'
/// bookkeeping by beacon number: a beacon heard again is not decoded or hashed again, yet
/// whatever an address sends is read as what it is now.
@Suite("Observer sender cache")
struct ObserverSenderCacheTests {
    static let uuid: UInt128 = 0x2F23_4454_CF6D_4A0F_ADF2_F491_1BA9_FFA6
    static let first = IBeaconIdentity(uuid: ProximityUUID(uuid), major: 1, minor: 1)
    static let second = IBeaconIdentity(uuid: ProximityUUID(uuid), major: 1, minor: 2)

    /// The advertising data a beacon with `identity` sends.
    static func data(_ identity: IBeaconIdentity, power: Int8 = -59) throws -> ArraySlice<UInt8> {
        try IBeacon(identity: identity, measuredPower: power).advertisingData.encodedLegacy()[...]
    }

    @Test("An address whose advertising data changes is decoded afresh, and its identity renumbered")
    func dataChanges() throws {
        var senders = HeardSenders(devices: [:], names: { _ in nil })
        let index = senders.index(of: BluetoothAddress(0xC0_00_00_00_00_01, kind: .random))
        // What the sender at `index` sends now, read through the cache: identity, power, number, name.
        func read(_ data: ArraySlice<UInt8>) -> (IBeaconIdentity, Int8, Int, String)? {
            guard let frame = senders.beacon(in: data, from: index) else { return nil }
            let sender = senders.senders[index]
            return (frame.identity, frame.measuredPower, sender.identityNumber, sender.beaconName)
        }
        let first = try #require(read(Self.data(Self.first)))
        #expect(first == (Self.first, -59, 0, Self.first.description))
        let again = try #require(read(Self.data(Self.first)))
        #expect(again == first)
        let second = try #require(read(Self.data(Self.second)))
        #expect(second == (Self.second, -59, 1, Self.second.description))
        let weaker = try #require(read(Self.data(Self.second, power: -70)))
        #expect(weaker == (Self.second, -70, 1, Self.second.description))
        #expect(read([0x02, 0x01, 0x06]) == nil, "no longer an iBeacon")
        #expect(read([0x02, 0x01, 0x06]) == nil)
        let back = try #require(read(Self.data(Self.first)))
        #expect(back == first)
        #expect(senders.identityCount == 2)
    }

    @Test("Two addresses with one value but different kinds are different senders; one identity has one number")
    func addressKinds() throws {
        var senders = HeardSenders(devices: [:], names: { _ in nil })
        let publicIndex = senders.index(of: BluetoothAddress(0x11_22_33_44_55_66, kind: .public))
        let randomIndex = senders.index(of: BluetoothAddress(0x11_22_33_44_55_66, kind: .random))
        let publicAgain = senders.index(of: BluetoothAddress(0x11_22_33_44_55_66, kind: .public))
        #expect(publicIndex != randomIndex)
        #expect(publicAgain == publicIndex)
        let heardPublic = try senders.beacon(in: Self.data(Self.second), from: publicIndex)
        let notBeacon = senders.beacon(in: [0x02, 0x01, 0x06], from: randomIndex)
        let heardRandom = try senders.beacon(in: Self.data(Self.second), from: randomIndex)
        #expect(heardPublic != nil && notBeacon == nil && heardRandom != nil)
        #expect(senders.senders[publicIndex].identityNumber == senders.senders[randomIndex].identityNumber)
        #expect(senders.identityCount == 1)
    }

    @Test("A scenario device's beacon is named after the device, an unknown address's after its identity")
    func names() throws {
        let scenario = try BundledScenarios.scenario(named: "bus-stop")
        let runner = try ScenarioRunner(scenario: scenario)
        let device = try #require(scenario.devices.first)
        let id = try #require(runner.built.deviceIDs.first)
        var senders = HeardSenders(devices: [AddressKey(device.address): id], names: { runner.built.name(of: $0) })
        let known = senders.index(of: device.address)
        let unknown = senders.index(of: BluetoothAddress(0xC0_FF_EE_00_00_01, kind: .random))
        _ = try senders.beacon(in: Self.data(Self.first), from: known)
        _ = try senders.beacon(in: Self.data(Self.first), from: unknown)
        #expect(senders.senders[known].device == id)
        #expect(senders.senders[known].beaconName == device.name)
        #expect(senders.senders[unknown].device == nil)
        #expect(senders.senders[unknown].beaconName == Self.first.description)
    }

    @Test("An observer that numbers its beacons watches and reports them as one that hashes their identities")
    func numberedObserver() {
        let configuration = ScenarioObserver(regions: [.init(identifier: "stop", uuid: Self.uuid, major: 1, minor: 1)],
                                             ranges: false, reportsPasses: true)
        var numbered = ScenarioObserverState(name: "rider", device: nil, configuration: configuration)
        var hashed = ScenarioObserverState(name: "rider", device: nil, configuration: configuration)
        numbered.start(at: 0)
        hashed.start(at: 0)
        let answers = (0 ..< 2).flatMap { _ in
            [numbered.watches(Self.first, number: 0, count: 2), numbered.watches(Self.second, number: 1, count: 2)]
        }
        #expect(answers == [true, false, true, false], "the same answer once known")
        let frame = IBeacon(identity: Self.first, measuredPower: -59)
        var firstHearings = 0
        for (time, rssi) in [(1_000, -70), (2_000, -60), (9_000_000, -65)] as [(Int64, Int)] {
            let sighting = BeaconSighting(beacon: "stop", identity: Self.first, rssi: rssi, distance: nil,
                                          observerPosition: Vector3(x: 0, y: 0, z: 0), heardAt: time)
            let events = numbered.receive(frame, number: 0, sighting: sighting, at: time)
            let expected = hashed.receive(frame, sighting: sighting, at: time)
            #expect(events == expected)
            firstHearings += events.filter { if case .firstHeard = $0 { true } else { false } }.count
            let ticked = numbered.tick(at: time + 1, quietAfter: 2_000_000)
            let expectedTick = hashed.tick(at: time + 1, quietAfter: 2_000_000)
            #expect(ticked == expectedTick)
        }
        #expect(firstHearings == 1)
    }
}
