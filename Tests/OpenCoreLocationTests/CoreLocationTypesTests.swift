import BLEBeacons
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// Core Location's value types: names, raw values and the iBeacon peripheral data.
@Suite("Core Location types", .simulated)
struct CoreLocationTypesTests {
    @Test("CLProximity, CLRegionState, CLAuthorizationStatus and CLError.Code have Apple's raw values")
    func rawValues() {
        #expect([CLProximity.unknown, .immediate, .near, .far].map(\.rawValue) == [0, 1, 2, 3])
        #expect([CLRegionState.unknown, .inside, .outside].map(\.rawValue) == [0, 1, 2])
        #expect([CLAuthorizationStatus.notDetermined, .restricted, .denied, .authorizedAlways, .authorizedWhenInUse].map(\.rawValue)
                    == [0, 1, 2, 3, 4])
        #expect(CLError.Code.regionMonitoringFailure.rawValue == 5)
        #expect(CLError.Code.rangingUnavailable.rawValue == 16)
        #expect(CLError.Code.rangingFailure.rawValue == 17)
        #expect(CLError.errorDomain == "kCLErrorDomain")
        let error: any Error = CLError(.rangingFailure)
        #expect((error as NSError).code == 17)
        #expect((error as NSError).domain == kCLErrorDomain)
        #expect(CLError.rangingFailure ~= error)
        #expect(!(CLError.rangingUnavailable ~= error))
    }

    @Test("a beacon region keeps its UUID, major and minor, as NSNumbers")
    func beaconRegionValues() {
        let region = CLBeaconRegion(uuid: neighbourhoodUUID, major: 1, minor: 2, identifier: "shop")
        #expect(region.uuid == neighbourhoodUUID)
        #expect(region.major == NSNumber(value: 1))
        #expect(region.minor == NSNumber(value: 2))
        #expect(region.identifier == "shop")
        #expect(region.notifyOnEntry && region.notifyOnExit && !region.notifyEntryStateOnDisplay)
        let wide = CLBeaconRegion(uuid: neighbourhoodUUID, identifier: "any")
        #expect(wide.major == nil && wide.minor == nil)
        let byConstraint = CLBeaconRegion(beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 3),
                                          identifier: "three")
        #expect(byConstraint.major == NSNumber(value: 3) && byConstraint.minor == nil)
        #expect(CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
        #expect(!CLLocationManager.isMonitoringAvailable(for: CLRegion.self))
        #expect(CLLocationManager.isRangingAvailable())
    }

    @Test("constraints and regions compare by value, so sets hold each once")
    func equality() {
        let constraints: Set = [CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 1),
                                CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 1),
                                CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 1, minor: 1)]
        #expect(constraints.count == 2)
        let regions: Set<CLRegion> = [CLBeaconRegion(uuid: neighbourhoodUUID, identifier: "a"),
                                      CLBeaconRegion(uuid: neighbourhoodUUID, identifier: "a"),
                                      CLBeaconRegion(uuid: neighbourhoodUUID, identifier: "b")]
        #expect(regions.count == 2)
    }

    @Test("peripheralData holds the 21-octet iBeacon payload under kCBAdvDataAppleBeaconKey")
    func peripheralData() throws {
        let region = CLBeaconRegion(uuid: neighbourhoodUUID, major: 0x0102, minor: 0x0304, identifier: "emit")
        let dictionary = region.peripheralData(withMeasuredPower: NSNumber(value: -62))
        #expect(dictionary.count == 1)
        let data = try #require(dictionary[NSString(string: "kCBAdvDataAppleBeaconKey")] as? Data)
        let expected: [UInt8] = [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
                                 0x01, 0x02, 0x03, 0x04, 0xC2]
        #expect(Array(data) == expected)
        // The frame BLEBeacons decodes from it, once put back behind Apple's company and type.
        let frame = try IBeacon(manufacturerData: .init(companyIdentifier: 0x004C, data: [0x02, 0x15] + Array(data)))
        #expect(frame.major == 0x0102 && frame.minor == 0x0304 && frame.measuredPower == -62)
        let defaulted = CLBeaconRegion(uuid: neighbourhoodUUID, identifier: "default").peripheralData(withMeasuredPower: nil)
        let defaultData = try #require(defaulted[NSString(string: CLBeaconRegion.appleBeaconKey)] as? Data)
        #expect(Array(defaultData.suffix(5)) == [0, 0, 0, 0, 0xC5])  // major 0, minor 0, −59 dBm
    }
}
