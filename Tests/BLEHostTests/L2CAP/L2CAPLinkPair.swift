import BLEHost
import BLEWire

/// SplitMix64 for reproducible generated test data.
struct L2CAPTestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0 ..< count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

/// Why a pair could not reach the state a test needs.
enum L2CAPPairError: Error {
    case channelDidNotOpen
}

/// Which end of a ``L2CAPLinkPair``.
enum L2CAPSide {
    case central, peripheral

    var other: L2CAPSide { self == .central ? .peripheral : .central }
}

/// A central and a peripheral ``L2CAPLink`` wired back to back: every frame one sends is
/// handed to the other at once, until both are quiet; everything else is collected as
/// that side's events.
struct L2CAPLinkPair {
    var central = L2CAPLink(handle: 0x0001, role: .central)
    var peripheral = L2CAPLink(handle: 0x0002, role: .peripheral)
    var now: HostTime = 0
    var centralEvents: [L2CAPOutput] = []
    var peripheralEvents: [L2CAPOutput] = []
    /// Every frame sent, by the side that sent it, in order.
    var frames: [(L2CAPSide, [UInt8])] = []
    var recordsFrames = true

    /// Calls `body` on one side's link and delivers what it sends.
    mutating func run(_ side: L2CAPSide, _ body: (inout L2CAPLink, HostTime) -> [L2CAPOutput]) {
        let outputs = side == .central ? body(&central, now) : body(&peripheral, now)
        deliver(outputs, from: side)
    }

    /// Delivers `outputs` of `side`: frames to the other link (and their answers back),
    /// events into the side's list.
    mutating func deliver(_ outputs: [L2CAPOutput], from side: L2CAPSide) {
        var queue: [(L2CAPSide, [L2CAPOutput])] = [(side, outputs)]
        var index = 0
        while index < queue.count {
            let (sender, batch) = queue[index]
            index += 1
            for output in batch {
                if case let .sendFrame(frame) = output {
                    if recordsFrames { frames.append((sender, frame)) }
                    let answer = sender == .central
                        ? peripheral.receive(frame: frame, at: now)
                        : central.receive(frame: frame, at: now)
                    queue.append((sender.other, answer))
                } else if sender == .central {
                    centralEvents.append(output)
                } else {
                    peripheralEvents.append(output)
                }
            }
        }
    }

    /// Removes and returns one side's events.
    mutating func takeEvents(_ side: L2CAPSide) -> [L2CAPOutput] {
        if side == .central {
            defer { centralEvents = [] }
            return centralEvents
        }
        defer { peripheralEvents = [] }
        return peripheralEvents
    }

    /// Opens a channel from the central to a PSM the peripheral listens on; returns the
    /// channel as each side names it.
    mutating func openChannel(psm: UInt16 = 0x0080, centralMTU: UInt16 = 512, centralMPS: UInt16 = 64, centralCredits: UInt16 = 8,
                              peripheralMTU: UInt16 = 512, peripheralMPS: UInt16 = 64,
                              peripheralCredits: UInt16 = 8) throws -> (central: L2CAPChannelID, peripheral: L2CAPChannelID) {
        peripheral.listen(psm: psm, mtu: peripheralMTU, mps: peripheralMPS, initialCredits: peripheralCredits)
        var centralID: L2CAPChannelID?
        run(.central) { link, now in
            let (id, outputs) = link.connect(psm: psm, mtu: centralMTU, mps: centralMPS, initialCredits: centralCredits, at: now)
            centralID = id
            return outputs
        }
        let peripheralOpened = takeEvents(.peripheral).compactMap { event -> L2CAPChannelID? in
            if case let .channelOpened(id, _, _) = event { return id }
            return nil
        }
        let centralOpened = takeEvents(.central).contains { event in
            if case let .channelOpened(id, _, _) = event { return id == centralID }
            return false
        }
        guard let centralID, centralOpened, peripheralOpened.count == 1, let peripheralID = peripheralOpened.first else {
            throw L2CAPPairError.channelDidNotOpen
        }
        return (centralID, peripheralID)
    }
}

/// `bytes` as a B-frame to `cid`.
func bFrame(_ cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
    [UInt8(truncatingIfNeeded: payload.count), UInt8(truncatingIfNeeded: payload.count >> 8),
     UInt8(truncatingIfNeeded: cid), UInt8(truncatingIfNeeded: cid >> 8)] + payload
}

/// The frames among `outputs`.
func sentFrames(_ outputs: [L2CAPOutput]) -> [[UInt8]] {
    outputs.compactMap { if case let .sendFrame(frame) = $0 { return frame } else { return nil } }
}

/// The outputs that are not frames.
func events(_ outputs: [L2CAPOutput]) -> [L2CAPOutput] {
    outputs.filter { if case .sendFrame = $0 { return false } else { return true } }
}
