import BLEWire

extension LinkLayerConnection {
    /// ``nextDeadline`` and ``nextEventStart`` of the connection in the controller's slot at
    /// `slot`, read field by field in place. The controller asks every link for both after every input; calling
    /// the getters through a pointer (or an array element) made the compiler copy the whole
    /// connection, queues included, before each call. The formulas are the getters' own
    /// (``deadline(phase:role:anchor:connectIndicationEnd:supervision:procedure:)`` and
    /// ``eventStart(phase:role:anchor:windowWidening:)``).
    static func timing(at slot: UnsafePointer<Controller.ConnectionSlot>) -> (deadline: Microseconds?, eventStart: Microseconds?) {
        let phase = slot.pointee.link.phase
        let role = slot.pointee.link.role
        let anchor = slot.pointee.link.anchor
        let intervalUnits = slot.pointee.link.intervalUnits
        let supervision = supervisionDeadline(established: slot.pointee.link.established,
                                              lastValidReception: slot.pointee.link.lastValidReception,
                                              timeoutUnits: slot.pointee.link.timeoutUnits, intervalUnits: intervalUnits)
        let deadline = deadline(phase: phase, role: role, anchor: anchor, connectIndicationEnd: slot.pointee.link.connectIndicationEnd,
                                supervision: supervision, procedure: slot.pointee.link.procedureDeadline)
        let widening = role == .central ? Microseconds(0) : windowWidening(anchor: anchor, lastSynchronisedAnchor: slot.pointee.link.lastSynchronisedAnchor,
                                                             accuracyPPM: slot.pointee.link.centralClockAccuracyPPM, intervalUnits: intervalUnits)
        return (deadline, eventStart(phase: phase, role: role, anchor: anchor, windowWidening: widening))
    }

    /// When the connection next needs a timer input, from its phase and deadlines (see
    /// ``nextDeadline``).
    static func deadline(phase: Phase, role: HCI.Role, anchor: Microseconds, connectIndicationEnd: Microseconds,
                         supervision: Microseconds, procedure: Microseconds?) -> Microseconds? {
        let eventDeadline: Microseconds
        switch phase {
        case .closed: return nil
        case .starting: eventDeadline = connectIndicationEnd
        case let .waitingForAnchor(missDeadline): eventDeadline = role == .central ? anchor : missDeadline
        case let .awaitingPeer(missDeadline): eventDeadline = missDeadline
        }
        var deadline = min(eventDeadline, supervision)
        if let procedure { deadline = min(deadline, procedure) }
        return deadline
    }

    /// When the next event needs the radio, from the phase (see ``nextEventStart``).
    static func eventStart(phase: Phase, role: HCI.Role, anchor: Microseconds, windowWidening: Microseconds) -> Microseconds? {
        switch phase {
        case .closed, .awaitingPeer: return nil
        case .starting, .waitingForAnchor: return role == .central ? anchor : anchor - windowWidening
        }
    }

    /// connSupervisionTimeout after the last valid packet, or six intervals after the first
    /// anchor before any (Core 5.4, Vol 6, Part B, §4.5.2).
    static func supervisionDeadline(established: Bool, lastValidReception: Microseconds, timeoutUnits: UInt16,
                                    intervalUnits: UInt16) -> Microseconds {
        established ? lastValidReception + Microseconds(timeoutUnits) * 10_000 : lastValidReception + 6 * Microseconds(intervalUnits) * 1250
    }

    /// The two sleep clock accuracies over the time since the last synchronisation, plus
    /// 16 µs, at most half an interval less T_IFS (§4.5.7).
    static func windowWidening(anchor: Microseconds, lastSynchronisedAnchor: Microseconds, accuracyPPM: Int64,
                               intervalUnits: UInt16) -> Microseconds {
        let elapsed = max(anchor - lastSynchronisedAnchor, 0)
        let widening = (accuracyPPM + 50) * elapsed / 1_000_000 + 16
        return min(widening, max(Microseconds(intervalUnits) * 1250 / 2 - Airtime.interFrameSpace, 16))
    }
}
