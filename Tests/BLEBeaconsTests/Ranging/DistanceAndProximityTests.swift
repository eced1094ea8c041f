import BLEBeacons
import Foundation
import Testing

@Suite("Distance and proximity")
struct DistanceAndProximityTests {
    /// The RSSI of a beacon with measured power -59 dBm at `distance` metres under the
    /// world's default path loss, 40 + 25 · log10(d) dB (so -59 at 1 m).
    static func worldRSSI(at distance: Double) -> Double { -59 - 25 * log10(distance) }

    /// Distances along the walk scenario, with what each scheme gives there.
    static let table: [(distance: Double, proximity: BeaconProximity, nexus5: Double)] = [
        (0.05, .immediate, 0.00033),
        (0.10, .immediate, 0.00404),
        (0.50, .near, 0.25549),
        (1, .near, 0.97085),
        (3, .far, 2.06272),
        (10, .far, 5.44953),
        (40, .far, 15.94857),
    ]

    @Test("At the world's path loss: immediate at 5 and 10 cm, near at 50 cm and 1 m, far at 3, 10 and 40 m")
    func proximityTable() {
        let thresholds = ProximityThresholds()
        for row in Self.table {
            #expect(thresholds.proximity(rssi: Self.worldRSSI(at: row.distance), measuredPower: -59) == row.proximity, "\(row.distance) m")
        }
    }

    @Test("Immediate begins 22.5 dB above the measured power and near ends 7.5 dB below it")
    func thresholdEdges() {
        let thresholds = ProximityThresholds()
        #expect(thresholds.proximity(rssi: -36.5, measuredPower: -59) == .immediate)
        #expect(thresholds.proximity(rssi: -36.6, measuredPower: -59) == .near)
        #expect(thresholds.proximity(rssi: -66.5, measuredPower: -59) == .near)
        #expect(thresholds.proximity(rssi: -66.6, measuredPower: -59) == .far)
        #expect(thresholds.proximity(rssi: 0, measuredPower: -59) == .unknown)
        // Under n = 2.5 those margins are 12.6 cm and 2.0 m.
        #expect(abs(pow(10, -22.5 / 25) - 0.126) < 0.001)
        #expect(abs(pow(10, 7.5 / 25) - 1.995) < 0.001)
        let strict = ProximityThresholds(immediateMargin: 30, nearMargin: 0)
        #expect(strict.proximity(rssi: Self.worldRSSI(at: 0.1), measuredPower: -59) == .near)
        #expect(strict.proximity(rssi: Self.worldRSSI(at: 1.5), measuredPower: -59) == .far)
    }

    @Test("The Nexus 5 curve gives the AltBeacon library's distances, r^10 below 1 m and A·r^B + C beyond")
    func nexus5Curve() throws {
        for row in Self.table {
            let distance = try #require(ReceiverModel.nexus5.distance(rssi: Self.worldRSSI(at: row.distance), measuredPower: -59))
            #expect(abs(distance - row.nexus5) < 0.00001, "\(row.distance) m gives \(distance)")
        }
        // The discontinuity at r = 1: 1.0 m just below, A + C at it.
        let below = try #require(ReceiverModel.nexus5.distance(rssi: -58.999_999, measuredPower: -59))
        #expect(abs(below - 1) < 0.000_01)
        #expect(ReceiverModel.nexus5.distance(rssi: -59, measuredPower: -59) == 0.42093 + 0.54992)
    }

    @Test("The log-distance receiver with exponent 2.5 gives the world's true distance")
    func logDistance() throws {
        for row in Self.table {
            let distance = try #require(ReceiverModel.simulatedWorld.distance(rssi: Self.worldRSSI(at: row.distance), measuredPower: -59))
            #expect(abs(distance - row.distance) < row.distance * 1e-9)
        }
        let freeSpace = ReceiverModel(name: "free space", curve: .logDistance(exponent: 2))
        #expect(abs((freeSpace.distance(rssi: -79, measuredPower: -59) ?? 0) - 10) < 1e-9)
    }

    @Test("No distance without a signal or a usable measured power")
    func unknownDistance() {
        for model in [ReceiverModel.nexus5, .simulatedWorld] {
            #expect(model.distance(rssi: 0, measuredPower: -59) == nil)
            #expect(model.distance(rssi: -60, measuredPower: 0) == nil)
            #expect(model.distance(rssi: -60, measuredPower: 4) == nil)
            #expect(model.distance(rssi: .nan, measuredPower: -59) == nil)
        }
        #expect(ReceiverModel(name: "bad", curve: .logDistance(exponent: 0)).distance(rssi: -60, measuredPower: -59) == nil)
    }

    @Test("Proximity classes keep Core Location's raw values and sort immediate, near, far, unknown")
    func proximityValues() {
        #expect(BeaconProximity.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(BeaconProximity.allCases.sorted { $0.sortRank < $1.sortRank } == [.immediate, .near, .far, .unknown])
        #expect(RegionState.allCases.map(\.rawValue) == [0, 1, 2])
    }
}
