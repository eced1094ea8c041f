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

/// A binary min-heap of events ordered by (time, sequence).
struct WorldEventQueue {
    private var storage: [WorldEvent] = []
    private var nextSequence: UInt64 = 0

    init() { storage.reserveCapacity(1024) }

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }
    var first: WorldEvent? { storage.first }

    /// Adds an event due at `time`, after every event already due then.
    mutating func schedule(at time: Microseconds, _ kind: WorldEventKind, _ a: Int, _ b: UInt64 = 0) {
        storage.append(WorldEvent(time: time, sequence: nextSequence, kind: kind, a: a, b: b))
        nextSequence &+= 1
        siftUp(storage.count - 1)
    }

    /// Removes and returns the earliest event.
    mutating func removeFirst() -> WorldEvent? {
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
