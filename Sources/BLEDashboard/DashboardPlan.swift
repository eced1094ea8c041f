import BLEScenarios
import BLEWorld

/// A scenario as the page draws it, whichever process runs the world: its plan with the
/// chosen transmitters' coverage (``BLEScenarios/CoverageSVG``, the page's `/map.svg`), where
/// that plan puts the world, and the devices with the kind of marker each gets.
struct DashboardPlan: Sendable {
    /// The plan as SVG.
    let mapSVG: String
    /// Where the map puts the world.
    let geometry: DashboardMessage.MapGeometry
    /// The devices the page draws, at the positions given.
    let devices: [DashboardMessage.Device]
    /// Transmitters the map leaves unshaded because there were more than ``shadedLimit``.
    let unshadedTransmitters: Int

    /// The most transmitters the map shades when no `--device` names them: each costs a pass
    /// of the radio model over every cell (a thousand walkers took 90 s to draw), and past a
    /// few dozen the shading of the strongest says little. The first ones in the scenario are
    /// shaded; ``unshadedTransmitters`` says how many were left out.
    static let shadedLimit = 50

    /// The plan of `scenario`, shading `plotted` (the first ``shadedLimit`` advertisers when
    /// empty), its devices drawn at `positions` (one `(x, y)` per scenario device, in order).
    /// - Throws: ``DashboardError`` for an unknown device or a scenario that cannot be drawn.
    init(scenario: Scenario, plotted: [String], positions: [(x: Double, y: Double)]) throws(DashboardError) {
        let names = scenario.devices.map(\.name)
        for name in plotted where !names.contains(name) { throw .unknownDevice(name, known: names) }
        let advertisers = scenario.devices.filter { $0.advertising != nil }.map(\.name)
        let shaded = plotted.isEmpty && advertisers.count > Self.shadedLimit ? Array(advertisers.prefix(Self.shadedLimit)) : plotted
        unshadedTransmitters = plotted.isEmpty ? max(0, advertisers.count - Self.shadedLimit) : 0
        let map: CoverageMap
        do {
            map = try CoverageMap(scenario: scenario, request: CoverageRequest(devices: shaded))
        } catch {
            throw .scenario(error.description)
        }
        let drawing = CoverageSVG(map: map)
        mapSVG = drawing.document()
        geometry = DashboardMessage.MapGeometry(left: drawing.left, top: drawing.top, scale: drawing.scale, originX: map.grid.originX,
                                                topY: map.grid.originY + Double(map.grid.rows) * map.grid.resolution)
        devices = zip(scenario.devices, positions).map { device, point in
            DashboardMessage.Device(name: device.name, kind: Self.kind(of: device), x: point.x, y: point.y)
        }
    }

    /// The marker a device gets: `gateway`, `beacon` (advertises), `vehicle` (follows a
    /// route, silent) or `device`.
    static func kind(of device: ScenarioDevice) -> String {
        if device.gateway != nil { return "gateway" }
        if device.advertising != nil { return "beacon" }
        if device.description.route != nil { return "vehicle" }
        return "device"
    }
}
