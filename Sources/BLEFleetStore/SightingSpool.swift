import BLEFleet
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Batches a gateway could not write yet, on disk, oldest first: nothing is lost while the
/// database is away, up to a byte limit (docs/store.md, "The spool").
///
/// Each batch is one file named by a 20-digit counter (`00000000000000000042.batch`), so that
/// lexical order is write order. ``append(_:)`` returns only after the file is whole on disk:
/// written to a temporary name, `fsync`ed, renamed, and the directory `fsync`ed. A process
/// killed at any point leaves every appended batch readable by the next ``SightingSpool`` on
/// the directory; a file cut short or damaged is renamed `.corrupt` and listed in
/// ``corruptFiles``, not trapped on.
///
/// One spool per directory at a time: two processes appending to the same directory would
/// reuse counters.
public final class SightingSpool: Sendable {
    /// The spool's directory (created when missing).
    public let directory: String
    /// The most bytes the spool's files may take; `nil` for no limit.
    public let byteLimit: Int?
    private let files: SpoolFiles
    private let state: Mutex<State>

    private struct Entry: Sendable {
        let id: SpoolBatchID
        let bytes: Int
        let sightings: Int
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var nextID: UInt64 = 1
        var droppedSightings = 0
        var droppedBatches = 0
        var corrupt: [SpoolCorruption] = []
    }

    /// Opens the spool in `directory`, creating it when missing, and reads every batch file to
    /// check it (length and CRC-32) and count its sightings.
    ///
    /// - Parameters:
    ///   - directory: Where the batch files live.
    ///   - byteLimit: The most bytes the files may take (`--spool-limit`); `nil` for no limit.
    /// - Throws: ``FleetStoreError/spoolIOError(path:reason:)`` when the directory cannot be made or read.
    public convenience init(directory: String, byteLimit: Int? = nil) throws(FleetStoreError) {
        try self.init(directory: directory, byteLimit: byteLimit, files: SpoolFiles())
    }

    init(directory: String, byteLimit: Int?, files: SpoolFiles) throws(FleetStoreError) {
        self.directory = directory
        self.byteLimit = byteLimit
        self.files = files
        var state = State()
        do {
            try files.makeDirectory(directory)
            let names = try files.list(directory).sorted()
            for name in names {
                if name.hasSuffix(".batch"), let id = SpoolBatchID(fileName: name) {
                    state.nextID = max(state.nextID, id.value + 1)
                    switch Self.check(path: "\(directory)/\(name)", files: files) {
                    case .success(let (bytes, sightings)): state.entries.append(Entry(id: id, bytes: bytes, sightings: sightings))
                    case .failure(let corruption): state.corrupt.append(Self.setAside(name, in: directory, corruption, files: files))
                    }
                } else if name.hasPrefix(".tmp-"), let id = SpoolBatchID(fileName: String(name.dropFirst(5))) {
                    // A crash before the rename: keep the batch when it is whole, else set it aside.
                    state.nextID = max(state.nextID, id.value + 1)
                    switch Self.check(path: "\(directory)/\(name)", files: files) {
                    case .success(let (bytes, sightings)) where files.rename("\(directory)/\(name)", "\(directory)/\(id.fileName)") == 0:
                        state.entries.append(Entry(id: id, bytes: bytes, sightings: sightings))
                    case .success:
                        state.corrupt.append(Self.setAside(name, in: directory, .init(reason: "it could not be renamed to \(id.fileName)"), files: files))
                    case .failure(let corruption):
                        state.corrupt.append(Self.setAside(name, in: directory, corruption, files: files))
                    }
                }
            }
        } catch {
            throw .spoolIOError(path: directory, reason: error.reason)
        }
        state.entries.sort { $0.id < $1.id }
        self.state = Mutex(state)
    }

    /// Spools `batch` durably; when that passes ``byteLimit``, the oldest batches are removed
    /// until it fits, and their sightings counted in the result and in ``droppedSightings``.
    ///
    /// - Returns: The new batch's id and what was dropped to make room.
    /// - Throws: ``FleetStoreError/spoolDiskFull(directory:)`` on ENOSPC (nothing half-written
    ///   remains, nothing was dropped), ``FleetStoreError/spoolBatchTooLarge(bytes:limit:)``, or
    ///   ``FleetStoreError/spoolIOError(path:reason:)``.
    @discardableResult
    public func append(_ batch: SightingBatch) throws(FleetStoreError) -> SpoolAppend {
        let bytes = try SpoolRecord.encode(batch)
        if let byteLimit, bytes.count > byteLimit { throw .spoolBatchTooLarge(bytes: bytes.count, limit: byteLimit) }
        return try state.withLock { state throws(FleetStoreError) -> SpoolAppend in
            let id = SpoolBatchID(value: state.nextID)
            do throws(SpoolFiles.Failure) {
                try files.writeDurably(bytes, to: path(of: id), temporary: "\(directory)/.tmp-\(id.fileName)", directory: directory)
            } catch {
                throw error.isDiskFull ? .spoolDiskFull(directory: directory) : .spoolIOError(path: path(of: id), reason: error.reason)
            }
            state.nextID += 1
            state.entries.append(Entry(id: id, bytes: bytes.count, sightings: batch.count))
            // Written first, dropped after: a failed write never costs the batches already spooled.
            var dropped = SpoolAppend(id: id, droppedBatches: 0, droppedSightings: 0)
            while let byteLimit, state.entries.reduce(0, { $0 + $1.bytes }) > byteLimit, state.entries.count > 1 {
                let oldest = state.entries.removeFirst()
                unlink(path(of: oldest.id))
                dropped.droppedBatches += 1
                dropped.droppedSightings += oldest.sightings
            }
            if dropped.droppedBatches > 0 { try? files.syncDirectory(directory) }
            state.droppedBatches += dropped.droppedBatches
            state.droppedSightings += dropped.droppedSightings
            return dropped
        }
    }

