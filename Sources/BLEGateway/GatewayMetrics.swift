import CoreMetrics

/// A gateway's metrics (DESIGN.md, "Observability"), through swift-metrics so that any backend
/// can take them; `ble gateway --metrics-port` exports them for Prometheus. Every metric carries
/// the gateway's name as the `gateway` label, so the gateways of one process (`--fleet`) and of a
/// whole fleet are told apart. Rates (sightings per second) are Prometheus's `rate()` of the counters.
public struct GatewayMetrics: Sendable {
    /// Advertising reports the scanner delivered: `ble_gateway_advertisements_total`.
    public let advertisements: Counter
    /// Reports kept as sightings: `ble_gateway_sightings_total`.
    public let sightings: Counter
    /// Sightings the store newly inserted: `ble_gateway_stored_sightings_total`.
    public let stored: Counter
    /// How long writing one batch to the store took: `ble_gateway_batch_write_seconds`.
    public let batchWrite: Timer
    /// Batches waiting in the spool: `ble_gateway_spool_batches`.
    public let spoolBatches: Gauge
    /// Sightings waiting in the spool: `ble_gateway_spool_sightings`.
    public let spoolSightings: Gauge
    /// Sightings lost because the spool was full or could not be written:
    /// `ble_gateway_dropped_sightings_total`.
    public let dropped: Counter
    /// Failed attempts to reach or write the store: `ble_gateway_database_errors_total`.
    public let databaseErrors: Counter

    /// The metrics of the gateway called `gateway`, made by `factory` (the process's bootstrapped
    /// factory by default).
    public init(gateway: String, factory: any MetricsFactory = MetricsSystem.factory) {
        let labels = [("gateway", gateway)]
        advertisements = Counter(label: "ble_gateway_advertisements_total", dimensions: labels, factory: factory)
        sightings = Counter(label: "ble_gateway_sightings_total", dimensions: labels, factory: factory)
        stored = Counter(label: "ble_gateway_stored_sightings_total", dimensions: labels, factory: factory)
        batchWrite = Timer(label: "ble_gateway_batch_write_seconds", dimensions: labels, factory: factory)
        spoolBatches = Gauge(label: "ble_gateway_spool_batches", dimensions: labels, factory: factory)
        spoolSightings = Gauge(label: "ble_gateway_spool_sightings", dimensions: labels, factory: factory)
        dropped = Counter(label: "ble_gateway_dropped_sightings_total", dimensions: labels, factory: factory)
        databaseErrors = Counter(label: "ble_gateway_database_errors_total", dimensions: labels, factory: factory)
    }
}
