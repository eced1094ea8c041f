import BLEController
import BLEScenarios
import BLEWire
import BLEWorld
import Foundation
import Testing

/// `ble sim map`'s grid: the bus stop's shadow, agreement with the world's own links, time,
/// detection probability and bad input.
@Suite("Coverage map")
struct CoverageMapTests {
    let busStop: Scenario

    init() throws { busStop = try BundledScenarios.scenario(named: "bus-stop") }

    /// The mean power of `map`'s only layer at the cell containing (`x`, `y`).
    private func power(_ map: CoverageMap, x: Double, y: Double, layer: Int = 0) throws -> Double {
        let cell = try #require(map.grid.cell(containingX: x, y: y))
        return map.layers[layer].meanPowerDBm[map.grid.index(column: cell.column, row: cell.row)]
    }

    private func heard(_ map: CoverageMap, x: Double, y: Double) throws -> Bool {
        let cell = try #require(map.grid.cell(containingX: x, y: y))
        return map.isHeard(at: map.grid.index(column: cell.column, row: cell.row))
    }

    @Test("The bus stop's map: heard south of the metal pole, silent at the same distance north of it")
    func poleShadow() throws {
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(resolution: 1))
        #expect(map.layers.map(\.transmitter) == ["stop beacon", "bus front beacon", "bus middle beacon", "bus rear beacon"])
        for distance in [3.0, 10, 20, 30, 45] {
            #expect(try heard(map, x: 0.5, y: -distance), "\(distance) m south")
            #expect(try !heard(map, x: 0.5, y: distance), "\(distance) m north")
            #expect(try heard(map, x: 0.5 + distance * 0.5, y: -distance * 0.866), "\(distance) m south-south-east")
            #expect(try !heard(map, x: 0.5 + distance * 0.5, y: distance * 0.866), "\(distance) m north-north-east")
        }
        // The field report's figure: about 50 m south is still heard, 60 m is not.
        #expect(try heard(map, x: 0.5, y: -50.5))
        #expect(try !heard(map, x: 0.5, y: -60.5))
    }

    @Test("The shadow north of the stop is the pole's: without it the cells there gain its 20 dB, the south ones nothing")
    func poleCostsItsLoss() throws {
        var open = busStop
        open.obstacles.removeAll { $0.name == "pole" }
        let request = CoverageRequest(devices: ["stop beacon"], resolution: 1)
        let with = try CoverageMap(scenario: busStop, request: request)
        let without = try CoverageMap(scenario: open, request: request)
        for distance in [5.0, 20] {
            #expect(abs(try power(without, x: 0.5, y: distance) - power(with, x: 0.5, y: distance) - 20) < 1e-9)
            #expect(abs(try power(without, x: 0.5, y: -distance) - power(with, x: 0.5, y: -distance)) < 1e-9)
        }
    }

    @Test("Every sampled cell has the power the world gives a phone standing at its centre")
    func agreesWithTheWorld() throws {
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(resolution: 2, withinSeconds: 2))
        let world = World(configuration: busStop.worldConfiguration)
        let built = try busStop.build(into: world)
        var samples = 0
        for row in stride(from: 0, to: map.grid.rows, by: 7) {
            for column in stride(from: 0, to: map.grid.columns, by: 11) {
                let centre = map.grid.centre(column: column, row: row)
                let phone = world.addDevice(DeviceDescription(name: "probe \(samples)", position: centre),
                                            controller: Controller(configuration: ControllerConfiguration(publicAddress: BluetoothAddress(UInt64(samples + 1)), seed: 1)))
                for layer in map.layers {
                    let device = try #require(busStop.device(named: layer.transmitter))
                    let transmitter = try #require(built.id(of: layer.transmitter))
                    let expected = try #require(world.receivedPowerDBm(from: transmitter, to: phone, txPowerDBm: device.txPowerDBm))
                    let index = map.grid.index(column: column, row: row)
                    #expect(abs(layer.meanPowerDBm[index] - expected) < 1e-9)
                    #expect(layer.heard[index] == (expected >= -95))
                    // No shadowing or fading in the bus stop: ten advertising events in 2 s, caught or not.
                    #expect(layer.detectionProbability?[index] == (expected >= -95 ? 1 : 0))
                }
                samples += 1
            }
        }
        #expect(samples > 50)
        // And by hand, 20 m south of the stop beacon along its heading: −12 dBm − (40 + 25·log10 d).
        let beacon = try #require(busStop.device(named: "stop beacon")).description.position
        let centre = map.grid.centre(column: try #require(map.grid.cell(containingX: 0, y: -20)).column,
                                     row: try #require(map.grid.cell(containingX: 0, y: -20)).row)
        let path = centre - beacon
        let byHand = -12 - (40 + 25 * log10(path.length))
            + AntennaPattern.directional(beamwidthDegrees: 120, frontToBackDB: 25).relativeGainDB(headingDegrees: -90, toward: path)
        #expect(abs(try power(map, x: centre.x, y: centre.y) - byHand) < 1e-9)
    }

    @Test("At a later time the map puts walkers where their routes take them")
    func atTime() throws {
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(devices: ["stop beacon"], resolution: 2, atSeconds: 10))
        let walker = try #require(map.plan.devices.first { $0.name == "south walker" })
        // From (0, −70) north at 1.4 m/s.
        #expect(abs(walker.position.y - (-70 + 14)) < 1e-6)
        #expect(abs(walker.headingDegrees - 90) < 1e-9)
        #expect(map.plan.routes.contains { $0.device == "south walker" && $0.points.count == 2 })
        #expect(map.plan.obstacles.map(\.name) == ["pole", "bus body"])
    }

    @Test("Detection within N seconds: one catch per advertising event, the window at a random phase")
    func detectionFormula() {
        #expect(DetectionProbability.within(1, perEvent: 1, eventSpacingSeconds: 0.105) == 1)
        #expect(DetectionProbability.within(1, perEvent: 0, eventSpacingSeconds: 0.105) == 0)
        // Two whole events at p = 0.5, then half of a third.
        #expect(abs(DetectionProbability.within(2, perEvent: 0.5, eventSpacingSeconds: 1) - 0.75) < 1e-12)
        #expect(abs(DetectionProbability.within(2.5, perEvent: 0.5, eventSpacingSeconds: 1) - (1 - 0.25 * 0.75)) < 1e-12)
        // The same by counting: windows of 2.5 s at 1000 phases over a train of events 1 s apart.
        var caught = 0.0
        for phase in 0 ..< 1_000 {
            let first = Double(phase) / 1_000
            let events = Array(stride(from: first, to: 2.5, by: 1.0)).count
            caught += 1 - pow(0.5, Double(events))
        }
        #expect(abs(caught / 1_000 - DetectionProbability.within(2.5, perEvent: 0.5, eventSpacingSeconds: 1)) < 0.002)
        #expect(abs(DetectionProbability.meanEventSpacingSeconds(intervalMilliseconds: 100) - 0.105) < 1e-12)
    }

    @Test("With shadowing the edge of coverage is a gradient of detection probability")
    func shadowedEdge() throws {
        var scenario = busStop
        scenario.radio.shadowingSigmaDB = 6
        let map = try CoverageMap(scenario: scenario, request: CoverageRequest(devices: ["stop beacon"], resolution: 1, withinSeconds: 0.5))
        let probability = { (y: Double) throws -> Double in
            let cell = try #require(map.grid.cell(containingX: 0.5, y: y))
            return try #require(map.layers[0].detectionProbability?[map.grid.index(column: cell.column, row: cell.row)])
        }
        #expect(try probability(-10.5) > 0.999)
        #expect(try probability(-70.5) > 0.01)
        #expect(try probability(-70.5) < 0.99)
        let nearer = try probability(-40.5), farther = try probability(-70.5)
        #expect(nearer > farther)
    }
}
