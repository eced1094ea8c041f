import BLEHost
import BLEWire
import Testing

/// Queueing, server-initiated values, Service Changed, timeouts and robustness of the GATT
/// client (Core 5.4, Vol 3, Part G, §4.10, §4.11, §7.1; Part F, §3.3.3).
@Suite("GATT client: queueing, events, timeouts")
struct GATTClientEventTests {
    @Test("Procedures run one after another in the order they were started")
    func proceduresQueue() {
        var harness = ClientHarness()
        let first = harness.start(.read(0x0003))
        let second = harness.start(.read(0x0005))
        #expect(harness.takeSent() == [pdu("0A 03 00")])
        #expect(harness.client.queuedProcedureCount == 1)
        harness.peer(pdu("0B 01"))
        #expect(harness.takeSent() == [pdu("0A 05 00")])
        harness.peer(pdu("0B 02"))
        #expect(harness.result(first) == .success(.value([1])) && harness.result(second) == .success(.value([2])))
        #expect(!harness.client.isBusy)
    }

    @Test("Notifications become events; indications become events and are confirmed exactly once")
    func notificationsAndIndications() {
        var harness = ClientHarness()
        harness.peer(pdu("1B 21 00 0A 0B"))
        harness.peer(pdu("23 01 00 01 00 AA 02 00 02 00 BB CC"))
        harness.peer(pdu("1D 22 00 05"))
        #expect(harness.events == [
            .notification(handle: 0x21, value: [0x0A, 0x0B]),
            .notification(handle: 1, value: [0xAA]), .notification(handle: 2, value: [0xBB, 0xCC]),
            .indication(handle: 0x22, value: [0x05]),
        ])
        #expect(harness.takeSent() == [[0x1E]])
        #expect(harness.bearer.confirmIndication().isEmpty)
    }

    @Test("Without automatic confirmation the host confirms an indication when it has taken it")
    func manualConfirmation() {
        var harness = ClientHarness(client: GATTClientConfiguration(confirmsIndicationsAutomatically: false))
        harness.peer(pdu("1D 22 00 05"))
        #expect(harness.takeSent().isEmpty)
        #expect(harness.bearer.confirmIndication() == [.send([0x1E])])
        #expect(harness.bearer.confirmIndication().isEmpty)
    }

    @Test("A Service Changed indication names the range to discover again")
    func serviceChanged() {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllCharacteristics(in: 0x0006 ... 0x0009))
        harness.peer(pdu("09 07 07 00 20 08 00 05 2A"))
        harness.peer(pdu("01 08 08 00 0A"))
        #expect(harness.takeSent() == [pdu("08 06 00 09 00 03 28"), pdu("08 08 00 09 00 03 28")])
        guard case .success(.characteristics)? = harness.result(id) else {
            Issue.record("discovery failed: \(String(describing: harness.result(id)))")
            return
        }
        #expect(harness.client.serviceChangedValueHandles == [0x0008])
        harness.events = []
        harness.peer(pdu("1D 08 00 10 00 20 00"))
        #expect(harness.events == [.indication(handle: 8, value: [0x10, 0x00, 0x20, 0x00]), .serviceChanged(0x0010 ... 0x0020)])
        #expect(harness.takeSent() == [[0x1E]])
    }

    @Test("A silent server: after 30 s the bearer closes and the running and queued procedures fail with timedOut")
    func timeout() {
        var harness = ClientHarness()
        harness.now = 1_000
        let running = harness.start(.read(0x0003))
        let queued = harness.start(.discoverAllPrimaryServices)
        #expect(harness.bearer.nextDeadline == 30_001_000)
        harness.advance(to: 30_000_999)
        #expect(harness.result(running) == nil)
        harness.advance(to: 30_001_000)
        #expect(harness.result(running) == .failure(.timedOut) && harness.result(queued) == .failure(.timedOut))
        #expect(harness.passedOn == [.closed(.timedOut)])
        _ = harness.takeSent()
        // The late response is ignored, and nothing more goes out.
        harness.peer(pdu("0B 01"))
        #expect(harness.bearer.counters.pdusIgnoredAfterClose == 1)
        let late = harness.start(.read(0x0003))
        #expect(harness.result(late) == .failure(.timedOut))
        #expect(harness.takeSent().isEmpty)
    }

    @Test("Disconnection fails the running and queued procedures with disconnected")
    func disconnection() {
        var harness = ClientHarness()
        let running = harness.start(.read(0x0003))
        let queued = harness.start(.read(0x0004))
        harness.absorb(harness.client.handle(harness.bearer.disconnected(), on: &harness.bearer, at: 0))
        #expect(harness.result(running) == .failure(.disconnected) && harness.result(queued) == .failure(.disconnected))
    }

    @Test("Requests from the peer's client pass through the client to the host untouched")
    func serverTrafficPassesThrough() {
        var harness = ClientHarness()
        harness.peer(pdu("0A 01 00"))
        #expect(harness.passedOn == [.incomingRequest(pdu("0A 01 00"))])
        #expect(harness.events.isEmpty)
    }

    /// SplitMix64, for reproducible random responses.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("Random responses to every procedure never trap, and each procedure ends or keeps waiting with a request out")
    func randomResponses() {
        let characteristic = GATTDiscoveredCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 2, valueHandle: 3,
                                                          properties: .notify, endHandle: 0x20)
        let procedures: [GATTProcedure] = [
            .exchangeMTU, .discoverAllPrimaryServices, .discoverPrimaryServices(BluetoothUUID(0x180D)),
            .findIncludedServices(in: 1 ... 0x30), .discoverAllCharacteristics(in: 1 ... 0x30),
            .discoverCharacteristics(BluetoothUUID(0x2A37), in: 1 ... 0xFFFF), .discoverAllDescriptors(of: characteristic),
            .read(3), .readLong(3), .readMultiple([3, 5]), .readMultipleVariable([3, 5, 7]),
            .readUsingCharacteristicUUID(BluetoothUUID(0x2B2A), in: 1 ... 0xFFFF), .write(3, [1]),
            .writeLong(3, Array(repeating: 7, count: 60)), .reliableWrite([GATTHandleValue(handle: 3, value: [1]), GATTHandleValue(handle: 4, value: [2])]),
        ]
        var random = Random(state: 2024)
        var completed = 0
        for procedure in procedures {
            for _ in 0 ..< 200 {
                var harness = ClientHarness()
                let id = harness.start(procedure)
                for _ in 0 ..< 12 {
                    guard harness.result(id) == nil, let request = harness.sent.last?.first else { break }
                    // Mostly the expected response opcode, sometimes an Error Response for it.
                    let length = Int(random.next() % 24)
                    var response = (0 ..< length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    if random.next() % 4 == 0 {
                        response = [0x01, request] + response.prefix(3)
                    } else {
                        response.insert(request &+ 1, at: 0)
                    }
                    harness.peer(response)
                }
                if harness.result(id) != nil {
                    completed += 1
                } else {
                    #expect(harness.bearer.hasOutstandingRequest)
                }
            }
        }
        #expect(completed > 1_000)
    }
}
