import BLEController
import BLEWire

/// What the world does when an event comes due.
enum WorldEventKind: UInt8 {
    /// Deliver the HCI packet held in payload slot `a` to its device's controller.
    case hostPacket
    /// Wake controller `a` at its deadline; stale unless `b` is the device's current generation.
    case timer
    /// Transmission slot `a`: the first bit leaves the antenna.
    case transmissionStart
    /// Transmission slot `a`: the last bit leaves the antenna and receivers get it.
    case transmissionEnd
    /// Run the scripted action held in payload slot `a`.
    case action
}

/// An event on the virtual clock. Events due at the same time run in the order they were
/// scheduled (`sequence`), which makes ties deterministic. Plain integers only, so the
/// heap moves events without reference counting; packets and closures wait in a side table.
struct WorldEvent {
    var time: Microseconds
    var sequence: UInt64
    var kind: WorldEventKind
    var a: Int
    var b: UInt64

    @inline(__always)
    func precedes(_ other: WorldEvent) -> Bool {
        time != other.time ? time < other.time : sequence < other.sequence
    }
}

/// What an event carries that is not a plain number.
enum WorldEventPayload {
    case hostPacket(device: Int, packet: H4.Packet)
    case action((World) -> Void)
}

/// The world's events in (time, sequence) order: a binary min-heap, and beside it a
/// first-in-first-out lane for events due at the very time of the event last taken out.
///
/// An event booked for the current instant (a packet starting as its advertiser's timer
/// fires, a reply at once) is due before everything later, so it needs no place in the heap:
/// the lane holds such events in the order they were booked, which is their sequence order,
/// and taking the earliest event compares the heap's first with the lane's. The order is the
/// same as the heap alone would give; only the sifting is saved.
struct WorldEventQueue {
    private var storage: [WorldEvent] = []
    private var nextSequence: UInt64 = 0
    /// Events due at ``laneTime``, in sequence order, from ``laneHead`` on.
    private var lane: [WorldEvent] = []
    private var laneHead = 0
    /// The time of the event last taken out (the world's now), or `.min` before any.
    private var laneTime: Microseconds = .min

    init() {
        storage.reserveCapacity(1024)
        lane.reserveCapacity(64)
    }

    var isEmpty: Bool { storage.isEmpty && laneHead == lane.count }
    var count: Int { storage.count + lane.count - laneHead }

    /// The earliest event, left in place.
    var first: WorldEvent? {
        guard laneHead < lane.count else { return storage.first }
        let queued = lane[laneHead]
        guard let heaped = storage.first else { return queued }
        return heaped.precedes(queued) ? heaped : queued
    }

    /// Adds an event due at `time`, after every event already due then.
    mutating func schedule(at time: Microseconds, _ kind: WorldEventKind, _ a: Int, _ b: UInt64 = 0) {
        let event = WorldEvent(time: time, sequence: nextSequence, kind: kind, a: a, b: b)
        nextSequence &+= 1
        if time == laneTime {
            lane.append(event)
        } else {
            push(event)
        }
    }

    /// Takes the next sequence number without booking anything: an event booked later with
    /// ``schedule(at:_:_:_:sequence:)`` and this number runs where it would have run had it
    /// been booked now (a transmission's end, booked only once someone is found to hear it).
    mutating func reserveSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Adds an event with a sequence number taken earlier by ``reserveSequence()``.
    mutating func schedule(at time: Microseconds, _ kind: WorldEventKind, _ a: Int, _ b: UInt64 = 0, sequence: UInt64) {
        push(WorldEvent(time: time, sequence: sequence, kind: kind, a: a, b: b))
    }

    /// Removes and returns the earliest event.
    mutating func removeFirst() -> WorldEvent? {
        if laneHead < lane.count, storage.first.map({ !$0.precedes(lane[laneHead]) }) ?? true {
            let event = lane[laneHead]
            laneHead += 1
            return event
        }
        guard let event = popHeap() else { return nil }
        if event.time != laneTime, laneHead == lane.count {
            // Time moves on only once the lane is empty: its events are due at the old time.
            laneTime = event.time
            lane.removeAll(keepingCapacity: true)
            laneHead = 0
        }
        return event
    }

    private mutating func push(_ event: WorldEvent) {
        storage.append(event)
        siftUp(storage.count - 1)
    }

    private mutating func popHeap() -> WorldEvent? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        storage[0] = last
        siftDown(0)
        return top
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let element = storage[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard element.precedes(storage[parent]) else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = element
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let element = storage[parent]
        let count = storage.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            var best = left
            let right = left + 1
            if right < count, storage[right].precedes(storage[left]) { best = right }
            guard storage[best].precedes(element) else { break }
            storage[parent] = storage[best]
            parent = best
        }
        storage[parent] = element
    }
}
