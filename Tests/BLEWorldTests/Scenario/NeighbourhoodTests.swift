import BLEController
import BLEWire
import BLEWorld
import Foundation
import Testing

@Suite("The built-in neighbourhood")
struct NeighbourhoodTests {
    let scenario: Scenario

    init() throws { scenario = try Scenario.builtIn(named: "neighbourhood") }

    private func device(_ name: String) throws -> ScenarioDevice { try #require(scenario.device(named: name)) }

    @Test("It loads with about ten devices within 2–25 m of a local external device at the origin")
    func layout() throws {
        #expect((10 ... 12).contains(scenario.devices.count))
        let local = try device("local")
        #expect(local.host == .external)
        #expect(local.description.position.x == 0 && local.description.position.y == 0)
        for other in scenario.devices where other.name != "local" {
            let distance = Vector3.distance(other.description.position, local.description.position)
            #expect((2 ... 25).contains(distance), "\(other.name) is \(distance) m away")
            #expect(other.host == (other.gatt.isEmpty ? .scripted : .gatt), "\(other.name)")
        }
    }

    @Test("The compiled YAML is the shipped Scenarios/neighbourhood.yaml")
    func shippedFile() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios/neighbourhood.yaml")
        let file = try String(contentsOf: url, encoding: .utf8)
        // A multi-line literal drops the newline before its closing quotes.
        #expect(file == Scenario.neighbourhoodYAML + "\n")
        #expect(try ScenarioLoader.load(path: url.path) == scenario)
    }

    @Test("The heart-rate strap advertises 180D, appearance 0x0341 and its name in exactly 31 octets")
    func heartRateStrap() throws {
        let plan = try #require(try device("Polar H10 A1B2C3D4").advertisingPlan())
        // Flags 0x06; 16-bit UUIDs [180D]; Appearance 0x0341; Complete Local Name.
        let expected = try #require(Hex.decode("020106 03030d18 03194103 1309")) + Array("Polar H10 A1B2C3D4".utf8)
        #expect(plan.advertisingData == expected)
        #expect(plan.advertisingData.count == 31)
        #expect(plan.parameters.advertisingType == .connectableUndirected)
        #expect(plan.parameters.advertisingIntervalMin == 160)
        #expect(plan.randomAddress == BluetoothAddress(0xC4_7A_1B_2C_3D_4E, kind: .random))
    }

    @Test("A health thermometer advertises 1809")
    func thermometer() throws {
        let data = try AdvertisingData(decoding: try #require(try device("Thermometer").advertisingPlan()).advertisingData)
        #expect(data.serviceUUIDs?.contains(BluetoothUUID(0x1809)) == true)
    }

    @Test("Three iBeacons with distinct major/minor, 100 ms, one behind the garden wall")
    func iBeacons() throws {
        let beacons = scenario.devices.filter { $0.advertising?.data.iBeacon != nil }
        #expect(beacons.count == 3)
        let ids = Set(beacons.compactMap { $0.advertising?.data.iBeacon.map { [$0.major, $0.minor] } })
        #expect(ids.count == 3)
        #expect(beacons.allSatisfy { $0.advertising?.kind == .nonconnInd && $0.advertising?.intervalMilliseconds == 100 })
        let local = try device("local").description.position
        let wall = try #require(scenario.obstacles.first { $0.name == "garden wall" })
        guard case let .box(low, high) = wall.shape else { Issue.record("the wall is not a box"); return }
        let hidden = beacons.filter { segment(from: local, to: $0.description.position, crossesBoxFrom: low, to: high) }
        #expect(hidden.map(\.name) == ["iBeacon Backyard"])
    }

    @Test("The iBeacon frame matches the bytes Bumble's iBeacon advertiser sent (interop NOTES §5.1)")
    func iBeaconBytes() throws {
        let frame = ScenarioAdvertisingContent(iBeacon: .init(uuid: 0xE2C5_6DB5_DFFB_48D2_B060_D0F5_A710_96E0,
                                                              major: 1, minor: 2, measuredPower: -59))
        #expect(Hex.encode(frame.payload(isScanResponse: false))
            == "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
    }

    @Test("Eddystone, phone, tag, bulb and battery sensor carry what a scanner expects")
    func others() throws {
        let eddystone = try AdvertisingData(decoding: try #require(try device("Eddystone URL").advertisingPlan()).advertisingData)
        #expect(eddystone.serviceData?.first?.uuid == BluetoothUUID(0xFEAA))
        let phone = try #require(try device("Phone").advertisingPlan())
        let phoneData = try AdvertisingData(decoding: phone.advertisingData)
        #expect(phoneData.serviceUUIDs?.contains(try #require(BluetoothUUID("D0611E78-BBB4-4591-A5F8-487910AE4366"))) == true)
        #expect(try AdvertisingData(decoding: try #require(phone.scanResponseData)).localName == "Alex's Phone")
        let tag = try #require(try device("Tag").advertisingPlan())
        #expect(tag.parameters.advertisingType == .nonConnectableUndirected)
        #expect(try AdvertisingData(decoding: tag.advertisingData).manufacturerData?.companyIdentifier == 0x0059)
        let bulb = try #require(try device("Smart Bulb").advertisingPlan())
        #expect(try AdvertisingData(decoding: try #require(bulb.scanResponseData)).localName == "Hue Lamp Kitchen")
        let sensor = try AdvertisingData(decoding: try #require(try device("Battery Sensor").advertisingPlan()).advertisingData)
        #expect(sensor.serviceUUIDs?.contains(BluetoothUUID(0x180F)) == true)
        #expect(sensor.serviceData?.map { Array($0.data) } == [[0x5A]])
        let intervals = scenario.devices.compactMap { $0.advertising?.intervalMilliseconds }
        #expect(intervals.allSatisfy { (20 ... 1000).contains($0) })
    }

    /// Whether the segment a→b passes through the axis-aligned box (slab method).
    private func segment(from a: Vector3, to b: Vector3, crossesBoxFrom low: Vector3, to high: Vector3) -> Bool {
        var enter = 0.0
        var leave = 1.0
        for (start, end, minimum, maximum) in [(a.x, b.x, low.x, high.x), (a.y, b.y, low.y, high.y), (a.z, b.z, low.z, high.z)] {
            let delta = end - start
            if abs(delta) < 1e-12 {
                if start < minimum || start > maximum { return false }
                continue
            }
            var t0 = (minimum - start) / delta
            var t1 = (maximum - start) / delta
            if t0 > t1 { swap(&t0, &t1) }
            enter = max(enter, t0)
            leave = min(leave, t1)
            if enter > leave { return false }
        }
        return true
    }

    @Test("Every device that advertises connectably serves GATT; the beacons and the tag only advertise")
    func gattDevices() throws {
        #expect(try device("Polar H10 A1B2C3D4").gatt == ["heart-rate", "battery", "device-information"])
        #expect(try device("Thermometer").gatt == ["health-thermometer", "current-time", "battery", "device-information"])
        #expect(try device("Phone").gatt == ["current-time", "battery", "device-information"])
        #expect(try device("Smart Bulb").gatt == ["device-information"])
        #expect(try device("Battery Sensor").gatt == ["battery"])
        for device in scenario.devices where device.advertising != nil {
            #expect((device.advertising?.kind == .ind) == (device.host == .gatt), "\(device.name)")
        }
    }
}
