import BLEWire

// The controller's clock: when it next needs the world's time, and what it does then.

extension Controller {
    /// The earliest time any activity, connection or delayed event needs the controller.
    public var nextDeadline: Microseconds? {
        // Asked after every input: a running minimum, without building arrays of slots, and
        // without a nested function capturing the minimum (a captured variable captured again
        // by the slots' closure was boxed and every use checked for exclusivity at run time).
        var earliest = directCompletionsDue
        for item in pendingEvents { earliest = Self.earlier(earliest, item.due) }
        let radioOwner = radioOwner
        // The slots through the array itself, and only when there are links: a method of the
        // controller (readingSlots) is handed a copy of the whole controller.
        if !connections.isEmpty {
            earliest = Self.earlier(earliest, connections.withUnsafeBufferPointer { slots -> Microseconds? in
                var soonest: Microseconds?
                for index in slots.indices {
                    let slot = slots.inPlace(index)
                    let timing = LinkLayerConnection.timing(at: slot)
                    soonest = Self.earlier(soonest, timing.deadline)
                    // Every link's next event start, to grant or skip it then (the radio's holder is in its event).
                    if slot.pointee.link.handleValue != radioOwner { soonest = Self.earlier(soonest, timing.eventStart) }
                }
                return soonest
            })
        }
        // Optional chaining, not `if let`: a binding copies the whole role's state.
        earliest = Self.earlier(earliest, advertiser?.nextDeadline)
        earliest = Self.earlier(earliest, initiator?.nextDeadline(after: now))
        earliest = Self.earlier(earliest, scanner?.nextDeadline(after: now))
        earliest = Self.earlier(earliest, extendedAdvertisingDeadline)
        return Self.earlier(earliest, privateAddressDeadline)
    }

    /// The earlier of two optional deadlines; `nil` means none.
    @inline(__always)
    static func earlier(_ first: Microseconds?, _ second: Microseconds?) -> Microseconds? {
        guard let first else { return second }
        guard let second else { return first }
        return Swift.min(first, second)
    }

    mutating func handleTimer(into outputs: inout [ControllerOutput]) {
        privateAddressTimerFired()
        if let due = directCompletionsDue, due <= now {
            directCompletionsDue = nil
            reportDirectCompletions(into: &outputs)
        }
        // A local `now`: closures that read `self.now` are handed a copy of the whole controller.
        let now = now
        if !pendingEvents.isEmpty {
            let due = pendingEvents.filter { $0.due <= now }
            pendingEvents.removeAll { $0.due <= now }
            for item in due { emit(item.event, into: &outputs) }
        }
        var index = 0
        while index < connections.count {
            let handle = connections[index].link.handleValue
            if let deadline = connections[index].link.nextDeadline, deadline <= now {
                feed(connectionAt: index, .timer, into: &outputs)
            }
            if index < connections.count, connections[index].link.handleValue == handle { index += 1 }
        }
        // The roles are changed in place (optional chaining), not copied out and stored
        // back: while a copy and the stored value share their buffers (a scanner's reported
        // addresses, an advertiser's PDUs), the first change to either copies them whole.
        if let deadline = advertiser?.nextDeadline, deadline <= now {
            // An extended set's event under way keeps a legacy-PDU set's event for later.
            let setSending = advertisingSets.contains { $0.advertiser?.claim(at: now) ?? .none != .none }
            let radioFreeUntil = setSending ? now : higherPriorityStart(than: .advertising)
            if let effects = advertiser?.timer(at: now, radioFreeUntil: radioFreeUntil, random: &random) {
                apply(effects, into: &outputs)
            } else if let active = advertiser {
                legacyAdvertisingSet?.eventsAtEnd = active.eventCount
                advertiser = nil
                advertisingTimedOut(active, into: &outputs)
            }
        }
        extendedAdvertisingTimer(into: &outputs)
        if let deadline = initiator?.nextDeadline(after: now), deadline <= now {
            initiator?.timer(at: now)
        }
        if let deadline = scanner?.nextDeadline(after: now), deadline <= now {
            scanner?.timer(at: now)
        }
    }

    /// High duty cycle directed advertising ended without a connection (§7.8.9): LE
    /// Connection Complete with Advertising Timeout.
    private mutating func advertisingTimedOut(_ advertiser: LegacyAdvertiser, into outputs: inout [ControllerOutput]) {
        let peer = advertiser.parameters.peerAddress
        emit(connectionCompleteEvent(
            status: .advertisingTimeout, handle: 0, role: .peripheral, peer: peer,
            interval: 0, latency: 0, timeout: 0, clockAccuracy: .ppm500), into: &outputs)
        // A legacy-PDU set's high duty cycle directed advertising ends its set too.
        stopLegacySet(status: .advertisingTimeout, into: &outputs)
    }
}
