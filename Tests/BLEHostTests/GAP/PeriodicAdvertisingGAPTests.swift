@testable import BLEHost
import BLEWire
import Testing

/// GAP's periodic train beside an extended set (Core 5.4, Vol 4, Part E, §7.8.61–§7.8.63):
/// the commands it sends, in order, and what it refuses before sending anything.
@Suite("Periodic advertising in GAP")
struct PeriodicAdvertisingGAPTests {
    /// A core told at start-up that the controller claims the extended and (or not) the periodic commands.
    private func core(periodic: Bool) -> GAPCore {
        var gap = GAPCore()
        var commands: [HCI.SupportedCommands.Entry] = [
            .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedAdvertisingEnable]
        if periodic { commands += [.leSetPeriodicAdvertisingParameters, .leSetPeriodicAdvertisingData, .leSetPeriodicAdvertisingEnable] }
        _ = gap.handle(.ready(ControllerInfo(supportedCommands: HCI.SupportedCommands(commands))), at: 0)
        return gap
    }

    private static func commands(_ outputs: [GAPOutput]) -> [any HCICommand] {
        outputs.compactMap { if case let .submit(command, _) = $0 { command } else { nil } }
    }

    @Test("The train's parameters, data in fragments of 252 and enable go before the set's enable; stopping disables the train first")
    func commandsInOrder() throws {
        var gap = core(periodic: true)
        let data = (0 ..< 600).map { UInt8(truncatingIfNeeded: $0) }
        let started = try gap.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, data: AdvertisingData(structures: []),
            extended: GAPExtendedAdvertising(sid: 2, periodic: GAPPeriodicAdvertising(interval: 0x50, data: data))), at: 0)
        let commands = Self.commands(started)
        let parameters = try #require(commands.compactMap { $0 as? HCI.LESetPeriodicAdvertisingParameters }.first)
        #expect(parameters.periodicAdvertisingIntervalMin == 0x50 && parameters.periodicAdvertisingIntervalMax == 0x50)
        let fragments = commands.compactMap { $0 as? HCI.LESetPeriodicAdvertisingData }
        #expect(fragments.map(\.advertisingData.count) == [252, 252, 96])
        #expect(fragments.map(\.operation) == [.firstFragment, .intermediateFragment, .lastFragment])
        #expect(fragments.flatMap { Array($0.advertisingData) } == data)
        let enableIndex = try #require(commands.firstIndex { ($0 as? HCI.LESetPeriodicAdvertisingEnable)?.enable == true })
        let setEnableIndex = try #require(commands.firstIndex { $0 is HCI.LESetExtendedAdvertisingEnable })
        #expect(enableIndex < setEnableIndex && setEnableIndex == commands.count - 1)
        for case let .submit(command, token) in started {
            _ = gap.handle(.commandCompleted(token, .success(.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: type(of: command).opcode, returnParameters: [0])))), at: 0)
        }
        #expect(gap.isAdvertising)
        let stop = Self.commands(try gap.stopAdvertising(at: 1))
        #expect((stop.first as? HCI.LESetPeriodicAdvertisingEnable)?.enable == false)
        #expect((stop.last as? HCI.LESetExtendedAdvertisingEnable)?.enable == false)
    }

    @Test("Refused before anything is sent: a controller without the periodic commands, a connectable set, an interval under 7.5 ms, data over 1,650 octets")
    func refusals() {
        let train = GAPPeriodicAdvertising(interval: 0x50, data: [1, 2, 3])
        var plain = core(periodic: false)
        #expect(throws: GAPError.self) {
            try plain.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(periodic: train)), at: 0)
        }
        var gap = core(periodic: true)
        for parameters in [
            GAPAdvertisingParameters(kind: .connectable, extended: .init(periodic: train)),
            GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(periodic: GAPPeriodicAdvertising(interval: 5, data: []))),
            GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(
                periodic: GAPPeriodicAdvertising(interval: 0x50, data: Array(repeating: 0, count: 1651)))),
        ] {
            #expect(throws: GAPError.self) { try gap.startAdvertising(parameters, at: 0) }
        }
        #expect(!gap.isAdvertising)
    }
}
