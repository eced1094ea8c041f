/// Why a bond store file could not be loaded or saved. Each case's description is one
/// sentence saying what happened and what to do, for a command's error output.
public enum BondStoreFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not a valid bond store (truncated, wrong types, bad hex, …); it was
    /// renamed to `movedTo` so nothing is lost, and the caller decides whether to start empty.
    case corrupt(path: String, movedTo: String, reason: String)
    /// The file is not a valid bond store and could not be moved aside either.
    case corruptNotMoved(path: String, reason: String, moveFailure: String)
    /// The file is not a valid bond store and was left as it is (``BondStoreFile/read()``,
    /// which changes nothing on disk).
    case invalid(path: String, reason: String)
    /// The file was written by a newer SwiftBLE (its `version` is above
    /// `BondStore.formatVersion`); it is left untouched.
    case unsupportedVersion(path: String, version: Int)
    /// The file exists but cannot be read (permissions, an I/O error, a directory).
    case unreadable(path: String, reason: String)
    /// The store could not be written (permissions, a full disk, a missing directory that
    /// cannot be created); the previous file, if any, is unchanged.
    case unwritable(path: String, reason: String)
    /// The store could not be turned into JSON; not expected, reported rather than hidden.
    case encodingFailed(reason: String)

    public var description: String {
        switch self {
        case let .corrupt(path, movedTo, reason):
            "The bond store \(path) is corrupt (\(reason)); it was moved to \(movedTo) and the bonds must be paired again."
        case let .corruptNotMoved(path, reason, moveFailure):
            "The bond store \(path) is corrupt (\(reason)) and could not be moved aside (\(moveFailure)); move or remove it by hand."
        case let .invalid(path, reason):
            "The bond store \(path) is not valid (\(reason)); it was left as it is."
        case let .unsupportedVersion(path, version):
            "The bond store \(path) has format version \(version), newer than this SwiftBLE reads; use a newer SwiftBLE or another file."
        case let .unreadable(path, reason):
            "The bond store \(path) cannot be read (\(reason)); check its permissions."
        case let .unwritable(path, reason):
            "The bond store \(path) cannot be written (\(reason)); check the directory's permissions and free space."
        case let .encodingFailed(reason):
            "The bond store could not be encoded (\(reason))."
        }
    }
}
