import Foundation
import BLEController
import BLEWorld

/// A coverage map of a scenario (`ble sim map`, docs/map.md): for each chosen transmitter
/// and each cell of a grid, the mean power a phone there would receive at one simulated
/// time, whether that is above its sensitivity and, when asked, how likely it is to hear
/// the transmitter within a few seconds — all from the radio model the world runs
/// (`World.receivedPowerDBm(from:txPowerDBm:receiver:at:time:)`), with the scenario built
/// into a world and run through its scripted actions up to that time.
public struct CoverageMap: Sendable {
    /// The scenario's name.
    public var scenarioName: String
    /// What was asked.
    public var request: CoverageRequest
    /// The world's propagation model and mode, for the legend.
    public var radio: RadioModel
    /// Realistic or ideal.
    public var timing: TimingMode
    /// The cells.
    public var grid: CoverageGrid
    /// One layer per transmitter, in the order chosen (or the scenario's).
    public var layers: [CoverageLayer]
    /// The obstacles, devices and routes under the shading.
    public var plan: CoveragePlan

    /// The receiver's sensitivity in dBm.
    public var sensitivityDBm: Double { request.receiver.sensitivityDBm }

    /// The strongest mean power at cell `index` over every layer, in dBm.
    public func strongestPowerDBm(at index: Int) -> Double {
        layers.map { $0.meanPowerDBm[index] }.max() ?? -.infinity
    }

    /// Whether any layer is heard at cell `index`.
    public func isHeard(at index: Int) -> Bool { layers.contains { $0.heard[index] } }

    /// The probability of hearing at least one transmitter within the window at cell
    /// `index` (transmitters independent), or `nil` when none has a detection probability.
    public func detectionProbability(at index: Int) -> Double? {
        let probabilities = layers.compactMap { $0.detectionProbability?[index] }
        guard !probabilities.isEmpty else { return nil }
        return 1 - probabilities.reduce(1) { $0 * (1 - $1) }
    }

    /// Computes the map of `scenario` that `request` asks for.
    /// - Throws: ``CoverageMapError`` for a bad number, an unknown device, a scenario with
    ///   no transmitter, too many cells, or a scenario that does not build.
    public init(scenario: Scenario, request: CoverageRequest) throws(CoverageMapError) {
        try request.validate()
        let names = scenario.devices.map(\.name)
        for name in request.devices where !names.contains(name) { throw .unknownDevice(name, known: names) }
        let chosen = request.devices.isEmpty ? scenario.devices.filter { $0.advertising != nil }.map(\.name) : request.devices
        var seen = Set<String>()
        let transmitters = chosen.filter { seen.insert($0).inserted }
        guard !transmitters.isEmpty else { throw .nothingToDraw(scenario: scenario.name) }

        var configuration = scenario.worldConfiguration
        configuration.capturesHCI = false
        let world = World(configuration: configuration)
        let built: BuiltScenario
        do { built = try scenario.build(into: world) } catch { throw .scenario(error) }
        // Scripted actions (moves, turns, rides) up to the map's time happen by running the
        // world to the last of them; routes then give every position at that time.
        let time = Microseconds((request.atSeconds * 1_000_000).rounded())
        let lastAction = scenario.actions.map(\.atSeconds).filter { $0 <= request.atSeconds }.max() ?? 0
        world.run(until: Swift.min(time, Microseconds((lastAction * 1_000_000).rounded())))

        scenarioName = scenario.name
        self.request = request
        radio = scenario.radio
        timing = scenario.timing
        plan = CoveragePlan(scenario: scenario, built: built, world: world, time: time, transmitters: Set(transmitters))
        let devices = transmitters.compactMap { name in scenario.device(named: name).flatMap { d in built.id(of: name).map { (d, $0) } } }
        let grid = try Self.grid(plan: plan, devices: devices, world: world, time: time, request: request)
        self.grid = grid
        layers = devices.map { device, id in Self.layer(device, id: id, grid: grid, world: world, time: time, request: request) }
    }

