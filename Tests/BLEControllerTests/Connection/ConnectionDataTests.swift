import BLEController
import BLEWire
import Testing

@Suite("Link Layer connection: data path and acknowledgement")
struct ConnectionDataTests {
    @Test("Data goes both ways byte-exact, cut into 27-octet PDUs and reassembled into ACL packets of the buffer size")
    func bothWays() throws {
        var pair = ConnectionPair(centralBufferSize: 251, peripheralBufferSize: 100)
        pair.run(until: 30_000)
        let toPeripheral = patternBytes(700, seed: 1)
        let toCentral = patternBytes(400, seed: 2)
        pair.sendFromHost(.central, toPeripheral)
        pair.sendFromHost(.peripheral, toCentral, fragment: 200)
        pair.run(until: 300_000)
        #expect(pair.receivedBytes(.peripheral) == toPeripheral)
        #expect(pair.receivedBytes(.central) == toCentral)
        // Host packets complete once all their fragments are acknowledged: 251+251+198 and 200+200.
        #expect(pair.completed(.central) == 3)
        #expect(pair.completed(.peripheral) == 2)
        // On the air: LLID 10 for an L2CAP start, 01 for continuations, never over 27 octets.
        let central = pair.sent.filter { $0.from == .central }.compactMap(\.pdu).filter { !$0.isEmpty }
        #expect(central.allSatisfy { $0.payload.count <= 27 })
        #expect(central.filter { $0.llid == .start }.count == 1)
        #expect(central.reduce(0) { $0 + $1.payload.count } == 700)
        // To the host: PB 0b10 for the first piece of a message, 0b01 after, within the buffer size.
        let atPeripheral = pair.received(.peripheral)
        #expect(atPeripheral.first?.packetBoundary == .firstAutomaticallyFlushable)
        #expect(atPeripheral.dropFirst().allSatisfy { $0.packetBoundary == .continuing })
        #expect(atPeripheral.allSatisfy { $0.data.count <= 100 && $0.connectionHandle == 0x41 })
        #expect(pair.received(.central).filter { $0.packetBoundary == .firstAutomaticallyFlushable }.count == 1)
    }

    @Test("A dropped packet is retransmitted with the same sequence number and delivered once")
    func retransmission() throws {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        var dropped: Int?
        pair.drop = { index, sent in
            let packet = sent[index]
            guard dropped == nil, packet.from == .central, packet.pdu?.llid == .start else { return false }
            dropped = index
            return true
        }
        let message = patternBytes(27, seed: 9)
        pair.sendFromHost(.central, message)
        pair.run(until: 100_000)
        let droppedIndex = try #require(dropped)
        let original = try #require(pair.sent[droppedIndex].pdu)
        let repeats = pair.sent.filter { $0.from == .central && $0.pdu?.llid == .start }
        #expect(repeats.count == 2)
        let second = try #require(repeats.last?.pdu)
        #expect(second.sequenceNumber == original.sequenceNumber)
        #expect(second.payload == original.payload)
        #expect(pair.receivedBytes(.peripheral) == message)
        #expect(pair.completed(.central) == 1)
    }

    @Test("A lost acknowledgement makes the sender repeat, and the receiver ignores the duplicate")
    func duplicateIgnored() throws {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        var droppedAck = false
        pair.drop = { index, sent in
            // Drop the peripheral's answer to the central's data PDU.
            guard !droppedAck, sent[index].from == .peripheral, index > 0 else { return false }
            let previous = sent[index - 1]
            guard previous.pdu?.llid == .start else { return false }
            droppedAck = true
            return true
        }
        let message = patternBytes(20, seed: 4)
        pair.sendFromHost(.central, message)
        pair.run(until: 100_000)
        #expect(droppedAck)
        #expect(pair.sent.filter { $0.from == .central && $0.pdu?.llid == .start }.count == 2)
        #expect(pair.receivedBytes(.peripheral) == message)
        #expect(pair.completed(.central) == 1)
    }

    @Test("Every mutation of a valid data PDU fed to a peripheral never traps")
    func mutationsNeverTrap() throws {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.sendFromHost(.central, patternBytes(27, seed: 5))
        // Keep the peripheral's state just before the data PDU reaches it.
        var snapshot: (LinkLayerConnection, RadioReception, Microseconds)?
        pair.beforeDelivery = { role, reception, at, connection in
            guard snapshot == nil, role == .peripheral,
                  (try? LL.DataChannelPDU(decoding: reception.transmission.pdu))?.llid == .start else { return }
            snapshot = (connection, reception, at)
        }
        pair.run(until: 100_000)
        let (peripheral, reception, at) = try #require(snapshot)
        var accepted = peripheral
        let good = accepted.handle(.radio(reception), at: at)
        #expect(good.contains { if case .aclToHost = $0 { true } else { false } })
        let valid = reception.transmission.pdu
        var mutations: [[UInt8]] = (0 ..< valid.count).map { Array(valid.prefix($0)) }
        mutations.append(valid + [0])
        mutations.append(valid + [UInt8](repeating: 0xA5, count: 300))
        for index in valid.indices {
            for bit in 0 ..< 8 {
                var flipped = valid
                flipped[index] ^= 1 << UInt8(bit)
                mutations.append(flipped)
            }
        }
        var rejectedTruncations = 0
        for (number, bytes) in mutations.enumerated() {
            var copy = peripheral
            var air = reception.transmission
            air.pdu = bytes
            let outputs = copy.handle(.radio(RadioReception(transmission: air, rssi: -40)), at: at)
            if number < valid.count, outputs.isEmpty { rejectedTruncations += 1 }
            _ = copy.handle(.timer, at: at + 10_000)
        }
        // Every truncation is malformed: ignored, not acknowledged.
        #expect(rejectedTruncations == valid.count)
    }
}
