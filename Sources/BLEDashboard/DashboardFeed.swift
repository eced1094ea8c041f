import BLEFleetStore
import Foundation

/// What every connected page is told: the world (when there is one) and each tick's
/// ``DashboardMessage/Update`` sent to every page as one JSON text. A page that connects gets a
/// ``DashboardMessage/Hello`` and then the updates, with nothing lost or repeated between them,
/// since both come from this actor in one step. The world comes from a ``Source``: run here
/// with its gateways, watched in this process's `ble sim serve`, or another process's, attached
/// over its WebSocket.
actor DashboardFeed {
    /// Where the world comes from.
    enum Source {
        /// No world: the office view of a store.
        case none
        /// A world run here, paced by the wall clock, its gateways' batches written to the store.
        case world(DashboardWorld)
        /// A world this process runs for other purposes (`ble sim serve --watch-port`), looked at.
        case watch(WorldWatch)
        /// Another process's world, over its WebSocket (`ble dashboard --attach`).
        case upstream(DashboardUpstream)
    }

    private let source: Source
    let store: (any FleetStore)?
    /// Simulated seconds per wall-clock second.
    private(set) var speed: Double
    /// The run of the world the pages see, so that they notice a restart: this process's, or
    /// the attached world's.
    private(set) var session = UUID().uuidString
    /// The scenario's plan as SVG, or `nil` without a world (yet).
    private(set) var mapSVG: String?
    private var scenario: String?
    private var time = 0.0
    private var geometry: DashboardMessage.MapGeometry?
    private var devices: [DashboardMessage.Device] = []
    private var positions: [String: [Double]] = [:]
    private var names: [String: String] = [:]
    private var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]
    private var recentRSSI: [DashboardMessage.RSSIPoint] = []
    private var recentEvents: [DashboardMessage.Event] = []
    /// Sightings the run-here world's gateways wrote to the store so far.
    var stored = 0
    /// The gateways whose zone the store has been told.
    var zoned: Set<String> = []
    private let encoder = JSONEncoder()
    /// The last sentence saying the attached world cannot be reached, until it is again.
    private var lost: String?

    /// The most RSSI points and events a new page is given.
    static let recentLimit = 2000

    /// A feed of the world from `source` over `store` (either may be absent).
    init(source: sending Source, store: (any FleetStore)?, speed: Double) {
        self.store = store
        self.speed = speed
        switch source {
        case .none, .upstream:
            break
        case let .world(world):
            (scenario, time, geometry, devices, positions, mapSVG) = (world.scenario.name, world.seconds, world.geometry, world.devices,
                                                                      world.allPositions, world.mapSVG)
        case let .watch(watch):
            let snapshot = watch.snapshot
            (scenario, time, geometry, devices, positions, mapSVG) = (watch.scenarioName, snapshot.time, watch.plan.geometry, watch.plan.devices,
                                                                      snapshot.positions, watch.plan.mapSVG)
        }
        self.source = source
        encoder.outputFormatting = .sortedKeys
    }

    /// The page's first message, and the stream of updates after it, as JSON texts; with
    /// `withMap` the hello carries the map's SVG (for an attached dashboard, which has no other
    /// way to draw it).
    func connect(withMap: Bool = false) -> (hello: String, updates: AsyncStream<String>, id: UUID) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers[id] = continuation
        return (text(hello(withMap: withMap)), stream, id)
    }

    /// Forgets a page that went away.
    func disconnect(_ id: UUID) {
        subscribers.removeValue(forKey: id)?.finish()
    }

    private func hello(withMap: Bool) -> DashboardMessage.Hello {
        DashboardMessage.Hello(session: session, scenario: scenario, speed: speed, time: time, map: geometry, devices: devices,
                               positions: positions, rssi: recentRSSI, events: recentEvents, office: store != nil, names: names,
                               mapSVG: withMap ? mapSVG : nil)
    }

    /// Runs the feed until the task is cancelled (or a run-here world's duration has passed):
    /// ticks of `tick` wall-clock time, or the attached world's messages as they come.
    func play(tick: Duration = .milliseconds(100)) async {
        switch source {
        case .none:
            return
        case let .world(world):
            await play(world, tick: tick)
        case let .watch(watch):
            while !Task.isCancelled {
                do { try await Task.sleep(for: tick) } catch { return }
                publish(watch.take())
            }
        case let .upstream(upstream):
            await upstream.run(into: self)
        }
    }

    /// Sends `update` to every page and folds it into what a new page is told.
    func publish(_ update: DashboardMessage.Update) {
        var update = update
        if update.sentAt == 0 { update.sentAt = (Date().timeIntervalSince1970 * 1000).rounded() }
        time = update.time
        positions.merge(update.positions) { $1 }
        names.merge(update.names) { $1 }
        recentRSSI = Array((recentRSSI + update.rssi).suffix(Self.recentLimit))
        recentEvents = Array((recentEvents + update.events).suffix(Self.recentLimit))
        let message = text(update)
        for continuation in subscribers.values { continuation.yield(message) }
    }

    /// The attached world's hello: it replaces what the feed knew of the world, and every page
    /// is told it (a page starts afresh when the world's session is new).
    func attached(_ hello: DashboardMessage.Hello) {
        let back = lost != nil
        lost = nil
        session = hello.session
        (scenario, speed, time, geometry, devices, positions) = (hello.scenario, hello.speed, hello.time, hello.map, hello.devices, hello.positions)
        if let svg = hello.mapSVG { mapSVG = svg }
        names.merge(hello.names) { $1 }
        recentRSSI = hello.rssi
        recentEvents = hello.events
        let message = text(self.hello(withMap: false))
        for continuation in subscribers.values { continuation.yield(message) }
        if back { tell("the world is reachable again (session \(hello.session))") }
    }

    /// Tells every page, in the event log, that the attached world cannot be reached; the
    /// same sentence twice in a row is told once. Returns whether it was told.
    @discardableResult
    func lostUpstream(_ reason: String) -> Bool {
        guard reason != lost else { return false }
        lost = reason
        tell(reason)
        return true
    }

    private func tell(_ reason: String) {
        publish(DashboardMessage.Update(time: time, positions: [:], rssi: [],
                                        events: [.init(time: time, kind: "world", who: "world", text: reason)], stored: stored, names: [:]))
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
