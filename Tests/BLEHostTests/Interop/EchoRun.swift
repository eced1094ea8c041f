import BLEHost
import BLEWire

/// The SDUs of an echo run: deterministic from a seed, 1 to 2000 octets, the first two
/// of the extreme sizes; any SDU can be made again from its index alone.
struct EchoSDUs {
    let seed: UInt64

    /// SDU number `index`.
    func sdu(_ index: Int) -> [UInt8] {
        var state = seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let size = index == 0 ? 1 : index == 1 ? 2000 : Int(Self.next(&state) % 2000) + 1
        var bytes = [UInt8]()
        bytes.reserveCapacity(size + 7)
        while bytes.count < size {
            let word = Self.next(&state)
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes.removeLast(bytes.count - size)
        return bytes
    }

    /// SplitMix64 (Steele, Lea and Flood, 2014).
    private static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// What one echo run through a Bumble echo server gave back.
struct EchoOutcome {
    var sdus = 0
    var octets = 0
    var sentOctets = 0
    var mismatches = 0
    var firstMismatch: Int?
    /// The run stopped moving for ``patience`` and the host was closed.
    var stalled = false
}

/// Sends `count` SDUs of ``EchoSDUs`` on `channel` while reading their echoes, and checks
/// every echo byte for byte and in order. A ``StallWatchdog`` ends a run that stops moving.
func echoThroughPeer(_ host: BLEHost.Host, on channel: L2CAPChannelID, count: Int, seed: UInt64) async throws -> EchoOutcome {
    let sdus = EchoSDUs(seed: seed)
    let watchdog = StallWatchdog(closing: host)
    defer { watchdog.stop() }
    let sender = Task {
        var octets = 0
        for index in 0 ..< count {
            let sdu = sdus.sdu(index)
            try await host.send(sdu, on: channel)
            octets += sdu.count
            watchdog.tick()
        }
        return octets
    }
    var outcome = EchoOutcome()
    for index in 0 ..< count {
        guard let back = try await host.receive(on: channel) else { break }
        watchdog.tick()
        outcome.sdus += 1
        outcome.octets += back.count
        if back != sdus.sdu(index) {
            outcome.mismatches += 1
            if outcome.firstMismatch == nil { outcome.firstMismatch = index }
        }
    }
    outcome.stalled = watchdog.stalled
    outcome.sentOctets = (try? await sender.value) ?? -1
    return outcome
}