    /// The grid: everything drawn plus each transmitter's open-field range, padded.
    private static func grid(plan: CoveragePlan, devices: [(ScenarioDevice, DeviceID)], world: World, time: Microseconds,
                             request: CoverageRequest) throws(CoverageMapError) -> CoverageGrid {
        var points = plan.drawnPoints
        for (device, id) in devices {
            let range = openFieldRange(device, world: world, request: request)
            let centre = world.position(of: id, at: time)
            points += [Vector3(x: centre.x - range, y: centre.y - range), Vector3(x: centre.x + range, y: centre.y + range)]
        }
        let padding = 2.0
        let minX = (points.map(\.x).min() ?? 0) - padding, maxX = (points.map(\.x).max() ?? 0) + padding
        let minY = (points.map(\.y).min() ?? 0) - padding, maxY = (points.map(\.y).max() ?? 0) + padding
        let side = Swift.max(maxX - minX, maxY - minY)
        let resolution = request.resolution
            ?? CoverageRequest.niceResolutions.first { side / $0 <= Double(CoverageRequest.automaticCellsPerSide) }
            ?? (side / Double(CoverageRequest.automaticCellsPerSide)).rounded(.up)
        let columns = ((maxX - minX) / resolution).rounded(.up) + 1, rows = ((maxY - minY) / resolution).rounded(.up) + 1
        guard columns * rows <= Double(CoverageRequest.cellLimit) else {
            throw .tooManyCells(cells: Int(Swift.min(columns * rows, Double(Int.max / 2))), limit: CoverageRequest.cellLimit,
                                resolution: resolution)
        }
        return CoverageGrid(minX: minX, minY: minY, maxX: maxX, maxY: maxY, resolution: resolution, height: request.receiverHeight)
    }

    /// The distance at which the mean power with both peak gains and no obstacle falls to
    /// the sensitivity less the room per-packet variation gives (3σ of shadowing, 5 dB of
    /// fading), capped at 300 m: how far the map must reach around a transmitter.
    private static func openFieldRange(_ device: ScenarioDevice, world: World, request: CoverageRequest) -> Double {
        let radio = world.configuration.radio
        let variation = 3 * radio.shadowingSigmaDB + (radio.fastFading ? 5 : 0)
        let budget = device.txPowerDBm + device.description.antennaGainDBi + request.receiver.antennaGainDBi
            - request.receiver.sensitivityDBm - radio.referenceLossDB + variation
        guard radio.pathLossExponent > 0 else { return 300 }
        return Swift.min(300, pow(10, budget / (10 * radio.pathLossExponent)))
    }

    private static func layer(_ device: ScenarioDevice, id: DeviceID, grid: CoverageGrid, world: World, time: Microseconds,
                              request: CoverageRequest) -> CoverageLayer {
        let sensitivity = request.receiver.sensitivityDBm
        let realistic = world.configuration.timing == .realistic
        var powers = [Double](repeating: 0, count: grid.count)
        for row in 0 ..< grid.rows {
            for column in 0 ..< grid.columns {
                powers[grid.index(column: column, row: row)] = world.receivedPowerDBm(
                    from: id, txPowerDBm: device.txPowerDBm, receiver: request.receiver, at: grid.centre(column: column, row: row),
                    time: time)
            }
        }
        let interval = device.advertising?.intervalMilliseconds
        var probabilities: [Double]?
        if let within = request.withinSeconds, let interval {
            let spacing = DetectionProbability.meanEventSpacingSeconds(intervalMilliseconds: interval)
            probabilities = powers.map { power in
                let perPacket = world.receptionProbability(meanPowerDBm: power, sensitivityDBm: sensitivity) * (1 - request.packetLossRate)
                return DetectionProbability.within(within, perEvent: perPacket, eventSpacingSeconds: spacing)
            }
        }
        return CoverageLayer(transmitter: device.name, txPowerDBm: device.txPowerDBm, advertisingIntervalMilliseconds: interval,
                             meanPowerDBm: powers, heard: powers.map { !realistic || $0 >= sensitivity },
                             detectionProbability: probabilities)
    }
}
