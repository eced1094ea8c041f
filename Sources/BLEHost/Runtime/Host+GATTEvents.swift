// Where the host's GATT events go: the `gattEvents` stream, or a handler called in place.

extension Host {
    /// Hands every GATT event (``HostGATTEvent``) to `handler` from now on, on the host's
    /// isolation and in order, as the host meets it, instead of putting it in
    /// ``gattEvents``; `nil` goes back to the stream.
    ///
    /// This is the delegate style of Core Bluetooth's `peripheral(_:didUpdateValueFor:error:)`:
    /// a stream's consumer is a task of its own, woken and switched to for each event,
    /// which costs a receiving host about a third of its time when notifications stream at
    /// full speed (docs/gatt.md, "Threads"). The handler runs inside the host's turn, so it
    /// must be quick and must not block; it may start tasks. Events already in the stream
    /// stay there for its consumer.
    public func handleGATTEvents(with handler: (@Sendable (HostGATTEvent) -> Void)?) {
        gattEventHandler = handler
    }

    /// Reports a GATT event to the handler, if one is set, else to ``gattEvents``. When the
    /// stream is full (``gattEventBacklog`` unread) the event is counted and logged, and a
    /// request the app was to answer is answered Insufficient Resources (Core 5.4 Vol 3
    /// Part F §3.4.1.1, 0x11) so that the peer is not left waiting out its 30 s timeout.
    func emitGATT(_ event: HostGATTEvent) {
        if let gattEventHandler {
            gattEventHandler(event)
            return
        }
        guard case .dropped = gattOutput.yield(event) else { return }
        droppedGATTEvents += 1
        if droppedGATTEvents == 1 || droppedGATTEvents.isMultiple(of: 1000) {
            HostLog.gatt.warning("GATT events unread: \(Self.gattEventBacklog) held, \(droppedGATTEvents) refused so far")
        }
        switch event {
        case let .readRequest(request), let .writeRequest(request):
            respond(to: request.id, with: .failure(.insufficientResources))
        default:
            break
        }
    }
}
