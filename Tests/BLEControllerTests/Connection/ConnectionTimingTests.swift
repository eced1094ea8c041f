import BLEController
import BLEWire
import Testing

/// The data channels an independent reading of channel selection algorithm #1 gives
/// (Core 5.4, Vol 6, Part B, §4.5.8.2): unmapped = (last + hopIncrement) mod 37; an
/// unused channel is replaced by usedChannels[unmapped mod numUsedChannels].
func expectedChannels(events: Int, hop: Int, map: UInt64) -> [UInt8] {
    let used = (0 ..< 37).filter { map >> UInt64($0) & 1 == 1 }
    var last = 0
    var result: [UInt8] = []
    for _ in 0 ..< events {
        let unmapped = (last + hop) % 37
        last = unmapped
        result.append(UInt8(used.contains(unmapped) ? unmapped : used[unmapped % used.count]))
    }
    return result
}

extension ConnectionPair {
    /// The central's packets that open a connection event (not sent T_IFS after the peripheral's).
    var centralAnchors: [RadioTransmission] {
        var anchors: [RadioTransmission] = []
        var lastPeripheralEnd: Microseconds = .min
        for packet in sent {
            if packet.from == .peripheral {
                lastPeripheralEnd = packet.transmission.end
            } else if packet.transmission.start != lastPeripheralEnd + Airtime.interFrameSpace {
                anchors.append(packet.transmission)
            }
        }
        return anchors
    }
}

@Suite("Link Layer connection: event timing and channels")
struct ConnectionTimingTests {
    @Test("The central's first packet starts the transmit window, then anchors follow every connInterval")
    func anchors() {
        var pair = ConnectionPair(interval: 6, windowOffset: 2)
        pair.run(until: 200_000)
        let anchors = pair.centralAnchors
        #expect(anchors.count >= 20)
        // transmitWindowDelay 1.25 ms + windowOffset 2 × 1.25 ms after CONNECT_IND ends.
        let first = ConnectionPair.connectIndicationEnd + 1250 + 2 * 1250
        for (index, anchor) in anchors.enumerated() {
            #expect(anchor.start == first + Microseconds(index) * 7500)
        }
    }

    @Test("Channels hop per channel selection algorithm #1 with remapping onto the channel map")
    func hopping() {
        // Channels 0–9 and 20 unused, so some unmapped channels are remapped.
        let map: UInt64 = 0x1F_FFFF_FFFF & ~0x3FF & ~(1 << 20)
        var pair = ConnectionPair(channelMap: map, hopIncrement: 9)
        pair.run(until: 400_000)
        let anchors = pair.centralAnchors
        #expect(anchors.count >= 40)
        let expected = expectedChannels(events: anchors.count, hop: 9, map: map)
        #expect(anchors.map(\.channel) == expected)
        #expect(expected.contains { $0 >= 10 } && !expected.contains { $0 < 10 || $0 == 20 })
        // The peripheral answers on the same channel.
        for packet in pair.sent where packet.from == .peripheral {
            #expect(anchors.contains { $0.channel == packet.transmission.channel })
        }
    }

    @Test("The peripheral answers T_IFS after each central packet ends, with empty PDUs and alternating sequence numbers")
    func interFrameSpace() throws {
        var pair = ConnectionPair()
        pair.run(until: 100_000)
        var previous: ConnectionPair.Sent?
        var centralSequence: [Bool] = []
        for packet in pair.sent {
            let pdu = try #require(packet.pdu)
            #expect(pdu.isEmpty)
            if packet.from == .peripheral {
                let before = try #require(previous)
                #expect(before.from == .central)
                #expect(packet.transmission.start == before.transmission.end + 150)
            } else {
                centralSequence.append(pdu.sequenceNumber)
            }
            previous = packet
        }
        #expect(centralSequence.count >= 10)
        for (index, bit) in centralSequence.enumerated() { #expect(bit == (index % 2 == 1)) }
        #expect(pair.central.lastRSSI == -42)
        #expect(pair.peripheral.lastRSSI == -42)
    }

    @Test("A peripheral with latency skips events with nothing to send, and wakes for host data")
    func peripheralLatency() {
        var pair = ConnectionPair(interval: 6, latency: 4)
        pair.run(until: 11_250 + 40 * 7500)
        let answers = pair.sent.filter { $0.from == .peripheral }.count
        // One answer in every five events (after the first), not one per event.
        #expect(answers >= 7 && answers <= 10, "\(answers) answers in 40 events")
        let before = pair.sent.count
        pair.sendFromHost(.peripheral, patternBytes(20, seed: 3))
        pair.run(until: pair.now + 2 * 7500)
        #expect(pair.receivedBytes(.central) == patternBytes(20, seed: 3))
        #expect(pair.sent.count > before)
    }

    @Test("Supervision timeout: when the peer goes silent both sides close with 0x08 Connection Timeout")
    func supervisionTimeout() throws {
        var pair = ConnectionPair(timeout: 50)
        pair.run(until: 100_000)
        pair.silenced = .peripheral
        pair.run(until: 2_000_000)
        #expect(pair.closeReason(.central) == .connectionTimeout)
        #expect(pair.closeReason(.peripheral) == .connectionTimeout)
        let lastHeard = try #require(pair.sent.last { $0.from == .peripheral && $0.delivered }).transmission.end
        let closedAt = try #require(pair.outputs(.central).first { if case .closed = $0.output { true } else { false } }).at
        #expect(closedAt >= lastHeard + 500_000 && closedAt <= lastHeard + 500_000 + 7500)
        #expect(pair.events(.central).contains(.disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .connectionTimeout))))
        #expect(pair.central.nextDeadline == nil)
    }

    @Test("A connection that never hears its peer is lost six intervals after the first anchor (0x3E)")
    func neverEstablished() throws {
        var pair = ConnectionPair()
        pair.silenced = .peripheral
        pair.run(until: 1_000_000)
        #expect(pair.closeReason(.central) == .connectionFailedToBeEstablished)
        let closedAt = try #require(pair.outputs(.central).first { if case .closed = $0.output { true } else { false } }).at
        #expect(closedAt == 11_250 + 6 * 7500)
    }
}
