import BLEController
import BLEWire
import Testing

@Suite("Controller initiating")
struct InitiatingTests {
    @Test("CONNECT_IND goes out T_IFS after ADV_IND and both hosts get matching LE Connection Complete")
    func connect() throws {
        var air = TestAir()
        let peripheral = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        let central = air.add(address: 0xF0_00_00_00_00_02, seed: 2)
        air.startAdvertising(peripheral)
        let status = air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        guard case let .commandStatus(answer)? = status.first else {
            Issue.record("no Command Status")
            return
        }
        #expect(answer.status == .success)
        air.run(until: 300_000)

        let advertisement = try #require(air.advertisingPDUs(from: peripheral).first)
        let connect = try #require(air.advertisingPDUs(from: central).first)
        #expect(connect.transmission.start == advertisement.transmission.end + 150)
        guard case let .connectInd(initA, advA, data) = connect.pdu.payload else {
            Issue.record("the central sent \(connect.pdu.payload)")
            return
        }
        #expect(initA == air.address(central))
        #expect(advA == air.address(peripheral))
        #expect(data.interval == 24)
        #expect(data.latency == 2)
        #expect(data.timeout == 72)
        #expect(data.windowOffset == 0)
        #expect((1 ... 2).contains(data.windowSize))
        #expect((5 ... 16).contains(data.hopIncrement))
        #expect(data.channelMap == 0x1F_FFFF_FFFF)
        #expect(data.accessAddress != RadioTransmission.advertisingAccessAddress)

        let centralComplete = try #require(air.connectionCompletes(central).first)
        let peripheralComplete = try #require(air.connectionCompletes(peripheral).first)
        #expect(centralComplete.status == .success)
        #expect(centralComplete.role == .central)
        #expect(centralComplete.peerAddress == air.address(peripheral))
        #expect(peripheralComplete.role == .peripheral)
        #expect(peripheralComplete.peerAddress == air.address(central))
        for event in [centralComplete, peripheralComplete] {
            #expect(event.connectionInterval == 24)
            #expect(event.peripheralLatency == 2)
            #expect(event.supervisionTimeout == 72)
        }
        let centralTime = try #require(air.devices[central].events.first { if case .leMeta(.connectionComplete) = $0.event { true } else { false } }?.at)
        #expect(centralTime == connect.transmission.end, "the central reports once the CONNECT_IND has left")
        #expect(!air.devices[peripheral].controller.isAdvertising)
        #expect(air.devices[peripheral].controller.connectionHandles == [centralComplete.connectionHandle])
        #expect(air.devices[central].controller.connectionHandles == [0x0001])
        // Connection commands now reach the connection (the interim link layer answers 0x01).
        let disconnect = air.command(central, HCI.Disconnect(connectionHandle: 0x0001))
        #expect(disconnect.first?.commandResult?.opcode == HCI.Disconnect.opcode)
    }

    @Test("LE Enhanced Connection Complete replaces the legacy event when enabled in the LE mask")
    func enhancedConnectionComplete() {
        var air = TestAir()
        let peripheral = air.add(address: 1, seed: 1)
        let central = air.add(address: 2, seed: 2)
        air.command(central, HCI.LESetEventMask(leEventMask: [.enhancedConnectionComplete, .advertisingReport]))
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 300_000)
        let enhanced = air.devices[central].events.contains {
            if case let .leMeta(.enhancedConnectionComplete(event)) = $0.event { return event.status == .success }
            return false
        }
        #expect(enhanced)
        #expect(air.connectionCompletes(central).isEmpty)
    }

    @Test("Create Connection while one is pending is disallowed; Cancel ends it with 0x02")
    func cancel() throws {
        var air = TestAir()
        let central = air.add(address: 2, seed: 2)
        let absent = BluetoothAddress(0x0A0B_0C0D_0E0F)
        air.command(central, TestAir.createConnection(to: absent))
        air.run(until: 200_000)
        let second = air.command(central, TestAir.createConnection(to: absent))
        #expect(second.first?.commandResult?.status == 0x0C)
        let cancel = air.command(central, HCI.LECreateConnectionCancel())
        #expect(cancel.count == 2)
        #expect(cancel.first?.commandResult?.opcode == HCI.LECreateConnectionCancel.opcode)
        #expect(cancel.first?.commandResult?.status == 0x00)
        let complete = try #require(air.connectionCompletes(central).first)
        #expect(complete.status == .unknownConnectionIdentifier)
        #expect(!air.devices[central].controller.isInitiating)
        #expect(air.command(central, HCI.LECreateConnectionCancel()).first?.commandResult?.status == 0x0C)
        // A new attempt is allowed afterwards.
        #expect(air.command(central, TestAir.createConnection(to: absent)).first?.commandResult?.status == 0x00)
    }

    @Test("High duty cycle directed advertising times out after 1.28 s with Advertising Timeout")
    func highDutyCycleTimeout() throws {
        var air = TestAir()
        let peripheral = air.add(address: 1, seed: 1)
        air.startAdvertising(peripheral, type: .connectableDirectedHighDutyCycle, peer: BluetoothAddress(0x99))
        air.run(until: 2_000_000)
        let complete = try #require(air.connectionCompletes(peripheral).first)
        #expect(complete.status == .advertisingTimeout)
        let time = try #require(air.devices[peripheral].events.last?.at)
        #expect((1_280_000 ... 1_285_000).contains(time))
        let starts = air.advertisingPDUs(from: peripheral).map(\.transmission.start)
        let gaps = zip(starts.dropFirst(), starts).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 <= 3_750 }, "at most 3.75 ms between PDUs")
        #expect(!air.devices[peripheral].controller.isAdvertising)
    }

    @Test("A directed advertiser accepts a connection from its peer only")
    func directedConnect() throws {
        var air = TestAir()
        let peripheral = air.add(address: 1, seed: 1)
        let central = air.add(address: 2, seed: 2)
        air.startAdvertising(peripheral, type: .connectableDirectedHighDutyCycle, peer: air.address(central))
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 100_000)
        #expect(air.connectionCompletes(peripheral).first?.status == .success)
        #expect(air.connectionCompletes(central).first?.status == .success)
    }

    @Test("Generated access addresses obey the rules of Vol 6, Part B, §2.1.2")
    func accessAddresses() {
        var air = TestAir()
        var seen: Set<UInt32> = []
        for seed in 0 ..< 40 {
            let peripheral = air.add(address: UInt64(100 + 2 * seed), seed: UInt64(seed))
            let central = air.add(address: UInt64(101 + 2 * seed), seed: UInt64(1000 + seed))
            air.startAdvertising(peripheral, interval: 0x0020)
            air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        }
        air.run(until: 2_000_000)
        for sent in air.log {
            guard let pdu = try? LL.AdvertisingPDU(decoding: sent.transmission.pdu),
                  case let .connectInd(_, _, data) = pdu.payload else { continue }
            let address = data.accessAddress
            seen.insert(address)
            #expect((address ^ RadioTransmission.advertisingAccessAddress).nonzeroBitCount > 1)
            var run = 1
            var longest = 1
            for bit in 1 ..< 32 {
                run = (address >> bit) & 1 == (address >> (bit - 1)) & 1 ? run + 1 : 1
                longest = max(longest, run)
            }
            #expect(longest <= 6)
        }
        #expect(seen.count >= 10)
    }
}
