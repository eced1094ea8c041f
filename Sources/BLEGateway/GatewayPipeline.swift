import BLEFleet
import BLEFleetStore
import Logging

/// Where a gateway's batches go (DESIGN.md, "Fleets"): first into the durable spool, then into
/// the store, oldest first, each removed from the spool only after the store took it. So a
/// database that is away or slow costs nothing but spool space, a crash between "written" and
/// "removed" writes the batch again (the store ignores keys it holds), and a full spool drops
/// its oldest batches with the count logged and exported (docs/gateway.md, "Nothing lost").
///
/// The store is opened (and migrated) on first use and again after any failure, so a gateway
/// started while the database is down comes up by itself when it returns.
public actor GatewayPipeline {
    /// The spool.
    public let spool: SightingSpool
    /// The database it writes to.
    public let database: DatabaseURL
    private let metrics: GatewayMetrics
    private let logger: Logger
    private var store: (any FleetStore)?
    private var draining = false
    /// The zone the gateway reports for, and whether the open store already holds it.
    private let zone: (gateway: String, zone: String)?
    private var zoneRecorded = false
    /// What the pipeline did so far.
    public private(set) var status = Status()

    /// Counts of what happened, for logs, tests and `--check`.
    public struct Status: Hashable, Sendable {
        /// Batches appended to the spool.
        public var spooled = 0
        /// Rows the store newly inserted.
        public var stored = 0
        /// Sightings lost (spool full, or neither the spool nor the store could take them).
        public var dropped = 0
        /// Failed attempts to reach or write the store.
        public var databaseErrors = 0
        /// The last store error, in words.
        public var lastError: String?
    }

    /// A pipeline from `spool` into the store at `database`.
    /// - Parameter zone: The gateway and the zone it reports for, recorded in the store's
    ///   gateways table once the gateway has a row there, so the back end places its sightings.
    public init(spool: SightingSpool, database: DatabaseURL, metrics: GatewayMetrics, logger: Logger,
                zone: (gateway: String, zone: String)? = nil) {
        self.zone = zone
        self.spool = spool
        self.database = database
        self.metrics = metrics
        self.logger = logger
    }

    /// Makes `batch` durable in the spool, then tries to move the spool into the store.
    /// When the spool cannot take it (a full disk), the batch goes straight to the store; when
    /// that fails too, its sightings are counted and logged as dropped — never lost silently.
    public func submit(_ batch: SightingBatch) async {
        guard !batch.sightings.isEmpty else { return }
        do {
            let appended = try spool.append(batch)
            status.spooled += 1
            if appended.droppedSightings > 0 {
                status.dropped += appended.droppedSightings
                metrics.dropped.increment(by: appended.droppedSightings)
                logger.error("The spool is full: its \(appended.droppedBatches) oldest batches (\(appended.droppedSightings) sightings) were dropped",
                             metadata: ["spool": "\(spool.directory)"])
            }
            updateSpoolGauges()
        } catch {
            logger.error("The spool cannot take a batch: \(error)", metadata: ["sightings": "\(batch.count)"])
            do {
                let inserted = try await write(batch)
                logger.notice("The batch the spool refused went straight to the store", metadata: ["inserted": "\(inserted)"])
            } catch {
                status.dropped += batch.count
                metrics.dropped.increment(by: batch.count)
                logger.critical("\(batch.count) sightings are lost: neither the spool nor the store took them (\(error))")
            }
            return
        }
        await drain()
    }

    /// Moves spooled batches into the store until the spool is empty or the store fails.
    /// - Returns: whether the spool is empty afterwards.
    @discardableResult
    public func drain() async -> Bool {
        guard !draining else { return spool.count == 0 }
        draining = true
        defer { draining = false }
        while let (id, batch) = spool.oldest() {
            do {
                let inserted = try await write(batch)
                try spool.remove(id)
                // At debug, a line per stored batch: what `--log gateway=debug` shows an operator
                // following the fleet (and what a test waits for instead of asking the store).
                logger.debug("Stored a batch", metadata: ["sightings": "\(batch.count)", "inserted": "\(inserted)"])
            } catch {
                updateSpoolGauges()
                return false
            }
        }
        updateSpoolGauges()
        return true
    }

    /// Opens and migrates the store, then closes it: what `ble gateway --check` asks.
    /// - Throws: the store's error.
    public func check() async throws(FleetStoreError) {
        let store = try await FleetStores.open(database, logger: logger)
        do throws(FleetStoreError) {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Closes the store.
    public func close() async {
        await store?.close()
        store = nil
        zoneRecorded = false
    }

    private func write(_ batch: SightingBatch) async throws(FleetStoreError) -> Int {
        do {
            let store = try await openStore()
            let started = ContinuousClock.now
            let inserted = try await store.write(batch)
            metrics.batchWrite.recordNanoseconds((ContinuousClock.now - started).nanoseconds)
            if let zone, !zoneRecorded, batch.sightings.first?.gateway == zone.gateway {
                // The gateway's row exists once a batch of its is written.
                zoneRecorded = try await store.assignZone(zone.zone, toGateway: zone.gateway)
            }
            metrics.stored.increment(by: inserted)
            status.stored += inserted
            if status.lastError != nil {
                logger.notice("The store answers again", metadata: ["database": "\(database)"])
                status.lastError = nil
            }
            return inserted
        } catch {
            status.databaseErrors += 1
            metrics.databaseErrors.increment()
            if status.lastError != error.description {
                logger.error("The store cannot be written; batches wait in the spool: \(error)",
                             metadata: ["spooled": "\(spool.sightingCount)"])
            }
            status.lastError = error.description
            await store?.close()
            store = nil
            zoneRecorded = false
            throw error
        }
    }

    private func openStore() async throws(FleetStoreError) -> any FleetStore {
        if let store { return store }
        let opened = try await FleetStores.open(database, logger: logger)
        do throws(FleetStoreError) {
            try await opened.migrate()
        } catch {
            await opened.close()
            throw error
        }
        store = opened
        return opened
    }

    private func updateSpoolGauges() {
        metrics.spoolBatches.record(spool.count)
        metrics.spoolSightings.record(spool.sightingCount)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let parts = components
        let (high, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : high &+ parts.attoseconds / 1_000_000_000
    }
}
