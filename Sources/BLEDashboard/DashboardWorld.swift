import BLEFleet
import BLEFleetSimulation
import BLEScenarios
import BLEWorld

/// A scenario's world and gateways (``BLEFleetSimulation/FleetWorldRun``) as the dashboard
/// watches it: advanced tick by tick, each tick turned into one ``DashboardMessage/Update``
/// — the devices that moved, the sightings the gateways reported, devices entering and leaving
/// the scenario's zones, gateways beginning to hear an identity — and the gateways' batches,
/// for the store. Not thread-safe: ``DashboardFeed`` owns it.
final class DashboardWorld {
    /// The scenario.
    let scenario: Scenario
    /// The scenario's plan: its map, where the map puts the world, and the devices it draws.
    let plan: DashboardPlan
    /// The devices the page draws.
    var devices: [DashboardMessage.Device] { plan.devices }
    /// Where the map puts the world.
    var geometry: DashboardMessage.MapGeometry { plan.geometry }
    /// The plan of the scenario (``CoverageSVG``), the page's map.
    var mapSVG: String { plan.mapSVG }

    private let run: FleetWorldRun
    /// Where each device is and which zone the followed ones are in (the same looks a served
    /// world's ``WorldWatch`` takes).
    private let looker: WorldWatch.Looker
    private let nameOfAddress: [String: String]
    private let plotted: Set<String>
    private var positions: [String: [Double]] = [:]
    private var lastHeard: [String: Double] = [:]
    /// The device behind each identity reported so far.
    private(set) var identityNames: [String: String] = [:]

    /// The most transmitters the map shades unasked (``DashboardPlan/shadedLimit``).
    static let shadedLimit = DashboardPlan.shadedLimit

    /// Transmitters the map leaves unshaded because there were more than ``shadedLimit``.
    var unshadedTransmitters: Int { plan.unshadedTransmitters }

    /// A silence longer than this, in seconds, ends a gateway's hearing of an identity (as in the systems' stories).
    static let hearingGap = 10.0

    /// Builds `scenario` with its gateways; `plotted` names the transmitters the map shades
    /// and the RSSI plot shows (every advertiser when empty).
    /// - Throws: ``DashboardError`` for an unknown device or a scenario that cannot run with gateways.
    init(scenario: Scenario, plotted: [String]) throws(DashboardError) {
        self.scenario = scenario
        let names = scenario.devices.map(\.name)
        for name in plotted where !names.contains(name) { throw .unknownDevice(name, known: names) }
        let run: FleetWorldRun
        do {
            run = try FleetWorldRun(scenario: scenario)
        } catch {
            throw .scenario(error.description)
        }
        self.run = run
        let starts = run.built.deviceIDs.map { id in
            let point = run.world.position(of: id)
            return (x: point.x, y: point.y)
        }
        plan = try DashboardPlan(scenario: scenario, plotted: plotted, positions: starts)
        var nameOfAddress: [String: String] = [:]
        for device in scenario.devices where device.gateway == nil && device.advertising != nil {
            nameOfAddress[device.address.description.uppercased()] = device.name
        }
        self.nameOfAddress = nameOfAddress
        self.plotted = Set(plotted)
        looker = WorldWatch.Looker(scenario: scenario, built: run.built, world: run.world, plotted: plotted)
        positions = looker.positions(in: run.world).all
    }

    /// Simulated seconds so far.
    var seconds: Double { Double(run.world.now) / 1_000_000 }

    /// How long the scenario runs, in seconds (`duration:`), if it says.
    var duration: Double? { scenario.durationSeconds }

    /// Every device's position now.
    var allPositions: [String: [Double]] { positions }

    /// Runs the world to `seconds` and says what changed; the gateways' batches come with it, for the store.
    /// The world runs `advance(to:)` in steps of at most this many simulated seconds and looks
    /// at the zones after each, so a tick that comes late on a loaded machine (a long jump of
    /// simulated time) still sees a bus that entered and left a stop within it.
    static let zoneStep = 0.5

    func advance(to seconds: Double) -> (update: DashboardMessage.Update, batches: [SightingBatch]) {
        var events: [DashboardMessage.Event] = []
        // Compared in the world's whole microseconds, so that a target between two of them ends the loop.
        let end = (seconds * 1_000_000).rounded()
        repeat {
            run.run(until: min(self.seconds + Self.zoneStep, seconds), flush: false)
            events += looker.zoneChanges(in: run.world)
        } while Double(run.world.now) < end
        let batches = run.takeBatches()
        let now = self.seconds
        var points: [DashboardMessage.RSSIPoint] = []
        var names: [String: String] = [:]
        for sighting in batches.flatMap(\.sightings).sorted(by: { ($0.time, $0.gateway) < ($1.time, $1.gateway) }) {
            let beacon = nameOfAddress[sighting.address.uppercased()] ?? sighting.identity
            if identityNames[sighting.identity] == nil {
                identityNames[sighting.identity] = beacon
                names[sighting.identity] = beacon
            }
            let time = Double(sighting.time - run.epoch) / 1_000_000
            let key = sighting.gateway + "\u{1F}" + beacon
            if lastHeard[key].map({ time - $0 > Self.hearingGap }) ?? true {
                events.append(.init(time: time, kind: "hearing", who: sighting.gateway,
                                    text: "\(sighting.gateway) began hearing \(beacon) at \(sighting.rssi) dBm"))
            }
            lastHeard[key] = time
            if plotted.isEmpty || plotted.contains(beacon) {
                points.append(.init(beacon: beacon, receiver: sighting.gateway, time: time, rssi: sighting.rssi))
            }
        }
        let update = DashboardMessage.Update(time: now, positions: movedPositions(), rssi: points,
                                             events: events.sorted { $0.time < $1.time }, stored: 0, names: names)
        return (update, batches)
    }

    /// The zone each gateway watches, for the store (as a fleet's installer assigns them).
    var zoneOfGateway: [String: String] { run.zoneOfGateway }

    /// The devices that moved more than a centimetre since the last call, and records where they are.
    private func movedPositions() -> [String: [Double]] {
        let (moved, all) = looker.positions(in: run.world)
        positions = all
        return moved
    }
}
