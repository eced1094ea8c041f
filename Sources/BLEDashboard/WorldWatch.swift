import BLEController
import BLEFleetSimulation
import BLEWorld
import Synchronization

/// A world that another command runs (`ble sim serve --watch-port`, which paces it in real
/// time for hosts on its TCP ports) watched for the dashboard: installed on the world before it
/// starts, it looks at the world every ``step`` of simulated time from inside the world's own
/// event queue — where each device is, who entered or left a zone — and hears every packet
/// received on a primary advertising channel, keeping one RSSI point a second per transmitter
/// and receiver. ``take()`` hands out what changed since the last call as one
/// ``DashboardMessage/Update``; ``DashboardFeed`` sends it to pages and attached dashboards.
///
/// The RSSI is the radio's truth at each receiver (before any host's filters), unlike the
/// in-process dashboard's, which plots what its gateways reported.
public final class WorldWatch: Sendable {
    /// The scenario's name.
    let scenarioName: String
    /// The scenario's plan, devices drawn where they start.
    let plan: DashboardPlan
    private let state: Mutex<Pending>

    /// Simulated seconds between two looks at positions and zones.
    public static let step = 0.25
    /// Simulated seconds between two RSSI points of one transmitter at one receiver.
    public static let rssiInterval = 1.0
    /// The most RSSI points kept between two ``take()`` calls; past it the oldest go and
    /// ``droppedPoints`` counts them (a reader that stopped taking, not a crowd: a thousand
    /// transmitters heard by ten receivers make 10,000 points a simulated second).
    public static let pendingLimit = 50_000

    struct Pending {
        var time = 0.0
        var all: [String: [Double]] = [:]
        var moved: [String: [Double]] = [:]
        var rssi: [DashboardMessage.RSSIPoint] = []
        var events: [DashboardMessage.Event] = []
        var dropped = 0
    }

    /// Watches `world`, which `built` placed `scenario` into; call before the world runs.
    /// `plotted` names the transmitters the map shades (the first ``DashboardPlan/shadedLimit``
    /// advertisers when empty).
    /// - Throws: ``DashboardError`` for an unknown device or a scenario that cannot be drawn.
    public init(scenario: Scenario, built: BuiltScenario, world: World, plotted: [String] = []) throws(DashboardError) {
        scenarioName = scenario.name
        let ids = built.deviceIDs
        plan = try DashboardPlan(scenario: scenario, plotted: plotted, positions: ids.map { id in
            let point = world.position(of: id)
            return (x: point.x, y: point.y)
        })
        state = Mutex(Pending())
        let looker = Looker(scenario: scenario, built: built, world: world, plotted: plotted)
        state.withLock { $0.all = looker.positions(in: world).all }
        let earlier = world.onReception
        world.onReception = { [self] reception in
            earlier?(reception)
            guard reception.channel >= 37, let point = looker.point(for: reception) else { return }
            state.withLock { pending in
                if pending.rssi.count >= Self.pendingLimit {
                    pending.rssi.removeFirst(pending.rssi.count / 10)
                    pending.dropped += Self.pendingLimit / 10
                }
                pending.rssi.append(point)
            }
        }
        schedule(looker, in: world, at: world.now)
    }

    /// Looks at the world now and again every ``step``, from inside its event queue.
    private func schedule(_ looker: Looker, in world: World, at time: Microseconds) {
        world.schedule(at: time) { [self] world in
            let (moved, all) = looker.positions(in: world)
            let events = looker.zoneChanges(in: world)
            state.withLock { pending in
                pending.time = Double(world.now) / 1_000_000
                pending.moved.merge(moved) { $1 }
                pending.all = all
                pending.events += events
            }
            schedule(looker, in: world, at: world.now + Microseconds(Self.step * 1_000_000))
        }
    }

    /// What changed since the last call: positions, RSSI points and events.
    public func take() -> DashboardMessage.Update {
        state.withLock { pending in
            defer {
                pending.moved.removeAll()
                pending.rssi.removeAll()
                pending.events.removeAll()
            }
            return DashboardMessage.Update(time: pending.time, positions: pending.moved, rssi: pending.rssi,
                                           events: pending.events, stored: 0, names: [:])
        }
    }

    /// Simulated seconds at the last look, and every device's position then.
    var snapshot: (time: Double, positions: [String: [Double]]) {
        state.withLock { ($0.time, $0.all) }
    }

    /// RSSI points dropped because nobody took them in time.
    public var droppedPoints: Int { state.withLock { $0.dropped } }
}
