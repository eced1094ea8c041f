/// Why a fleet store, its database URL or its spool failed, each case told in one sentence
/// that names the value at fault and what to do (docs/store.md, "Error messages").
///
/// Every store operation throws this type only (typed throws), so that a gateway can tell
/// "the database is away, spool and retry" (``isTransient``) from "fix the configuration".
public enum FleetStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A `--database` URL that is not one of the accepted forms.
    case invalidURL(String, reason: String)
    /// The SQLite file could not be opened or created (a missing directory, no permission).
    case cannotOpenFile(path: String, reason: String)
    /// The PostgreSQL server could not be reached, or the connection was lost.
    case cannotConnect(endpoint: String, reason: String)
    /// PostgreSQL refused the login (SQLSTATE 28P01 invalid_password or 28000
    /// invalid_authorization_specification).
    case authenticationRefused(user: String, endpoint: String)
    /// The PostgreSQL server has no database of that name (SQLSTATE 3D000).
    case databaseNotFound(name: String, endpoint: String)
    /// The database holds a schema newer than this code knows: it was written by a newer
    /// SwiftBLE, and writing to it with this one could lose what the newer one stores.
    case schemaFromTheFuture(found: Int, supported: Int)
    /// A statement failed; `sqlState` is PostgreSQL's SQLSTATE where there is one.
    case queryFailed(sqlState: String?, message: String)
    /// The disk holding the SQLite database is full (SQLITE_FULL).
    case diskFull(path: String)
    /// The SQLite database could not be read or written (SQLITE_IOERR, SQLITE_CORRUPT).
    case ioError(path: String, reason: String)
    /// A row in the database does not decode to a ``BLEFleet/Sighting`` (a column of the wrong type).
    case unreadableRow(reason: String)
    /// The store was closed with ``FleetStore/close()``.
    case closed
    /// The disk holding the spool is full (ENOSPC): the batch was not spooled, nothing half-written remains.
    case spoolDiskFull(directory: String)
    /// A spool file or its directory could not be read or written.
    case spoolIOError(path: String, reason: String)
    /// One batch alone is larger than the spool's byte limit, so no amount of dropping makes room.
    case spoolBatchTooLarge(bytes: Int, limit: Int)

    /// The forms `FleetStores.open` accepts, quoted in every URL error.
    public static let acceptedURLForms =
        "sqlite:PATH, sqlite::memory:, sqlite:///ABSOLUTE/PATH, or postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=disable|prefer|require (postgresql:// too; omitted parts come from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE)"

    /// Whether retrying later may succeed without changing anything: the server is away or the
    /// connection dropped. A gateway spools its batch and retries on these.
    public var isTransient: Bool {
        switch self {
        case .cannotConnect: true
        case .queryFailed(let state, _):
            // Class 08 (connection exception), 40 (serialization failure, deadlock), 53
            // (insufficient resources), 57 (operator intervention: the server shutting down).
            state.map { ["08", "40", "53", "57"].contains(String($0.prefix(2))) } ?? false
        default: false
        }
    }

    /// The error in one sentence, with what to do.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "'\(url)' is not a database URL this store accepts: \(reason); use \(Self.acceptedURLForms)."
        case .cannotOpenFile(let path, let reason):
            "cannot open the SQLite database '\(path)': \(reason); create the directory or choose another path with --database sqlite:PATH."
        case .cannotConnect(let endpoint, let reason):
            "cannot connect to PostgreSQL at \(endpoint): \(reason); check that the server is running and listens there (pg_isready -h HOST -p PORT)."
        case .authenticationRefused(let user, let endpoint):
            "PostgreSQL refused the login for user \(user) at \(endpoint); check the password in the URL or PGPASSWORD, and pg_hba.conf."
        case .databaseNotFound(let name, let endpoint):
            "PostgreSQL at \(endpoint) has no database \(name); create it with createdb \(name), or name another in the URL."
        case .schemaFromTheFuture(let found, let supported):
            "the database was written by a newer SwiftBLE (schema \(found); this one knows \(supported)): upgrade ble, or point --database at another database."
        case .queryFailed(let state, let message):
            if let state {
                "a database statement failed (SQLSTATE \(state)): \(message)."
            } else {
                "a database statement failed: \(message)."
            }
        case .diskFull(let path):
            "the disk holding the SQLite database '\(path)' is full; free space or apply retention (dropSightings) and write again."
        case .ioError(let path, let reason):
            "the SQLite database '\(path)' could not be read or written: \(reason); check the disk and the file."
        case .unreadableRow(let reason):
            "a row in the database is not a sighting this code can read: \(reason); was it written by another program?"
        case .closed:
            "the fleet store was closed; open it again with FleetStores.open."
        case .spoolDiskFull(let directory):
            "the disk holding the spool '\(directory)' is full, so the batch was not spooled; free space or lower --spool-limit."
        case .spoolIOError(let path, let reason):
            "the spool file '\(path)' could not be read or written: \(reason); check the directory's permissions and disk."
        case .spoolBatchTooLarge(let bytes, let limit):
            "one batch takes \(bytes) bytes, more than the spool's whole limit of \(limit) bytes; raise --spool-limit or write smaller batches."
        }
    }
}
