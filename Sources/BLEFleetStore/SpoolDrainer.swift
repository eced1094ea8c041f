import BLEFleet

/// Moves spooled batches into a store, oldest first, removing each only after the store's
/// `write` returned.
///
/// A crash between the write and the removal leaves the batch spooled; it is written again at
/// the next drain, and the store ignores the keys it already holds (``BLEFleet/Sighting/key``),
/// so every sighting is stored exactly once.
public struct SpoolDrainer: Sendable {
    /// Where the batches wait.
    public let spool: SightingSpool
    /// Where they go.
    public let store: any FleetStore

    /// A drainer from `spool` into `store`.
    public init(spool: SightingSpool, store: any FleetStore) {
        self.spool = spool
        self.store = store
    }

    /// What one drain did.
    public struct Result: Hashable, Sendable {
        /// Batches written and removed from the spool.
        public var batches: Int
        /// Rows the store newly inserted (fewer than the batches' sightings when some were there already).
        public var inserted: Int
    }

    /// Writes and removes spooled batches, oldest first, until the spool is empty or
    /// `maximumBatches` were moved.
    ///
    /// - Parameter maximumBatches: At most this many batches; `nil` for all.
    /// - Returns: How many batches moved and how many rows were new.
    /// - Throws: The store's error for the batch that failed (it stays spooled, with all after
    ///   it), or a spool error when a written batch cannot be removed.
    @discardableResult
    public func drain(maximumBatches: Int? = nil) async throws(FleetStoreError) -> Result {
        var result = Result(batches: 0, inserted: 0)
        while maximumBatches.map({ result.batches < $0 }) ?? true, let (id, batch) = spool.oldest() {
            result.inserted += try await store.write(batch)
            try spool.remove(id)
            result.batches += 1
        }
        return result
    }
}
