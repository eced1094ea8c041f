import BLEController
import BLEHost
import BLEWire
import Testing

@Suite("HCI driver command flow control")
struct HCIDriverCommandTests {
    /// A ready driver whose controller stays silent, so the test answers by hand.
    private func readyHost() -> ScriptedHost {
        var host = ScriptedHost(controller: .typical())
        host.start()
        #expect(host.driver.isReady)
        _ = host.take()
        host.controller.received = []
        return host
    }

    @Test("With one credit, a second command waits for the first's Command Complete")
    func queueingWithOneCredit() {
        var driver = readyHost().driver
        let first = driver.submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), token: HCICommandToken(1), at: 10)
        let second = driver.submit(HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false), token: HCICommandToken(2), at: 11)
        #expect(sentOpcodes(first) == [HCI.LESetAdvertisingEnable.opcode])
        #expect(sentOpcodes(second) == [])
        let answer = driver.receive(.event(HCI.Event.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.LESetAdvertisingEnable.opcode, returnParameters: [0])).packet), at: 20)
        #expect(completedTokens(answer) == [1])
        #expect(sentOpcodes(answer) == [HCI.LESetScanEnable.opcode])
    }

    @Test("Zero credits hold the queue until a credits-only Command Complete (opcode 0x0000)")
    func creditsOnlyCommandComplete() {
        var driver = readyHost().driver
        _ = driver.submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), token: HCICommandToken(1), at: 0)
        _ = driver.submit(HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false), token: HCICommandToken(2), at: 0)
        let zero = driver.receive(.event(HCI.Event.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 0, opcode: HCI.LESetAdvertisingEnable.opcode, returnParameters: [0])).packet), at: 1)
        #expect(completedTokens(zero) == [1])
        #expect(sentOpcodes(zero) == [])
        let credits = driver.receive(.event(HCI.Event.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.Opcode(rawValue: 0))).packet), at: 2)
        #expect(sentOpcodes(credits) == [HCI.LESetScanEnable.opcode])
        #expect(driver.counters.unexpectedCommandEvents == 0)
    }

    @Test("Several credits send several commands at once; Command Status completes a command too")
    func severalCredits() {
        var driver = readyHost().driver
        _ = driver.receive(.event(HCI.Event.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 3, opcode: HCI.Opcode(rawValue: 0))).packet), at: 0)
        var sent: [HCI.Opcode] = []
        sent += sentOpcodes(driver.submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), token: HCICommandToken(1), at: 0))
        sent += sentOpcodes(driver.submit(HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false), token: HCICommandToken(2), at: 0))
        sent += sentOpcodes(driver.submit(HCI.Disconnect(connectionHandle: 1, reason: .remoteUserTerminatedConnection), token: HCICommandToken(3), at: 0))
        sent += sentOpcodes(driver.submit(HCI.LERand(), token: HCICommandToken(4), at: 0))
        #expect(sent == [HCI.LESetAdvertisingEnable.opcode, HCI.LESetScanEnable.opcode, HCI.Disconnect.opcode])
        let status = driver.receive(.event(HCI.Event.commandStatus(HCI.CommandStatus(
            status: .success, numHCICommandPackets: 1, opcode: HCI.Disconnect.opcode)).packet), at: 1)
        #expect(completedTokens(status) == [3])
        #expect(sentOpcodes(status) == [HCI.LERand.opcode])
    }

    @Test("An unanswered command fails with a timeout naming it, and the queue moves on")
    func commandTimeout() throws {
        var driver = readyHost().driver
        _ = driver.submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), token: HCICommandToken(7), at: 1_000)
        _ = driver.submit(HCI.LERand(), token: HCICommandToken(8), at: 1_500)
        #expect(driver.nextDeadline == 2_001_000)
        #expect(driver.timerFired(at: 2_000_999).isEmpty)
        let fired = driver.timerFired(at: 2_001_000)
        guard case let .commandCompleted(token, .failure(error))? = fired.first else {
            Issue.record("expected a timeout, got \(fired)")
            return
        }
        #expect(token == HCICommandToken(7))
        #expect(error == .timeout(HCI.LESetAdvertisingEnable.opcode))
        #expect(error.description.contains("LE Set Advertising Enable"))
        #expect(sentOpcodes(fired) == [HCI.LERand.opcode])
        #expect(driver.nextDeadline == 4_001_000)
    }

    @Test("Commands submitted before start-up wait until the controller is ready")
    func submittedBeforeStart() {
        var host = ScriptedHost(controller: .typical())
        host.carryOut(host.driver.submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), token: HCICommandToken(5), at: 0))
        #expect(host.controller.received.isEmpty)
        host.start()
        #expect(host.controller.received.last == HCI.LESetAdvertisingEnable.opcode)
        #expect(host.controller.received.first == HCI.Reset.opcode)
        let completions = host.outputs.compactMap { output -> HCICommandToken? in
            if case let .commandCompleted(token, .success) = output { return token } else { return nil }
        }
        #expect(completions == [HCICommandToken(5)])
    }
}

func sentOpcodes(_ outputs: [HCIDriverOutput]) -> [HCI.Opcode] {
    outputs.compactMap { output in
        if case let .send(.command(packet)) = output { return packet.opcode } else { return nil }
    }
}

func completedTokens(_ outputs: [HCIDriverOutput]) -> [UInt64] {
    outputs.compactMap { output in
        if case let .commandCompleted(token, _) = output { return token.rawValue } else { return nil }
    }
}

func sentACL(_ outputs: [HCIDriverOutput]) -> [HCI.ACLPacket] {
    outputs.compactMap { output in
        if case let .send(.acl(packet)) = output { return packet } else { return nil }
    }
}
