import BLEHost
import Foundation
import Glibc

/// The bond store of one adapter in one JSON file (DESIGN.md, "Persistence"; the format is
/// in docs/bonds.md). Saving is atomic: a crash at any point leaves the old file or the new
/// one. Loading never loses data silently: a missing file is an empty store, a corrupt one
/// is moved aside to `NAME.corrupt-<UTC time>` and reported, and the caller decides
/// whether to start empty.
///
/// One process owns a store file at a time; this type does not lock it.
public struct BondStoreFile: Hashable, Sendable {
    /// The file's path.
    public let path: String

    /// The store at `path` (not read until ``load(now:)``).
    public init(path: String) { self.path = path }

    /// The store in the file; an empty store when the file does not exist.
    ///
    /// - Parameter now: the time used to name a corrupt file moved aside.
    /// - Throws: ``BondStoreFileError/corrupt(path:movedTo:reason:)`` (the file was moved
    ///   aside), ``BondStoreFileError/unsupportedVersion(path:version:)`` (left in place),
    ///   ``BondStoreFileError/unreadable(path:reason:)``, or
    ///   ``BondStoreFileError/corruptNotMoved(path:reason:moveFailure:)``.
    public func load(now: Date = Date()) throws(BondStoreFileError) -> BondStore {
        let contents: [UInt8]?
        do {
            contents = try AtomicFile.read(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        guard let contents else { return BondStore() }
        let data = Data(contents)
        if let header = try? JSONDecoder().decode(VersionHeader.self, from: data), header.version > BondStore.formatVersion {
            throw .unsupportedVersion(path: path, version: header.version)
        }
        do {
            return try JSONDecoder().decode(BondStore.self, from: data)
        } catch {
            let reason = Self.describe(error)
            let aside = corruptPath(now: now)
            do {
                try AtomicFile.move(path, to: aside)
            } catch {
                throw .corruptNotMoved(path: path, reason: reason, moveFailure: error.reason)
            }
            throw .corrupt(path: path, movedTo: aside, reason: reason)
        }
    }

    /// The store in the file as it is, for a caller that only looks (a listing): `nil` when
    /// the file does not exist, and nothing on disk changes, whatever the file holds.
    ///
    /// - Throws: ``BondStoreFileError/invalid(path:reason:)`` (the file is left in place),
    ///   ``BondStoreFileError/unsupportedVersion(path:version:)`` or
    ///   ``BondStoreFileError/unreadable(path:reason:)``.
    public func read() throws(BondStoreFileError) -> BondStore? {
        let contents: [UInt8]?
        do {
            contents = try AtomicFile.read(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        guard let contents else { return nil }
        let data = Data(contents)
        if let header = try? JSONDecoder().decode(VersionHeader.self, from: data), header.version > BondStore.formatVersion {
            throw .unsupportedVersion(path: path, version: header.version)
        }
        do {
            return try JSONDecoder().decode(BondStore.self, from: data)
        } catch {
            throw .invalid(path: path, reason: Self.describe(error))
        }
    }

    /// Writes `store` atomically, creating the file's directory (mode 0700) when missing;
    /// the file gets mode 0600, as it holds keys. Temporary files left by a writer that
    /// was killed are removed.
    public func save(_ store: BondStore) throws(BondStoreFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(store)
        } catch {
            throw .encodingFailed(reason: Self.describe(error))
        }
        let directory = AtomicFile.directory(of: path)
        do {
            try AtomicFile.makeDirectories(directory, mode: 0o700)
            removeStaleTemporaryFiles(in: directory)
            try AtomicFile.replace(path: path, with: Array(data) + [0x0A], temporaryPath: temporaryPath(pid: getpid()),
                                   mode: 0o600)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }

    /// The temporary file a writer with process id `pid` uses: `NAME.tmp-PID` beside the store.
    func temporaryPath(pid: pid_t) -> String { path + ".tmp-\(pid)" }

    /// Where a corrupt file goes: `NAME.corrupt-YYYYMMDDTHHMMSSZ`, with `-2`, `-3`, … when taken.
    func corruptPath(now: Date) -> String {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                           Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let base = path + ".corrupt-" + stamp
        var candidate = base
        var suffix = 2
        while access(candidate, F_OK) == 0 {
            candidate = base + "-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Deletes `NAME.tmp-PID` files whose process no longer exists (a writer killed between
    /// creating its temporary file and renaming it).
    private func removeStaleTemporaryFiles(in directory: String) {
        let prefix = AtomicFile.fileName(of: path) + ".tmp-"
        for name in AtomicFile.names(in: directory) where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// One phrase for a decoding error: where in the JSON and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func at(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "at the top level" : "at \(text.hasPrefix(".") ? String(text.dropFirst()) : text)"
        }
        switch decoding {
        case let .dataCorrupted(context):
            // The store's own checks always name a field, so an error at the top level is the parser's.
            return context.codingPath.isEmpty ? "not valid JSON" : "\(at(context.codingPath)): \(context.debugDescription)"
        case let .keyNotFound(key, context):
            return "\(at(context.codingPath)): missing \"\(key.stringValue)\""
        case let .typeMismatch(type, context):
            return "\(at(context.codingPath)): expected \(type)"
        case let .valueNotFound(type, context):
            return "\(at(context.codingPath)): expected \(type), found null"
        @unknown default:
            return "\(decoding)"
        }
    }

    /// The one field read before the rest, to tell a newer format from a corrupt file.
    private struct VersionHeader: Decodable { var version: Int }
}
