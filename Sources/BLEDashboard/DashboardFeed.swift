import BLEFleetStore
import Foundation

/// What every connected page is told: the world (when there is one) advanced in ticks paced
/// by the wall clock, its gateways' batches written to the store, and each tick's
/// ``DashboardMessage/Update`` sent to every page as one JSON text. A page that connects gets a
/// ``DashboardMessage/Hello`` and then the updates, with nothing lost or repeated between them,
/// since both come from this actor in one step.
actor DashboardFeed {
    private let world: DashboardWorld?
    private let store: (any FleetStore)?
    /// Simulated seconds per wall-clock second.
    let speed: Double
    /// This process's run, told to pages so that they notice a restart.
    let session = UUID().uuidString
    private var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]
    private var recentRSSI: [DashboardMessage.RSSIPoint] = []
    private var recentEvents: [DashboardMessage.Event] = []
    private var stored = 0
    /// The gateways whose zone the store has been told.
    private var zoned: Set<String> = []
    private let encoder = JSONEncoder()

    /// The most RSSI points and events a new page is given.
    static let recentLimit = 2000

    /// A feed of `world` (may be `nil`: a store only) writing into `store`.
    init(world: sending DashboardWorld?, store: (any FleetStore)?, speed: Double) {
        self.world = world
        self.store = store
        self.speed = speed
        encoder.outputFormatting = .sortedKeys
    }

    /// The page's first message, and the stream of updates after it, as JSON texts.
    func connect() -> (hello: String, updates: AsyncStream<String>, id: UUID) {
        let hello = DashboardMessage.Hello(session: session, scenario: world?.scenario.name, speed: speed, time: world?.seconds ?? 0,
                                           map: world?.geometry, devices: world?.devices ?? [], positions: world?.allPositions ?? [:],
                                           rssi: recentRSSI, events: recentEvents, office: store != nil,
                                           names: world?.identityNames ?? [:])
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers[id] = continuation
        return (text(hello), stream, id)
    }

    /// Forgets a page that went away.
    func disconnect(_ id: UUID) {
        subscribers.removeValue(forKey: id)?.finish()
    }

    /// The scenario's plan as SVG, or `nil` without a world.
    var mapSVG: String? { world?.mapSVG }

    /// The most wall-clock seconds' worth of simulated time one tick advances (at `speed`).
    static let catchUpLimit = 1.0

    /// Runs the world at `speed` until the task is cancelled or the scenario's duration has
    /// passed, one tick every `tick` of wall-clock time; a world slower than that falls behind.
    func play(tick: Duration = .milliseconds(100)) async {
        guard let world else { return }
        let clock = ContinuousClock()
        let start = clock.now
        while !Task.isCancelled {
            do { try await Task.sleep(for: tick) } catch { return }
            let elapsed = clock.now - start
            var target = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * speed
            // At most a second of wall-clock time's worth a tick: a world that cannot keep up
            // falls behind the wall clock rather than taking ever longer steps, so pages keep
            // getting an update every step instead of waiting longer and longer for one.
            target = min(target, world.seconds + speed * Self.catchUpLimit)
            if let duration = world.duration { target = min(target, duration) }
            guard target > world.seconds else {
                if world.duration.map({ world.seconds >= $0 }) ?? false { return }
                continue
            }
            await advance(to: target)
        }
    }

    /// One tick: advances the world to `seconds`, stores the batches and tells every page.
    func advance(to seconds: Double) async {
        guard let world else { return }
        let advanced = world.advance(to: seconds)
        var update = advanced.update
        if let store {
            for batch in advanced.batches {
                do {
                    stored += try await store.write(batch)
                } catch {
                    update.events.append(.init(time: update.time, kind: "store", who: batch.sightings.first?.gateway ?? "gateway",
                                               text: "the store refused a batch: \(error)"))
                    continue
                }
                // A gateway's zone is set once the store knows the gateway (its first batch), as an installer would.
                guard let gateway = batch.sightings.first?.gateway, !zoned.contains(gateway), let zone = world.zoneOfGateway[gateway] else { continue }
                do {
                    if try await store.assignZone(zone, toGateway: gateway) { zoned.insert(gateway) }
                } catch {
                    update.events.append(.init(time: update.time, kind: "store", who: gateway, text: "the store refused \(gateway)'s zone: \(error)"))
                    zoned.insert(gateway)
                }
            }
        }
        update.stored = stored
        update.sentAt = (Date().timeIntervalSince1970 * 1000).rounded()
        recentRSSI = Array((recentRSSI + update.rssi).suffix(Self.recentLimit))
        recentEvents = Array((recentEvents + update.events).suffix(Self.recentLimit))
        let message = text(update)
        for continuation in subscribers.values { continuation.yield(message) }
    }

    /// Ends every page's stream (the server is stopping).
    func finish() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    private func text(_ value: some Encodable) -> String {
        // Encoding our own plain structs cannot fail; an empty object keeps the page alive if it ever did.
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
