import BLEController
import BLEHost
import BLEWire
import Testing

@Suite("HCI driver recovery and malformed input")
struct HCIDriverRecoveryTests {
    @Test("A Hardware Error fails the driver, loses every link with 0x03, abandons commands and restarts start-up")
    func hardwareErrorRecovery() throws {
        var host = ScriptedHost(controller: .typical())
        host.start()
        host.connect(handle: 5)
        host.connect(handle: 2)
        host.controller.silent = [HCI.LERand.opcode]
        host.carryOut(host.driver.submit(HCI.LERand(), token: HCICommandToken(9), at: 0))
        _ = host.take()
        host.controller.received = []
        host.receive(.hardwareError(HCI.HardwareError(hardwareCode: 0x42)))
        let outputs = host.take()
        guard outputs.count >= 5 else {
            Issue.record("unexpected outputs \(outputs)")
            return
        }
        guard case .failed(.hardwareError(code: 0x42)) = outputs[0],
              case .linkLost(handle: 2, reason: .hardwareFailure) = outputs[1],
              case .linkLost(handle: 5, reason: .hardwareFailure) = outputs[2],
              case .commandCompleted(HCICommandToken(9), .failure(.controllerReset)) = outputs[3],
              case .ready = outputs[4]
        else {
            Issue.record("unexpected outputs \(outputs)")
            return
        }
        #expect(host.controller.received.first == HCI.Reset.opcode)
        #expect(host.driver.isReady)
        #expect(host.driver.connectionHandles.isEmpty)
        #expect(host.driver.nextDeadline == nil)
        // The old handle is gone: its data is refused.
        #expect(host.driver.sendL2CAP(basicFrame(count: 1), handle: 5, at: 0).isEmpty)
    }

    @Test("Events the driver does not consume are passed up; Disconnection Complete also reports the link lost")
    func eventsPassedUp() {
        var host = ScriptedHost(controller: .typical())
        host.start()
        host.connect(handle: 4)
        let outputs = host.take()
        guard case .event(.leMeta(.connectionComplete)) = outputs.last else {
            Issue.record("connection complete not passed up: \(outputs)")
            return
        }
        let change = HCI.Event.encryptionChange(HCI.EncryptionChange(status: .success, connectionHandle: 4, encryptionEnabled: .on))
        host.receive(change)
        guard case .event(change)? = host.take().first else {
            Issue.record("encryption change not passed up")
            return
        }
    }

    @Test("Every truncation, extension and bit flip of valid controller packets is survived")
    func mutationsNeverTrap() {
        var host = ScriptedHost(controller: .typical(bufferLength: 27, bufferCount: 2))
        host.start()
        host.connect(handle: 1)
        _ = host.take()
        var base = host.driver
        _ = base.sendL2CAP(basicFrame(count: 60), handle: 1, at: 0)
        _ = base.submit(HCI.LERand(), token: HCICommandToken(1), at: 0)
        let valid: [H4.Packet] = [
            .event(HCI.Event.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: HCI.LERand.opcode, returnParameters: [0, 1, 2, 3, 4, 5, 6, 7, 8])).packet),
            .event(HCI.Event.commandStatus(HCI.CommandStatus(status: .success, numHCICommandPackets: 1, opcode: HCI.LERand.opcode)).packet),
            .event(HCI.Event.numberOfCompletedPackets(HCI.NumberOfCompletedPackets(entries: [
                .init(connectionHandle: 1, numCompletedPackets: 2)])).packet),
            .event(HCI.Event.disconnectionComplete(HCI.DisconnectionComplete(
                status: .success, connectionHandle: 1, reason: .connectionTimeout)).packet),
            .event(HCI.Event.hardwareError(HCI.HardwareError(hardwareCode: 1)).packet),
            .acl(HCI.ACLPacket(connectionHandle: 1, packetBoundary: .firstAutomaticallyFlushable, data: basicFrame(count: 8)[...])),
        ]
        var fed = 0
        for packet in valid {
            let bytes = packet.encoded()
            var variants: [[UInt8]] = (0 ..< bytes.count).map { Array(bytes[..<$0]) }
            variants.append(bytes + [0x00])
            variants.append(bytes + [0xFF, 0xFF])
            for bit in 0 ..< bytes.count * 8 {
                var flipped = bytes
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                variants.append(flipped)
            }
            for variant in variants {
                guard let mutated = try? H4.Packet(decoding: variant[...]) else { continue }
                var driver = base
                _ = driver.receive(mutated, at: 1)
                _ = driver.timerFired(at: 10_000_000)
                _ = driver.sendL2CAP(basicFrame(count: 30), handle: 1, at: 10_000_001)
                fed += 1
            }
        }
        #expect(fed > 200)
    }

    @Test("Undecodable events and unexpected packet types are counted, not trapped on")
    func countsGarbage() {
        var host = ScriptedHost(controller: .typical())
        host.start()
        _ = host.take()
        host.receive(.event(HCI.EventPacket(eventCode: HCI.EventCode.disconnectionComplete, parameters: [0x00])))
        #expect(host.driver.counters.undecodableEvents == 1)
        host.receive(.command(HCI.CommandPacket(opcode: HCI.Reset.opcode)))
        #expect(host.driver.counters.unexpectedPackets == 1)
        host.receive(.event(HCI.Event.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.LERand.opcode, returnParameters: [0])).packet))
        #expect(host.driver.counters.unexpectedCommandEvents == 1)
        #expect(host.outputs.isEmpty)
    }
}
