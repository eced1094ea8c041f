@testable import BLEWorld
import Testing

@Suite("The world's event queue")
struct WorldEventQueueTests {
    /// Random bookings and removals, with events due at the time last taken out (the lane),
    /// events booked with reserved sequence numbers, and many ties: every event comes out in
    /// (time, sequence) order, as a list sorted by those keys gives them.
    @Test("Events come out in time order, ties in the order they were booked, through heap and lane")
    func order() {
        var random = WorldRandom(seed: 5)
        var queue = WorldEventQueue()
        var pending: [(time: Int64, sequence: UInt64, a: Int)] = []
        var now: Int64 = 0
        var reserved: [(sequence: UInt64, time: Int64)] = []
        var taken = 0
        for step in 0 ..< 40_000 {
            let choice = random.next() % 10
            if choice < 3 {
                // Often at the time last taken out, else a little later.
                let time = random.next() % 3 == 0 ? now : now + Int64(random.next() % 50)
                let sequence = queue.reserveSequence()
                if random.next() % 4 == 0 {
                    reserved.append((sequence, time))
                } else {
                    // A reserved number is consumed; the next booking takes the one after it.
                    queue.schedule(at: time, .timer, step, sequence: sequence)
                    pending.append((time, sequence, step))
                }
            } else if choice < 4, let (sequence, time) = reserved.popLast() {
                queue.schedule(at: Swift.max(time, now), .transmissionEnd, step, sequence: sequence)
                pending.append((Swift.max(time, now), sequence, step))
            } else if choice < 5 {
                let time = random.next() % 2 == 0 ? now : now + Int64(random.next() % 50)
                // schedule(at:) numbers the event itself: the next sequence number.
                var probe = queue
                let sequence = probe.reserveSequence()
                queue.schedule(at: time, .timer, step)
                pending.append((time, sequence, step))
            } else if let event = queue.removeFirst() {
                let earliest = pending.indices.min { (pending[$0].time, pending[$0].sequence) < (pending[$1].time, pending[$1].sequence) }!
                #expect(event.time == pending[earliest].time && event.sequence == pending[earliest].sequence && event.a == pending[earliest].a)
                pending.remove(at: earliest)
                now = event.time
                taken += 1
            }
        }
        while let event = queue.removeFirst() {
            let earliest = pending.indices.min { (pending[$0].time, pending[$0].sequence) < (pending[$1].time, pending[$1].sequence) }!
            #expect(event.time == pending[earliest].time && event.sequence == pending[earliest].sequence)
            pending.remove(at: earliest)
            taken += 1
        }
        #expect(pending.isEmpty)
        #expect(taken > 15_000)
    }
}
