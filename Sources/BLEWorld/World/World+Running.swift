import BLEController
import BLEWire

/// The world's clock: host packets queued for their controllers, and events taken from the
/// queue in (time, sequence) order and carried out.
extension World {
    // MARK: Host side

    /// Queues an HCI packet from `device`'s host to its controller, delivered at ``now``
    /// after everything already due then, in the order sent. Dropped if the device is off.
    public func sendToController(_ packet: H4.Packet, device: DeviceID) {
        guard deviceStates.indices.contains(device.rawValue) else { return }
        schedulePayload(at: now, .hostPacket, .hostPacket(device: device.rawValue, packet: packet))
    }

    /// Hands an HCI packet from `device`'s host to its controller and runs everything due
    /// at ``now`` that it causes, before returning: ``sendToController(_:device:)`` then
    /// ``runNextEvent()`` while events are due, in the same order. When nothing else is due
    /// the packet skips the event queue, which an in-process link that submits every packet
    /// this way (the bench's airtime-free link) would otherwise fill and drain per packet.
    ///
    /// Called from inside ``onHostPacket`` (the world is mid-event), it queues the packet
    /// as ``sendToController(_:device:)`` does and runs nothing: the event under way
    /// finishes first.
    public func sendToControllerNow(_ packet: H4.Packet, device: DeviceID) {
        guard !dispatching else {
            sendToController(packet, device: device)
            return
        }
        if let next = nextEventTime, next <= now {
            sendToController(packet, device: device)
        } else if deviceStates.indices.contains(device.rawValue) {
            dispatching = true
            hostPacketArrived(packet, device: device.rawValue)
            dispatching = false
        }
        while let next = nextEventTime, next <= now { runNextEvent() }
    }

    // MARK: Running

    /// When the next event is due, or `nil` if nothing is scheduled.
    public var nextEventTime: Microseconds? {
        discardStaleEvents()
        return queue.first?.time
    }

    /// Processes the next event, advancing ``now`` to its time; `false` if there was none.
    @discardableResult
    public func runNextEvent() -> Bool {
        discardStaleEvents()
        guard let event = queue.removeFirst() else { return false }
        runTaken(event)
        return true
    }

    /// Processes every event due at or before `time`, then sets ``now`` to `time`.
    public func run(until time: Microseconds) {
        while true {
            discardStaleEvents()
            guard let next = queue.first, next.time <= time, let event = queue.removeFirst() else { break }
            runTaken(event)
        }
        if time > now { now = time }
    }

    /// Processes `event`, just taken from the queue, at its time.
    private func runTaken(_ event: WorldEvent) {
        if event.time > now { now = event.time }
        let outer = dispatching
        dispatching = true
        process(event)
        dispatching = outer
    }

    /// Runs `action` at `time` (or at ``now`` if that has passed), after the events
    /// already due then: scripted steps and faults.
    public func schedule(at time: Microseconds, _ action: @escaping (World) -> Void) {
        schedulePayload(at: Swift.max(time, now), .action, .action(action))
    }

    /// Counters of everything that happened on the air and over HCI so far.
    public var statistics: WorldStatistics {
        WorldStatistics(perDevice: deviceStates.map(\.statistics))
    }

    /// The world's transmissions, receptions and collisions by channel, e.g. to compare the
    /// load on the secondary channels with that on the primary ones.
    public var channelStatistics: ChannelStatistics { channelCounters }

    /// The btsnoop file (datalink 1002) of every HCI packet between `device`'s host and
    /// controller, both ways, timestamped with virtual time from 2026-01-01T00:00:00Z.
    /// Empty of records (a header only) when capture is off.
    public func snoop(of device: DeviceID) -> [UInt8] {
        state(device).capture.file
    }

    private func schedulePayload(at time: Microseconds, _ kind: WorldEventKind, _ payload: WorldEventPayload) {
        let slot: Int
        if let free = freePayloadSlots.popLast() {
            slot = free
            payloads[slot] = payload
        } else {
            slot = payloads.count
            payloads.append(payload)
        }
        queue.schedule(at: time, kind, slot)
    }

    private func takePayload(_ slot: Int) -> WorldEventPayload? {
        guard payloads.indices.contains(slot) else { return nil }
        let payload = payloads[slot]
        payloads[slot] = nil
        freePayloadSlots.append(slot)
        return payload
    }

    private func discardStaleEvents() {
        while let event = queue.first, event.kind == .timer, event.b != timerGenerations[event.a] {
            _ = queue.removeFirst()
        }
    }

    private func process(_ event: WorldEvent) {
        switch event.kind {
        case .hostPacket:
            guard case let .hostPacket(device, packet) = takePayload(event.a) else { return }
            hostPacketArrived(packet, device: device)
        case .timer:
            let state = deviceStates[event.a]
            guard event.b == timerGenerations[event.a], state.powered else { return }
            state.scheduledDeadline = nil
            deliver(.timer, to: event.a)
        case .transmissionStart:
            startTransmission(event.a, sequence: event.sequence)
        case .transmissionEnd:
            endTransmission(event.a, sequence: event.sequence)
        case .action:
            guard case let .action(action) = takePayload(event.a) else { return }
            action(self)
        }
    }

    /// A host packet reaches `device`'s controller: counted, captured, handled.
    private func hostPacketArrived(_ packet: H4.Packet, device: Int) {
        let state = deviceStates[device]
        guard state.powered else { return }
        state.statistics.hciToController += 1
        if configuration.capturesHCI { state.capture.record(packet, direction: .sent, at: now) }
        if answerLocationCommand(packet, device: device) { return }
        deliver(.hci(packet), to: device)
    }
}
