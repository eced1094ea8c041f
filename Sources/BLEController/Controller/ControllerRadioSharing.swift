import BLEWire

/// The periodic events of one existing link, for placing a new one between them.
struct LinkSchedule: Sendable {
    /// The anchor (or, for a peripheral, the window opening) of one of its events.
    var start: Microseconds
    /// Its connection interval.
    var interval: Microseconds
}

extension Controller {
    /// Shares the one radio between the connections (Core 5.4, Vol 6, Part B, §4.5.1 requires
    /// a controller to keep several links in both roles; how it schedules them is its own):
    /// a link whose event is due gets the radio unless another link's event holds it. It
    /// must leave the radio by the next link's start; when that start is too close for even
    /// one exchange, the link that has skipped more events in a row goes and the other skips
    /// this event (and wins the next such contest), so no link starves into its supervision
    /// timeout.
    mutating func shareRadioBetweenConnections(into outputs: inout [ControllerOutput]) {
        releaseFinishedOwner()
        // No link, nothing to share: the search below would cost a copy of the controller.
        guard !connections.isEmpty else { return }
        var rounds = 0
        while rounds < 4 * connections.count + 4, let index = mostStarvedDueConnection() {
            rounds += 1
            let slot = connections[index]
            let handle = slot.link.handleValue
            let horizon = now + slot.link.minimumEventDuration
            let others = connections.filter { $0.link.handleValue != handle }
            let yields = others.contains { other in
                guard let start = other.link.nextEventStart else { return false }
                return start < horizon && other.skippedEvents > slot.skippedEvents
            }
            if radioOwner != nil || yields {
                connections[index].skippedEvents += 1
                counters.skippedConnectionEvents += 1
                feed(connectionAt: index, .skipEvent, into: &outputs)
            } else {
                connections[index].skippedEvents = 0
                counters.connectionEvents += 1
                radioOwner = handle
                // Links starting too soon to leave room for one exchange will skip instead.
                let freeUntil = others.compactMap(\.link.nextEventStart).filter { $0 >= horizon }.min()
                feed(connectionAt: index, .beginEvent(radioFreeUntil: freeUntil), into: &outputs)
            }
            releaseFinishedOwner()
        }
    }

    /// Among connections other than the radio's holder whose event is due, the one that has
    /// skipped most, then the earliest, then the lowest handle.
    private func mostStarvedDueConnection() -> Int? {
        var best: (index: Int, skipped: Int, start: Microseconds)?
        readingSlots { slots in
            for index in slots.indices where slots.inPlace(index).pointee.link.handleValue != radioOwner {
                let slot = slots.inPlace(index)
                guard let start = LinkLayerConnection.timing(at: slot).eventStart, start <= now else { continue }
                let skipped = slot.pointee.skippedEvents
                if let current = best, current.skipped > skipped || (current.skipped == skipped && current.start <= start) { continue }
                best = (index, skipped, start)
            }
        }
        return best?.index
    }

    /// Frees the radio once the link holding it has closed its event (its next one lies ahead).
    mutating func releaseFinishedOwner() {
        guard let owner = radioOwner else { return }
        guard let index = slotIndex(handle: owner) else {
            radioOwner = nil
            return
        }
        let start = readingSlots { LinkLayerConnection.timing(at: $0.inPlace(index)).eventStart }
        if let start, start > now { radioOwner = nil }
    }

    /// The event timing of every open link, for an initiator to place a new link between.
    var linkSchedules: [LinkSchedule] {
        connections.map { LinkSchedule(start: $0.link.anchor, interval: $0.link.interval) }
    }
}
