import BLEWire

/// Sharing one radio with the controller's other links (Core 5.4, Vol 6, Part B, §4.5.1 and
/// §4.5.6): the controller asks each connection when its next event needs the radio, how
/// short that event can be, and then either begins it with a deadline set by the next link,
/// or skips it. A skipped event is an event in which nothing was received: the peer retries
/// at the next one, well within the supervision timeout.
extension LinkLayerConnection {
    /// When the next connection event needs the radio: a central's anchor, or when a
    /// peripheral opens its receive window (the anchor less the window widening). `nil`
    /// while an exchange is under way (the event has begun) and once closed.
    public var nextEventStart: Microseconds? {
        Self.eventStart(phase: phase, role: role, anchor: anchor, windowWidening: role == .central ? Microseconds(0) : windowWidening)
    }

    /// The airtime of the longest packet the peer may send now: its effective maximum
    /// payload (§4.5.10) with a MIC, on the receive PHY.
    var longestPeerPacket: Microseconds {
        Self.airtime(payload: Int(min(localMaxRxOctets, remoteMaxTxOctets)) + 4, phy: rxPHY)
    }

    /// How long the radio must be free from ``nextEventStart`` for one exchange: a central's
    /// empty PDU and the peer's longest answer; for a peripheral, the whole receive window,
    /// the central's longest packet and an empty answer.
    public var minimumEventDuration: Microseconds {
        let ifs = Airtime.interFrameSpace
        let empty = Self.airtime(payload: 0, phy: txPHY)
        if role == .central { return empty + ifs + Self.receiveWindowMargin + longestPeerPacket }
        return 2 * windowWidening + transmitWindowExtra + longestPeerPacket + ifs + empty
    }

    /// The controller gave the radio for the next event, to be free again at `radioFreeUntil`.
    /// A central sends its first packet if it is at its anchor (or gives the event up if not
    /// even an empty PDU and its answer fit); a peripheral listens as it planned, and stops
    /// early enough to leave the radio in time.
    mutating func beginEvent(radioFreeUntil: Microseconds?, at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        if case .starting = phase { scheduleWaiting(into: &outputs) }
        guard case .waitingForAnchor = phase else { return }
        self.radioFreeUntil = radioFreeUntil
        if role == .central {
            guard now >= anchor else { return }
            startCentralEvent(at: now, into: &outputs)
            return
        }
        guard radioFreeUntil != nil else { return }
        let closes = anchor + transmitWindowExtra + windowWidening
        phase = .waitingForAnchor(missDeadline: closes + min(longestReception, longestPeerPacket) + 1)
    }

    /// The controller gave the radio of the next event to another link: this side sends and
    /// listens nothing in it and waits for the following one.
    mutating func skipEvent(at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        if case .starting = phase { scheduleWaiting(into: &outputs) }
        guard case .waitingForAnchor = phase else { return }
        closeEvent(at: now, into: &outputs)
    }

    /// A central at its anchor: the first packet of the event, unless the central was woken
    /// late or the packet would not leave the radio free in time; then the event is skipped.
    mutating func startCentralEvent(at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        if now > anchor || !transmit(at: anchor, eventStart: true, into: &outputs) {
            closeEvent(at: now, into: &outputs)
        }
    }
}
