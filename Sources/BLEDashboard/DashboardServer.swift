import BLEBackend
import BLEFleetStore
import BLEWorld
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// `ble dashboard`'s server (docs/dashboard.md): one page (`/`, its script and style, shipped
/// as resources — nothing is loaded from the internet), the scenario's plan at `/map.svg`, a
/// WebSocket at `/ws` streaming the world's batched updates (``DashboardFeed``), and the back
/// end's API over the store under `/api/` (the same router `ble backend` serves), which the
/// page's office view asks where each identity is, its history and its dwell per zone.
public struct DashboardServer: Sendable {
    /// What the server shows: a world, a store, or both.
    public struct Configuration: Sendable {
        /// The address to listen on.
        public var address: String
        /// The port (0 picks a free one).
        public var port: Int
        /// Simulated seconds per wall-clock second.
        public var speed: Double

        /// A server on `address:port` running its world at `speed`.
        public init(address: String = "127.0.0.1", port: Int = 8090, speed: Double = 1) {
            self.address = address
            self.port = port
            self.speed = speed
        }
    }

    private let feed: DashboardFeed
    private let store: (any FleetStore)?
    private let configuration: Configuration
    private let logger: Logger

    /// A server of the world from `source` over `store`.
    /// - Throws: ``DashboardError`` when there is nothing to show or a setting is out of range.
    init(source: sending DashboardFeed.Source, store: (any FleetStore)?, configuration: Configuration,
         logger: Logger) throws(DashboardError) {
        if case .none = source, store == nil { throw .nothingToShow }
        guard configuration.speed.isFinite, configuration.speed > 0 else { throw .invalidSpeed(configuration.speed) }
        guard (0 ... 65_535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        feed = DashboardFeed(source: source, store: store, speed: configuration.speed)
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs until the task is cancelled (or, with `stopOnSignals`, SIGINT or SIGTERM);
    /// `onReady` is told the port once the server accepts connections.
    public func run(stopOnSignals: Bool = false, onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let feed = self.feed
        let application = Application(
            router: DashboardRoutes.router(feed: feed, store: store),
            server: .http1WebSocketUpgrade(configuration: HTTP1WebSocketUpgradeChannel.Configuration()) { request, _, _ in
                // `/ws` for a page; `/ws?map=1` for an attached dashboard, whose hello carries the map.
                let target = (request.path ?? "").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                guard target.first == "/ws" else { return .dontUpgrade }
                let withMap = target.count == 2 && target[1].split(separator: "&").contains("map=1")
                return .upgrade([:]) { inbound, outbound, _ in
                    try await Self.serve(feed: feed, withMap: withMap, inbound: inbound, outbound: outbound)
                }
            },
            configuration: ApplicationConfiguration(address: .hostname(configuration.address, port: configuration.port),
                                                    serverName: "SwiftBLE-dashboard"),
            onServerRunning: { [requested = configuration.port] channel in await onReady(channel.localAddress?.port ?? requested) },
            logger: logger
        )
        let player = Task { await feed.play() }
        defer { player.cancel() }
        // Stopping ends every page's stream first, so that the open sockets close and the
        // server's graceful shutdown does not wait for them.
        try await withTaskCancellationHandler {
            try await application.runService(gracefulShutdownSignals: stopOnSignals ? [.sigterm, .sigint] : [])
        } onCancel: {
            Task { await feed.finish() }
        }
        await feed.finish()
    }

    /// One page's connection: the hello, then every update, until either side ends it. The
    /// page sends nothing; a task reading its side notices the close and ends the updates, so
    /// that this returns (and the socket closes) when the page goes or the server stops.
    private static func serve(feed: DashboardFeed, withMap: Bool, inbound: WebSocketInboundStream,
                              outbound: WebSocketOutboundWriter) async throws {
        let (hello, updates, id) = await feed.connect(withMap: withMap)
        let reader = Task {
            do { for try await _ in inbound {} } catch {}
            await feed.disconnect(id)
        }
        defer { reader.cancel() }
        do {
            try await outbound.write(.text(hello))
            for await update in updates { try await outbound.write(.text(update)) }
        } catch {
            await feed.disconnect(id)
            throw error
        }
        await feed.disconnect(id)
    }
}

extension DashboardServer {
    /// A dashboard over `scenario` (run in this process with its gateways), or over the world
    /// of another process at `attach`, and/or the store at `storeURL`; a scenario without a
    /// store has its gateways write into a temporary one.
    ///
    /// - Parameters:
    ///   - scenario: The world to run, or `nil` to show an attached world or only a store.
    ///   - attach: `ws://HOST:PORT` of a `ble sim serve --watch-port` (or of another dashboard) whose world to show.
    ///   - devices: The transmitters the map shades and the RSSI plot shows (every advertiser when empty).
    ///   - storeURL: `sqlite:PATH` or `postgres://…`: a fleet store holding the gateway schema.
    /// - Returns: The server and the store it opened (close it when the server has stopped).
    /// - Throws: ``DashboardError``.
    public static func make(scenario: Scenario?, attach: String? = nil, devices: [String] = [], storeURL: String?,
                            configuration: Configuration,
                            logger: Logger = Logger(label: "ble.dashboard")) async throws(DashboardError) -> (DashboardServer, DashboardStore?) {
        guard scenario != nil || storeURL != nil || attach != nil else { throw .nothingToShow }
        if attach != nil, scenario != nil { throw .attachConflict("a scenario") }
        if attach != nil, !devices.isEmpty { throw .attachConflict("--device") }
        if scenario == nil, attach == nil, !devices.isEmpty { throw .unknownDevice(devices[0], known: []) }
        let upstream = try attach.map { value throws(DashboardError) in try DashboardUpstream(value, logger: logger) }
        let world = try scenario.map { scenario throws(DashboardError) in try DashboardWorld(scenario: scenario, plotted: devices) }
        if let world, world.unshadedTransmitters > 0 {
            logger.notice("the map shades the first \(DashboardWorld.shadedLimit) transmitters; \(world.unshadedTransmitters) more are not shaded (--device picks which)")
        }
        var opened: DashboardStore?
        if let storeURL {
            opened = try await DashboardStore.open(storeURL)
        } else if world != nil {
            opened = try await DashboardStore.temporary()
        }
        let source: DashboardFeed.Source = if let world { .world(world) } else if let upstream { .upstream(upstream) } else { .none }
        do {
            return (try DashboardServer(source: source, store: opened?.store, configuration: configuration, logger: logger), opened)
        } catch {
            await opened?.close()
            throw error
        }
    }

    /// A dashboard of a world that `watch` looks at, run by the caller (`ble sim serve
    /// --watch-port`): the page without the office view, and at `/ws` the stream that
    /// `ble dashboard --attach` reads.
    /// - Throws: ``DashboardError`` when a setting is out of range.
    public init(watch: WorldWatch, configuration: Configuration, logger: Logger = Logger(label: "ble.watch")) throws(DashboardError) {
        try self.init(source: .watch(watch), store: nil, configuration: configuration, logger: logger)
    }
}
