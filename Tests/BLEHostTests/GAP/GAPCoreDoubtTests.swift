import BLEHost
import BLEWire
import Testing

/// GAP when the controller does not answer, or refuses a setup command: GAP never counts
/// advertising or scanning off while the controller may still be doing it.
@Suite("GAP core with commands unanswered")
struct GAPCoreDoubtTests {
    typealias Unit = GAPCoreUnitTests

    /// Answers every command in `outputs` with success, except `except`; returns the events.
    static func answerAll(_ gap: inout GAPCore, _ outputs: [GAPOutput], except: HCICommandToken? = nil) -> [GAPEvent] {
        var events: [GAPEvent] = []
        for case let .submit(command, token) in outputs where token != except {
            events += Unit.events(gap.handle(.commandCompleted(token, success(type(of: command).opcode)), at: 0))
        }
        return events
    }

    static func success(_ opcode: HCI.Opcode) -> Result<HCI.Event, HCIDriverError> {
        .success(.commandComplete(HCI.CommandComplete(numHCICommandPackets: 1, opcode: opcode, returnParameters: [0])))
    }

    /// The advertising enable commands in `outputs`, in order: `true` to enable.
    static func enables(_ outputs: [GAPOutput]) -> [Bool] {
        outputs.compactMap { output in
            guard case let .submit(command, _) = output, let enable = command as? HCI.LESetAdvertisingEnable else { return nil }
            return enable.advertisingEnable
        }
    }

    static func scanEnables(_ outputs: [GAPOutput]) -> [Bool] {
        outputs.compactMap { output in
            guard case let .submit(command, _) = output, let enable = command as? HCI.LESetScanEnable else { return nil }
            return enable.leScanEnable
        }
    }

    @Test("A disable left unanswered: the stop fails with the timeout, the next start disables first and starts")
    func unansweredDisable() throws {
        var gap = GAPCore()
        let opcode = HCI.LESetAdvertisingEnable.opcode
        #expect(Self.answerAll(&gap, try gap.startAdvertising(GAPAdvertisingParameters(), at: 0)) == [.advertisingStarted])
        let stop = try gap.stopAdvertising(at: 1)
        let disable = try #require(Unit.token(stop, opcode))
        let failed = Unit.events(gap.handle(.commandCompleted(disable, .failure(.timeout(opcode))), at: 3))
        #expect(failed == [.procedureFailed(.advertising, .driver(.timeout(opcode)))])
        #expect(!gap.isAdvertising)
        // Before the fix the next start was refused with advertisingAlreadyEnabled for ever.
        let start = try gap.startAdvertising(GAPAdvertisingParameters(), at: 4)
        #expect(Self.enables(start) == [false, true], "a disable settles the doubt before the start")
        #expect(Self.answerAll(&gap, start) == [.advertisingStarted])
        // Settled: the start after a normal stop sends no extra disable.
        let stopped = Self.answerAll(&gap, try gap.stopAdvertising(at: 5))
        #expect(stopped == [.advertisingStopped(connectionHandle: nil)])
        #expect(Self.enables(try gap.startAdvertising(GAPAdvertisingParameters(), at: 6)) == [true])
    }

    @Test("A stop while in doubt sends the disable and reports the stop")
    func stopInDoubt() throws {
        var gap = GAPCore()
        let opcode = HCI.LESetAdvertisingEnable.opcode
        _ = Self.answerAll(&gap, try gap.startAdvertising(GAPAdvertisingParameters(), at: 0))
        let disable = try #require(Unit.token(try gap.stopAdvertising(at: 1), opcode))
        _ = gap.handle(.commandCompleted(disable, .failure(.timeout(opcode))), at: 3)
        let stop = try gap.stopAdvertising(at: 4)
        #expect(Self.enables(stop) == [false])
        #expect(Self.answerAll(&gap, stop) == [.advertisingStopped(connectionHandle: nil)])
        #expect(throws: GAPError.advertisingNotEnabled) { try gap.stopAdvertising(at: 5) }
    }

    @Test("An enable left unanswered, or a refused setup command, is followed by a disable")
    func abandonedStarts() throws {
        var gap = GAPCore()
        let opcode = HCI.LESetAdvertisingEnable.opcode
        let start = try gap.startAdvertising(GAPAdvertisingParameters(), at: 0)
        let enable = try #require(Unit.token(start, opcode))
        #expect(Self.answerAll(&gap, start, except: enable).isEmpty)
        let timedOut = gap.handle(.commandCompleted(enable, .failure(.timeout(opcode))), at: 3)
        #expect(Unit.events(timedOut) == [.procedureFailed(.advertising, .driver(.timeout(opcode)))])
        #expect(Self.enables(timedOut) == [false], "the enable may still be carried out")
        // The disable answered: no doubt left, the next start is the usual four commands.
        #expect(Self.answerAll(&gap, timedOut).isEmpty)
        let next = try gap.startAdvertising(GAPAdvertisingParameters(), at: 4)
        #expect(Self.enables(next) == [true])

        // Parameters refused: the enable queued behind them is undone.
        let parameters = try #require(Unit.token(next, HCI.LESetAdvertisingParameters.opcode))
        let refused = gap.handle(.commandCompleted(parameters, .success(.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.LESetAdvertisingParameters.opcode, returnParameters: [0x0C])))), at: 5)
        #expect(Unit.events(refused) == [.procedureFailed(.advertising, .controller(.commandDisallowed))])
        #expect(Self.enables(refused) == [false])
        // The queued enable succeeds late: GAP still counts advertising off (the disable follows).
        let lateEnable = try #require(Unit.token(next, opcode))
        #expect(Unit.events(gap.handle(.commandCompleted(lateEnable, Self.success(opcode)), at: 6)).isEmpty)
        #expect(!gap.isAdvertising)
    }

    @Test("Scanning: an unanswered disable is settled by the next start; an unanswered enable is undone")
    func scanningInDoubt() throws {
        var gap = GAPCore()
        let opcode = HCI.LESetScanEnable.opcode
        #expect(Self.answerAll(&gap, try gap.startScanning(GAPScanParameters(), at: 0)) == [.scanningStarted])
        let disable = try #require(Unit.token(try gap.stopScanning(at: 1), opcode))
        #expect(Unit.events(gap.handle(.commandCompleted(disable, .failure(.timeout(opcode))), at: 3))
            == [.procedureFailed(.scanning, .driver(.timeout(opcode)))])
        #expect(!gap.isScanning)
        let start = try gap.startScanning(GAPScanParameters(), at: 4)
        #expect(Self.scanEnables(start) == [false, true])
        let enableTokens = start.compactMap { output -> HCICommandToken? in
            guard case let .submit(command, token) = output, (command as? HCI.LESetScanEnable)?.leScanEnable == true else { return nil }
            return token
        }
        let enable = try #require(enableTokens.first)
        #expect(Self.answerAll(&gap, start, except: enable).isEmpty)
        let timedOut = gap.handle(.commandCompleted(enable, .failure(.timeout(opcode))), at: 6)
        #expect(Self.scanEnables(timedOut) == [false])
        #expect(Unit.events(timedOut) == [.procedureFailed(.scanning, .driver(.timeout(opcode)))])
    }
}