    /// The oldest batch still spooled, read from its file; a file found damaged is set aside
    /// (see ``corruptFiles``) and the next one tried.
    public func oldest() -> (id: SpoolBatchID, batch: SightingBatch)? {
        state.withLock { state in
            while let entry = state.entries.first {
                let name = entry.id.fileName
                switch Result(catching: { () throws(SpoolFiles.Failure) in try files.read(path(of: entry.id)) }) {
                case .success(let bytes):
                    switch SpoolRecord.decode(bytes) {
                    case .success(let batch): return (entry.id, batch)
                    case .failure(let corruption): state.corrupt.append(Self.setAside(name, in: directory, corruption, files: files))
                    }
                case .failure(let failure):
                    state.corrupt.append(Self.setAside(name, in: directory, .init(reason: failure.reason), files: files))
                }
                state.entries.removeFirst()
            }
            return nil
        }
    }

    /// Removes a batch once it is written to the store. Removing an id not spooled does nothing.
    public func remove(_ id: SpoolBatchID) throws(FleetStoreError) {
        try state.withLock { state throws(FleetStoreError) in
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return }
            if unlink(path(of: id)) != 0, errno != ENOENT {
                throw .spoolIOError(path: path(of: id), reason: SpoolFiles.Failure(call: "unlink", code: errno).reason)
            }
            state.entries.remove(at: index)
            try? files.syncDirectory(directory)
        }
    }

    /// How many batches are spooled.
    public var count: Int { state.withLock { $0.entries.count } }
    /// The bytes their files take.
    public var byteSize: Int { state.withLock { $0.entries.reduce(0) { $0 + $1.bytes } } }
    /// How many sightings they hold.
    public var sightingCount: Int { state.withLock { $0.entries.reduce(0) { $0 + $1.sightings } } }
    /// Sightings dropped by the byte limit since this spool was opened (for a counter metric).
    public var droppedSightings: Int { state.withLock { $0.droppedSightings } }
    /// Batches dropped by the byte limit since this spool was opened.
    public var droppedBatches: Int { state.withLock { $0.droppedBatches } }
    /// Files found damaged and renamed `.corrupt` since this spool was opened, for the gateway to log.
    public var corruptFiles: [SpoolCorruption] { state.withLock { $0.corrupt } }

    private func path(of id: SpoolBatchID) -> String { "\(directory)/\(id.fileName)" }

    /// The size and sighting count of a good file, or why it is not one.
    private static func check(path: String, files: SpoolFiles) -> Result<(Int, Int), SpoolRecord.Corruption> {
        let bytes: [UInt8]
        do { bytes = try files.read(path) } catch { return .failure(.init(reason: error.reason)) }
        return SpoolRecord.decode(bytes).map { (bytes.count, $0.count) }
    }

    /// Renames a damaged file to `NAME.corrupt` so that it is kept for a person to look at.
    private static func setAside(_ name: String, in directory: String, _ corruption: SpoolRecord.Corruption, files: SpoolFiles) -> SpoolCorruption {
        let aside = name.hasPrefix(".tmp-") ? String(name.dropFirst(5)) + ".tmp.corrupt" : name + ".corrupt"
        _ = files.rename("\(directory)/\(name)", "\(directory)/\(aside)")
        return SpoolCorruption(file: "\(directory)/\(aside)", reason: corruption.reason)
    }
}

/// A spooled batch's name: its place in write order.
public struct SpoolBatchID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The counter, from 1.
    public let value: UInt64

    /// The id with counter `value`.
    public init(value: UInt64) { self.value = value }

    /// `NNNNNNNNNNNNNNNNNNNN.batch`, 20 digits so that lexical order is numeric order.
    public var fileName: String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".batch"
    }

    init?(fileName: String) {
        guard fileName.hasSuffix(".batch") else { return nil }
        let digits = fileName.dropLast(".batch".count)
        guard digits.count == 20, let value = UInt64(digits) else { return nil }
        self.value = value
    }

    /// The file name.
    public var description: String { fileName }

    public static func < (lhs: SpoolBatchID, rhs: SpoolBatchID) -> Bool { lhs.value < rhs.value }
}

/// What ``SightingSpool/append(_:)`` did: the batch's id and what the byte limit dropped.
public struct SpoolAppend: Hashable, Sendable {
    /// The new batch's id.
    public var id: SpoolBatchID
    /// Oldest batches removed to stay within the limit.
    public var droppedBatches: Int
    /// The sightings they held, lost: the gateway logs and counts them.
    public var droppedSightings: Int
}

/// A spool file found damaged and set aside.
public struct SpoolCorruption: Hashable, Sendable {
    /// Where the file now is (`….corrupt`).
    public var file: String
    /// Why it was set aside, e.g. "the CRC-32 is 0x…, the header says 0x…".
    public var reason: String
}
