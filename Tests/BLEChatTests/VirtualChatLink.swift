import BLEChat
import Foundation

/// Two chat sessions joined by a simulated link on a virtual clock: frames go one at a
/// time each way (a write or a notification each), and a seeded fault model may lose,
/// repeat or reorder them in flight, or drop the whole link.
struct VirtualChatLink {
    var a: ChatSession
    var b: ChatSession
    var now: Duration = .zero
    var received: (a: [Data], b: [Data]) = ([], [])
    /// Frames in flight towards a (index 0) and towards b (index 1).
    var inFlight: [[Data]] = [[], []]
    var random: SeededRandom
    var lossRate = 0.0
    var duplicateRate = 0.0
    var reorderRate = 0.0
    var maximumFrameLength: Int

    init(seed: UInt64, maximumFrameLength: Int, configuration: ChatSession.Configuration = .init()) {
        a = ChatSession(configuration: configuration)
        b = ChatSession(configuration: configuration)
        random = SeededRandom(seed: seed)
        self.maximumFrameLength = maximumFrameLength
    }

    mutating func connect() {
        a.linkEstablished(now: now)
        b.linkEstablished(now: now)
    }

    /// The link drops: whatever was in flight is lost.
    mutating func disconnect() {
        a.linkLost()
        b.linkLost()
        inFlight = [[], []]
    }

    /// One step of `step` virtual time: each side sends at most one frame and the frames
    /// in flight arrive (subject to the faults).
    mutating func step(_ step: Duration = .milliseconds(1)) {
        now += step
        if let frame = a.nextFrame(maximumLength: maximumFrameLength, now: now) { put(frame, towards: 1) }
        if let frame = b.nextFrame(maximumLength: maximumFrameLength, now: now) { put(frame, towards: 0) }
        for side in 0 ..< 2 {
            let frames = inFlight[side]
            inFlight[side] = []
            for frame in frames {
                let events = side == 0 ? a.receive(frame, now: now) : b.receive(frame, now: now)
                for case let .message(message) in events {
                    if side == 0 { received.a.append(message) } else { received.b.append(message) }
                }
            }
        }
    }

    private mutating func put(_ frame: Data, towards side: Int) {
        if random.unit() < lossRate { return }
        let copies = random.unit() < duplicateRate ? 2 : 1
        for _ in 0 ..< copies {
            if !inFlight[side].isEmpty, random.unit() < reorderRate {
                inFlight[side].insert(frame, at: 0)
            } else {
                inFlight[side].append(frame)
            }
        }
    }
}

/// SplitMix64: a small seeded generator, so a failing run replays.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func bytes(_ count: Int) -> Data { Data((0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &self) }) }
}
