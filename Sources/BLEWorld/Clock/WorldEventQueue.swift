import BLEController
import BLEWire

/// What the world does when an event comes due.
enum WorldEventKind {
    /// Deliver an HCI packet from a device's host to its controller.
    case hostPacket(device: Int, packet: H4.Packet)
    /// Wake a controller at its deadline; stale unless `generation` is the device's current one.
    case timer(device: Int, generation: UInt64)
    /// A transmission's first bit leaves the antenna.
    case transmissionStart(slot: Int)
    /// A transmission's last bit leaves the antenna: receivers get it now.
    case transmissionEnd(slot: Int)
    /// A scripted action or fault.
    case action((World) -> Void)
}

/// An event on the virtual clock. Events due at the same time run in the order they were
/// scheduled (`sequence`), which makes ties deterministic.
struct WorldEvent {
    var time: Microseconds
    var sequence: UInt64
    var kind: WorldEventKind

    @inline(__always)
    func precedes(_ other: WorldEvent) -> Bool {
        time != other.time ? time < other.time : sequence < other.sequence
    }
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
    mutating func schedule(at time: Microseconds, _ kind: WorldEventKind) {
        storage.append(WorldEvent(time: time, sequence: nextSequence, kind: kind))
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
