import BLEController
import BLEScenarios
import BLEWorld
import Foundation
import Testing

/// Scenarios/bus-stop-coded.yaml: the bus stop's beacon advertising with an extended set on LE
/// Coded S=8, and gateways scanning extended on LE Coded pushed away from the pole, south and
/// north. The same scenario with the set and the scans on LE 1M is the comparison.
@Suite("The bus stop's beacon on LE Coded")
struct CodedBusStopScenarioTests {
    /// How far from the pole each gateway last heard the beacon, by the world's truth (every
    /// PDU of the beacon a gateway's controller received, ``World/onReception``) and by what
    /// reached its observer (the timeline's iBeacon receptions from LE Extended Advertising
    /// Reports).
    struct Reach {
        var southTruth: Double?
        var northTruth: Double?
        var southReported: Double?
        var northReported: Double?
        var reportedCount: Int
    }

    /// Runs bus-stop-coded, changed by `change`, to its end.
    static func run(_ change: (inout Scenario) -> Void = { _ in }) throws -> Reach {
        var scenario = try BundledScenarios.scenario(named: "bus-stop-coded")
        change(&scenario)
        let runner = try ScenarioRunner(scenario: scenario)
        let beacon = try #require(runner.built.id(of: "stop beacon"))
        let world = runner.world
        var south: Double?
        var north: Double?
        world.onReception = { reception in
            guard reception.sender == beacon else { return }
            let y = world.position(of: reception.receiver).y
            if y < 0 { south = max(south ?? 0, -y) } else { north = max(north ?? 0, y) }
        }
        let timeline = runner.run(until: scenario.durationSeconds ?? 95)
        let southReports = timeline.receptions(of: "south gateway").map { -$0.observerPosition.y }
        let northReports = timeline.receptions(of: "north gateway").map { $0.observerPosition.y }
        return Reach(southTruth: south, northTruth: north, southReported: southReports.max(), northReported: northReports.max(),
                     reportedCount: southReports.count + northReports.count)
    }

    /// The scenario with the beacon's set and the gateways' scans on LE 1M instead.
    static func onOneMegabit(_ scenario: inout Scenario) {
        for index in scenario.devices.indices {
            if scenario.devices[index].advertising?.extended != nil {
                scenario.devices[index].advertising?.extended = ScenarioAdvertising.Extended(primaryPHY: .le1M)
            }
            if scenario.devices[index].scanning?.extendedPHYs != nil { scenario.devices[index].scanning?.extendedPHYs = [.le1M] }
        }
    }

    /// The radio model's figure: how far south of the pole (in y) a gateway at 1.2 m hears the
    /// beacon at 2.5 m on the pole's south face (0.07 m south of its axis, on the antenna's
    /// boresight): −12 dBm − (40 + 25 log10 r) ≥ −95 dBm − the PHY's sensitivity gain.
    static func analyticSouthReach(_ scenario: Scenario, phy: RadioPHY) throws -> Double {
        let stop = try #require(scenario.device(named: "stop beacon"))
        let gateway = try #require(scenario.device(named: "south gateway"))
        let budget = stop.txPowerDBm - RadioModel.sensitivityDBm(gateway.description.sensitivityDBm, on: phy) - scenario.radio.referenceLossDB
        let range = pow(10, budget / (10 * scenario.radio.pathLossExponent))
        let height = stop.description.position.z - gateway.description.position.z
        return (range * range - height * height).squareRoot() - stop.description.position.y
    }

    @Test("The file decodes to an extended set on LE Coded S=8 and extended scans on LE Coded")
    func decodes() throws {
        let scenario = try BundledScenarios.scenario(named: "bus-stop-coded")
        let stop = try #require(scenario.device(named: "stop beacon"))
        #expect(stop.advertising?.extended == ScenarioAdvertising.Extended(primaryPHY: .leCoded, secondaryPHY: .leCoded, coding: .s8))
        #expect(scenario.device(named: "south gateway")?.scanning?.extendedPHYs == [.leCoded])
        let plan = try #require(try stop.advertisingPlan())
        #expect(plan.extended?.parameters.primaryAdvertisingPHY == .leCoded)
        #expect(plan.extended?.secondaryAdvertisingPHYOptions == .requireS8)
    }

    @Test("On LE Coded S=8 the beacon is heard about 109 m south instead of about 52 m on LE 1M, as the radio model says, and behind the pole only within 2 m")
    func reachSouthAndNorth() throws {
        let scenario = try BundledScenarios.scenario(named: "bus-stop-coded")
        let coded = try Self.run()
        let oneMegabit = try Self.run(Self.onOneMegabit)
        let codedFigure = try Self.analyticSouthReach(scenario, phy: .leCoded(.s8))
        let oneMegabitFigure = try Self.analyticSouthReach(scenario, phy: .le1M)
        print("bus-stop-coded south reach: LE 1M \(oneMegabit.southTruth ?? 0) m (model \(oneMegabitFigure) m), "
              + "LE Coded S=8 \(coded.southTruth ?? 0) m (model \(codedFigure) m); reported to observers to "
              + "\(oneMegabit.southReported ?? 0) m and \(coded.southReported ?? 0) m; north heard on Coded to \(coded.northTruth ?? 0) m")
        let codedSouth = try #require(coded.southTruth)
        let oneMegabitSouth = try #require(oneMegabit.southTruth)
        // The gateways move 0.14 m per 100 ms advertising interval: the last packet heard is
        // within a few intervals of the boundary, never past it.
        #expect(codedSouth <= codedFigure && codedSouth > codedFigure - 1, "\(codedSouth) m against \(codedFigure) m")
        #expect(oneMegabitSouth <= oneMegabitFigure && oneMegabitSouth > oneMegabitFigure - 1, "\(oneMegabitSouth) m against \(oneMegabitFigure) m")
        #expect(codedSouth > 2 * oneMegabitSouth)
        // What the gateways' observers got, through LE Extended Advertising Reports.
        #expect(try #require(coded.southReported) > codedFigure - 1)
        #expect(try #require(oneMegabit.southReported) > oneMegabitFigure - 1)
        // Behind the pole: 45 dB less; on LE 1M never heard, at S=8 only within 1.7 m.
        #expect(oneMegabit.northTruth == nil && oneMegabit.northReported == nil)
        #expect((coded.northTruth ?? 0) < 2 && (coded.northReported ?? 0) < 2)
    }

    @Test("A legacy scanner does not hear the extended set at all")
    func legacyScannerHearsNothing() throws {
        let reach = try Self.run { scenario in
            for index in scenario.devices.indices where scenario.devices[index].scanning != nil {
                scenario.devices[index].scanning?.extendedPHYs = nil
            }
        }
        #expect(reach.southTruth == nil && reach.reportedCount == 0)
    }
}
