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

extension Host {
    /// Runs `body` on the ATT link of connection `handle` in its dictionary's storage;
    /// `nil` when there is none. `attLinks[handle]?.mutate()` goes through the dictionary's
    /// optional subscript, whose write-back copies the whole link (bearer, client, waiters)
    /// and destroys the original on every call; the values view's subscript does not. The
    /// index holds no reference to the storage, so the access stays unique.
    func withATTLink<Result>(_ handle: UInt16, _ body: (inout HostATTLink) throws -> Result) rethrows -> Result? {
        guard let index = attLinks.index(forKey: handle) else { return nil }
        return try body(&attLinks.values[index])
    }

    /// Runs `body` on the L2CAP link of connection `handle` in place (see
    /// ``withATTLink(_:_:)``); `nil` when there is none.
    func withL2CAPLink<Result>(_ handle: UInt16, _ body: (inout L2CAPLink) throws -> Result) rethrows -> Result? {
        guard let index = links.index(forKey: handle) else { return nil }
        return try body(&links.values[index])
    }
}
