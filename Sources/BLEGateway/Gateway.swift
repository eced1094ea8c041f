import BLEFleet
import BLEHost
import BLETime
import BLEWire
import Logging

/// One gateway on one host (`ble gateway`): it scans continuously on the host's controller,
/// hands every report to its ``GatewayCore``, and passes the batches the core cuts to its
/// ``GatewayPipeline``, which spools them and writes them to the store.
///
/// Time: a sighting is stamped with the wall-clock moment the gateway started plus the host
/// clock's time since then, so a gateway on an embedded world (virtual time) and one on a real
/// adapter (the machine's clock) stamp the same way and no wall clock enters a simulation.
public actor Gateway {
    /// How the gateway scans.
    public struct Scanning: Hashable, Sendable {
        /// Active scanning asks for scan responses (names and services often live there).
        public var active: Bool
        /// The scan interval and window, in units of 0.625 ms (Core 5.4, Vol 4, Part E, §7.8.10).
        public var interval: UInt16
        /// The scan window, at most the interval; equal to it, the scan is continuous.
        public var window: UInt16

        /// Passive and continuous (100 ms windows) by default: a gateway listens all the time
        /// and sends nothing.
        public init(active: Bool = false, interval: UInt16 = 160, window: UInt16 = 160) {
            self.active = active
            self.interval = interval
            self.window = window
        }
    }

    /// The gateway's core.
    public private(set) var core: GatewayCore
    private let pipeline: GatewayPipeline
    private let metrics: GatewayMetrics
    private let logger: Logger
    private let scanning: Scanning
    /// Whether the batch timer runs.
    private var ticking = false

    /// A gateway with `core` writing through `pipeline`.
    public init(core: GatewayCore, scanning: Scanning = Scanning(), pipeline: GatewayPipeline, metrics: GatewayMetrics, logger: Logger) {
        self.core = core
        self.scanning = scanning
        self.pipeline = pipeline
        self.metrics = metrics
        self.logger = logger
    }

    /// Scans on `host` until the task is cancelled or `seconds` of the host's clock have passed,
    /// then hands the last partial batch to the pipeline and tries a last drain.
    /// - Parameters:
    ///   - wallStart: the wall-clock time, µs since 1970, that the host clock's current reading stands for.
    /// - Throws: ``GatewayError`` when the controller refuses the scan or goes away.
    public func run(on host: BLEHost.Host, wallStart: Int64, seconds: Double? = nil) async throws(GatewayError) {
        let clock = host.clock
        let clockStart = clock.microseconds
        let stamp: @Sendable (Int64) -> Int64 = { wallStart + ($0 - clockStart) }
        let stream: AsyncStream<GAPAdvertisement>
        do {
            _ = try await host.start()
            stream = try await host.startScanning(GAPScanParameters(active: scanning.active, interval: scanning.interval,
                                                                    window: scanning.window, allowDuplicates: true))
        } catch {
            throw .controller("the scan could not start: \(error)")
        }
        logger.info("Scanning", metadata: ["active": "\(scanning.active)", "run": "\(core.run)"])
        let deadline = seconds.map { clockStart + Int64(($0 * 1e6).rounded()) }
        // The batch timer: wakes on the host's clock, so a simulated gateway stays on virtual time.
        // It is stopped by a flag, not cancelled, so that a store write under way is never cancelled.
        ticking = true
        let ticker = Task { [weak self] in
            while await self?.ticking == true {
                try? await clock.sleep(untilMicroseconds: clock.microseconds + 250_000)
                guard await self?.ticking == true else { break }
                await self?.tick(at: stamp(clock.microseconds))
            }
        }
        var ended = false
        for await report in stream {
            if Task.isCancelled { break }
            if let deadline, clock.microseconds >= deadline { break }
            await receive(report, at: stamp(clock.microseconds))
        }
        ended = !Task.isCancelled && (deadline.map { clock.microseconds < $0 } ?? true)
        ticking = false
        await ticker.value
        try? await host.stopScanning()
        // An unstructured task does not inherit the cancellation (SIGINT, SIGTERM) that may have
        // ended the scan, so the last batch still reaches the store when it answers.
        await Task { await self.finish() }.value
        if ended { throw .controller("the controller stopped reporting (it was reset or went away)") }
    }

    /// Takes one report at `time` (µs since 1970).
    func receive(_ report: GAPAdvertisement, at time: Int64) async {
        metrics.advertisements.increment()
        let before = core.counts.kept
        let rssi: Int? = report.rssi == 127 ? nil : Int(report.rssi)
        let batches = core.receive(address: report.address, rssi: rssi, data: report.advertisingBytes + report.scanResponseBytes, time: time)
        if core.counts.kept > before { metrics.sightings.increment() }
        for batch in batches { await pipeline.submit(batch) }
    }

    /// Hands out the batch due at `time`, if any, and retries the store when batches wait.
    func tick(at time: Int64) async {
        if let batch = core.due(at: time) {
            await pipeline.submit(batch)
        } else {
            await pipeline.drain()
        }
    }

    /// Hands the partial batch to the pipeline and tries a last drain.
    public func finish() async {
        if let batch = core.flush() { await pipeline.submit(batch) }
        await pipeline.drain()
    }
}

/// Why a gateway stopped.
public enum GatewayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller refused the scan or went away.
    case controller(String)

    /// One sentence.
    public var description: String {
        switch self {
        case let .controller(reason): return "The gateway's controller failed: \(reason)."
        }
    }
}
