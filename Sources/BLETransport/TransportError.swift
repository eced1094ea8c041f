/// Why a transport could not be opened or stopped working, as one sentence a user can act on.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence, e.g. "hci:0 needs CAP_NET_ADMIN: run with sudo or setcap".
    public var message: String
    /// The errno behind it, if the operating system gave one.
    public var errno: Int32?

    /// An error with `message` and optionally the errno behind it.
    public init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}
