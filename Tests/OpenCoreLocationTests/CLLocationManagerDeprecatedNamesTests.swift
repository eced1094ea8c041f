import OpenCoreLocation
import SimulatedTesting
import Testing

/// A delegate written against the API before iOS 13 and 14: region-based ranging and the
/// authorization callback that carries the status. It imports only the Core Location
/// module (Foundation comes with it, as with Apple's).
@MainActor
final class RegionRangingDelegate: NSObject, @MainActor CLLocationManagerDelegate {
    var rangedInRegion: [(region: String, beacons: Int)] = []
    var rangedSatisfying = 0
    var authorizations: [CLAuthorizationStatus] = []

    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {
        rangedInRegion.append((region.identifier, beacons.count))
    }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        rangedSatisfying += 1
    }

    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        authorizations.append(status)
    }
}

@Suite("CLLocationManager's deprecated names that still ship", .simulatedOnMainActor)
@MainActor
struct CLLocationManagerDeprecatedNamesTests {
    @Test("proximityUUID regions range by region: didRangeBeacons:in: after didRange:satisfying:, rangedRegions, the class authorizationStatus()")
    func rangingByRegion() async throws {
        let region = CLBeaconRegion(proximityUUID: neighbourhoodUUID, identifier: "street")
        #expect(region.proximityUUID == neighbourhoodUUID)
        #expect(CLBeaconRegion(proximityUUID: neighbourhoodUUID, major: 1, identifier: "door").major == 1)
        let shop = CLBeaconRegion(proximityUUID: neighbourhoodUUID, major: 1, minor: 2, identifier: "shop")
        #expect(shop.minor == 2 && shop.beaconIdentityConstraint == CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 1, minor: 2))
        #expect(CLLocationManager.authorizationStatus() == .authorizedAlways)

        let delegate = RegionRangingDelegate()
        let manager = CLLocationManager(options: .init(hci: "sim"))
        manager.delegate = delegate
        manager.startRangingBeacons(in: region)
        #expect(manager.rangedRegions.map(\.identifier) == ["street"])
        #expect(manager.rangedBeaconConstraints.isEmpty, "a region's constraint is not listed as ranged directly")
        for _ in 0 ..< 30 where delegate.rangedInRegion.filter({ $0.beacons == 3 }).count < 2 {
            try await testClock.sleep(seconds: 1)
        }
        #expect(delegate.rangedInRegion.filter { $0.beacons == 3 }.count >= 2, "\(delegate.rangedInRegion)")
        #expect(delegate.rangedInRegion.allSatisfy { $0.region == "street" })
        // Both callbacks, once each per ranging tick.
        #expect(delegate.rangedSatisfying == delegate.rangedInRegion.count)
        #expect(delegate.authorizations == [.authorizedAlways])

        manager.stopRangingBeacons(in: region)
        #expect(manager.rangedRegions.isEmpty)
        let after = delegate.rangedInRegion.count
        try await testClock.sleep(seconds: 3)
        #expect(delegate.rangedInRegion.count == after, "ranging went on after stopRangingBeacons(in:)")
    }
}
