// Running code on the host's isolation, and reading its stored state in place.

extension Host {
    /// Runs `body` on the host's isolation. The host's calls made inside it (a burst of
    /// notifications, say) are calls within the actor, with no hop onto it and back off it
    /// for each; whenever one suspends (waiting for controller buffers, for a response), the
    /// host is free to handle packets meanwhile, as between any two calls.
    public func run<Result: Sendable>(_ body: @Sendable (isolated Host) async throws -> Result) async rethrows -> Result {
        try await body(self)
    }

    /// Runs `read` on `value` through an inout access, in place: a plain call on a stored
    /// struct of the actor (the server, a link in a dictionary) copies the whole value first,
    /// and the host makes such calls for every packet.
    static func inPlace<Value, Result>(_ value: inout Value, _ read: (inout Value) -> Result) -> Result {
        read(&value)
    }
}
