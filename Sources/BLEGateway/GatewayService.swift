import BLEAdapter
import BLEFleet
import BLEFleetStore
import BLEProfiles
import BLELogging
import Foundation
import Logging
import Metrics
import Prometheus

/// A `ble gateway` process: one or more gateways (`--fleet`), each on its own controller and
/// spool, all writing to one database, with their metrics on one Prometheus endpoint.
public struct GatewayService: Sendable {
    /// What the process runs and where it writes.
    public struct Options: Sendable {
        /// The gateways.
        public var gateways: [GatewayConfiguration]
        /// The database (`--database`).
        public var database: DatabaseURL
        /// The folder holding one spool folder per gateway (`--spool`).
        public var spoolDirectory: String
        /// The most bytes each gateway's spool may take (`--spool-limit`).
        public var spoolLimit: Int
        /// Where to serve `/metrics`, if anywhere (`--metrics-address`, `--metrics-port`).
        public var metrics: (host: String, port: Int)?
        /// How long to run, in seconds of each host's clock; `nil` until cancelled.
        public var seconds: Double?
        /// The world's seed for `sim` controllers.
        public var seed: UInt64?
        /// Simulated seconds per wall-clock second for `sim` controllers (`--speed`): 1 paces the
        /// world to real time; `.infinity` runs it as fast as the processor allows, for benchmarks
        /// and long simulated runs. Real controllers ignore it.
        public var speed: Double

        /// Options with every field.
        public init(gateways: [GatewayConfiguration], database: DatabaseURL, spoolDirectory: String, spoolLimit: Int,
                    metrics: (host: String, port: Int)?, seconds: Double?, seed: UInt64?, speed: Double = 1) {
            self.gateways = gateways
            self.database = database
            self.spoolDirectory = spoolDirectory
            self.spoolLimit = spoolLimit
            self.metrics = metrics
            self.seconds = seconds
            self.seed = seed
            self.speed = speed
        }
    }

    /// What one gateway did, for the closing line.
    public struct Summary: Sendable {
        /// The gateway's name.
        public var name: String
        /// Its core's counts.
        public var counts: GatewayCore.Counts
        /// Its pipeline's counts.
        public var pipeline: GatewayPipeline.Status
        /// Sightings still in its spool.
        public var spooled: Int
        /// Why it stopped early, if it did.
        public var failure: String?
    }

    /// The options.
    public let options: Options
    /// The registry the metrics endpoint serves.
    public let registry: PrometheusCollectorRegistry

    /// A service for `options`, its metrics in `registry`.
    public init(options: Options, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.options = options
        self.registry = registry
    }

    /// The spool folder of the gateway called `name`.
    public func spoolPath(of name: String) -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return (options.spoolDirectory as NSString).appendingPathComponent(safe)
    }

    /// Checks everything and exits (`--check`): each gateway's configuration, its spool folder
    /// (made and readable), and the database (opened and migrated). Controllers are not opened.
    /// - Returns: one line per thing checked.
    /// - Throws: ``GatewayConfigurationError`` or ``BLEFleetStore/FleetStoreError`` for the first failure.
    public func check() async throws -> [String] {
        var lines: [String] = []
        for gateway in options.gateways {
            try gateway.validate()
            let spool = try SightingSpool(directory: spoolPath(of: gateway.name), byteLimit: options.spoolLimit)
            lines.append("gateway \"\(gateway.name)\" on \(gateway.hci): \(gateway.filter.rules.count) rules; spool \(spool.directory) "
                         + "holds \(spool.sightingCount) sightings in \(spool.count) batches")
        }
        let pipeline = GatewayPipeline(spool: try SightingSpool(directory: spoolPath(of: ".check"), byteLimit: options.spoolLimit),
                                       database: options.database, metrics: GatewayMetrics(gateway: "check", factory: NOOPMetricsHandler.instance),
                                       logger: BLELog.logger("store"))
        try await pipeline.check()
        try? FileManager.default.removeItem(atPath: spoolPath(of: ".check"))
        lines.append("database \(options.database): reachable, schema \(FleetSchema.currentVersion)")
        return lines
    }

    /// Runs every gateway until `seconds` pass or the task is cancelled, then flushes each
    /// gateway's last batch into its spool and tries a last drain.
    /// - Returns: what each gateway did.
    /// - Throws: when a spool folder cannot be opened or the metrics port cannot be bound.
    public func run(onLog: @escaping @Sendable (String) -> Void = { _ in }) async throws -> [Summary] {
        let factory = PrometheusMetricsFactory(registry: registry)
        var endpoint: MetricsEndpoint?
        if let metrics = options.metrics {
            endpoint = try await MetricsEndpoint.start(registry: registry, host: metrics.host, port: metrics.port)
            onLog("metrics at http://\(metrics.host):\(endpoint?.port ?? metrics.port)/metrics")
        }
        var prepared: [(GatewayConfiguration, Gateway, GatewayPipeline)] = []
        for configuration in options.gateways {
            var logger = BLELog.logger("gateway")
            logger[metadataKey: "gateway"] = "\(configuration.name)"
            let metrics = GatewayMetrics(gateway: configuration.name, factory: factory)
            let spool = try SightingSpool(directory: spoolPath(of: configuration.name), byteLimit: options.spoolLimit)
            for corrupt in spool.corruptFiles { logger.error("A damaged spool file was set aside: \(corrupt.file) (\(corrupt.reason))") }
            if spool.count > 0 { logger.warning("\(spool.sightingCount) sightings wait in the spool from an earlier run; they go to the store first") }
            let pipeline = GatewayPipeline(spool: spool, database: options.database, metrics: metrics, logger: logger,
                                           zone: configuration.zone.map { (configuration.name, $0) })
            let run = Int64.random(in: 0 ... .max)
            let core = GatewayCore(name: configuration.name, run: run, filter: configuration.filter, batching: configuration.batching)
            prepared.append((configuration, Gateway(core: core, scanning: configuration.scanning, pipeline: pipeline, metrics: metrics, logger: logger),
                             pipeline))
        }
        let summaries = await withTaskGroup(of: Summary.self) { group in
            for (configuration, gateway, pipeline) in prepared {
                let seconds = options.seconds, seed = options.seed, speed = options.speed
                group.addTask {
                    var failure: String?
                    do {
                        let adapter = try await Adapter.open(hci: configuration.hci, seed: seed, snoopPath: nil, onLog: onLog, speed: speed)
                        do {
                            try await adapter.startSimulatedPeripherals()
                            let wallStart = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
                            try await gateway.run(on: adapter.host, wallStart: wallStart, seconds: seconds)
                        } catch {
                            failure = "\(error)"
                        }
                        await adapter.close()
                    } catch {
                        failure = "\(error)"
                    }
                    await Task { await gateway.finish() }.value  // not cancelled with the run: the last drain must reach the store
                    let counts = await gateway.core.counts
                    let status = await pipeline.status
                    await pipeline.close()
                    return Summary(name: configuration.name, counts: counts, pipeline: status, spooled: pipeline.spool.sightingCount, failure: failure)
                }
            }
            var all: [Summary] = []
            for await summary in group { all.append(summary) }
            return all.sorted { $0.name < $1.name }
        }
        await endpoint?.stop()
        return summaries
    }
}
