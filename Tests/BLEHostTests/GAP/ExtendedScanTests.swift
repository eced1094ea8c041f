import BLEController
@testable import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Testing

/// GAP's extended scan (Core 5.4, Vol 4, Part E, §7.8.64–7.8.65, §7.7.65.13): the commands it
/// sends, the controller it refuses, and the fragments of extended reports joined into one
/// advertisement — first fed by hand, then over a world's controllers.
@Suite("Extended scanning in GAP", .simulated, .serialized, .timeLimit(.minutes(10)))
struct ExtendedScanTests {
    /// 1,650 octets that are not all alike, so that a misplaced fragment shows.
    static let longData: [UInt8] = (0 ..< 1650).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 256) }

    /// A core told at start-up that the controller claims the extended scanning commands (or not).
    private func core(claiming: Bool) -> GAPCore {
        var gap = GAPCore()
        let commands: [HCI.SupportedCommands.Entry] = claiming ? [.leSetExtendedScanParameters, .leSetExtendedScanEnable] : [.leSetScanEnable]
        _ = gap.handle(.ready(ControllerInfo(supportedCommands: HCI.SupportedCommands(commands))), at: 0)
        return gap
    }

    /// Answers every command in `outputs` with success.
    private func succeed(_ outputs: [GAPOutput], on gap: inout GAPCore) {
        for case let .submit(command, token) in outputs {
            _ = gap.handle(.commandCompleted(token, .success(.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: type(of: command).opcode, returnParameters: [0])))), at: 0)
        }
    }

    private func fragment(_ data: ArraySlice<UInt8>, _ status: HCI.LEExtendedAdvertisingReport.EventType.DataStatus,
                          sid: UInt8 = 3, address: UInt64 = 0xA1) -> HCIDriverOutput {
        .event(.leMeta(.extendedAdvertisingReport(HCI.LEExtendedAdvertisingReport(reports: [.init(
            eventType: .init(dataStatus: status), addressType: .public, address: BluetoothAddress(address), primaryPHY: .le1M,
            secondaryPHY: .le2M, advertisingSID: sid, txPower: -4, rssi: -50, periodicAdvertisingInterval: 0,
            directAddressType: .public, directAddress: BluetoothAddress(0), data: data)]))))
    }

    @Test("An extended scan sends LE Set Extended Scan Parameters and Enable, and is stopped with the extended disable")
    func commands() throws {
        var gap = core(claiming: true)
        let start = try gap.startScanning(GAPScanParameters(active: false, interval: 0x60, window: 0x30, extended: true), at: 0)
        let commands = start.compactMap { if case let .submit(command, _) = $0 { command } else { nil } }
        let parameters = try #require(commands.first as? HCI.LESetExtendedScanParameters)
        #expect(parameters.le1M == .init(scanType: .passive, scanInterval: 0x60, scanWindow: 0x30) && parameters.leCoded == nil)
        #expect((commands.last as? HCI.LESetExtendedScanEnable)?.enable == true)
        #expect(!commands.contains { $0 is HCI.LESetScanParameters || $0 is HCI.LESetScanEnable })
        succeed(start, on: &gap)
        #expect(gap.isScanning)
        let stop = try gap.stopScanning(at: 1)
        #expect(stop.contains { if case let .submit(command, _) = $0 { (command as? HCI.LESetExtendedScanEnable)?.enable == false } else { false } })
    }

    @Test("A controller that does not claim the extended scanning commands is refused before anything is sent")
    func unsupported() {
        var gap = core(claiming: false)
        #expect(throws: GAPError.extendedScanningUnsupported) { try gap.startScanning(GAPScanParameters(extended: true), at: 0) }
        #expect(!gap.isScanning)
        #expect(GAPError.extendedScanningUnsupported.description.contains("Supported Commands"))
    }

    @Test("Fragments are joined into one advertisement; a truncated one is reported with what arrived; two sets do not mix")
    func reassembly() throws {
        var gap = core(claiming: true)
        succeed(try gap.startScanning(GAPScanParameters(allowDuplicates: true, extended: true), at: 0), on: &gap)
        let data = Self.longData
        #expect(GAPCoreUnitTests.events(gap.handle(fragment(data[0 ..< 229], .incompleteMoreToCome), at: 1)).isEmpty)
        // Another set of the same advertiser, whole, in between.
        let other = GAPCoreUnitTests.events(gap.handle(fragment([0x02, 0x01, 0x06], .complete, sid: 9), at: 2))
        #expect(other.count == 1)
        #expect(GAPCoreUnitTests.events(gap.handle(fragment(data[229 ..< 1000], .incompleteMoreToCome), at: 3)).isEmpty)
        let whole = GAPCoreUnitTests.events(gap.handle(fragment(data[1000...], .complete), at: 4))
        guard case let .advertisement(seen)? = whole.first else {
            Issue.record("no advertisement after the last fragment")
            return
        }
        #expect(seen.advertisingBytes == data)
        #expect(seen.extended?.advertisingSID == 3 && seen.extended?.secondaryPHY == .le2M && seen.extended?.txPower == -4)
        #expect(seen.extended?.truncated == false)
        _ = gap.handle(fragment(data[0 ..< 229], .incompleteMoreToCome), at: 5)
        let cut = GAPCoreUnitTests.events(gap.handle(fragment(data[229 ..< 400], .incompleteTruncated), at: 6))
        guard case let .advertisement(short)? = cut.first else {
            Issue.record("no advertisement after a truncated fragment")
            return
        }
        #expect(short.advertisingBytes == Array(data[0 ..< 400]))
        #expect(short.extended?.truncated == true)
    }

    @Test("Over a world: the host's extended scan hears another controller's 1,650-octet set whole, with its SID and secondary PHY")
    func overTheAir() async throws {
        var scenario = Scenario(name: "empty").addingExternalDevices(2)
        scenario.timing = .ideal
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false, claimsExtendedAdvertising: true)
        let advertiser = running.transports[0]
        func command(_ command: some HCICommand) async throws {
            try await advertiser.send(.command(HCI.CommandPacket(opcode: type(of: command).opcode, parameters: command.encoded()[...])))
        }
        try await command(HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: [], primaryAdvertisingIntervalMin: 0xA0, primaryAdvertisingIntervalMax: 0xA0,
            ownAddressType: .public, secondaryAdvertisingPHY: .le2M, advertisingSID: 6))
        let size = HCI.maximumExtendedAdvertisingDataFragmentLength
        let starts = Array(stride(from: 0, to: Self.longData.count, by: size))
        for (number, start) in starts.enumerated() {
            let operation: HCI.AdvertisingDataOperation = number == 0 ? .firstFragment : number == starts.count - 1 ? .lastFragment : .intermediateFragment
            try await command(HCI.LESetExtendedAdvertisingData(
                advertisingHandle: 0, operation: operation, advertisingData: Self.longData[start ..< min(start + size, Self.longData.count)]))
        }
        try await command(HCI.LESetExtendedAdvertisingEnable(enable: true, sets: [.init(advertisingHandle: 0)]))

        let scanner = Host(transport: running.transports[1], configuration: .patient)
        _ = try await scanner.start()
        let drain = Task { for await _ in scanner.events {} }
        defer { drain.cancel() }
        let heard = try await scanner.startScanning(GAPScanParameters(active: false, interval: 0xA0, window: 0xA0, extended: true))
        let seen = try await firstElement(of: heard, within: patience) { $0.address == running.addresses[0] }
        #expect(seen.advertisingBytes == Self.longData)
        #expect(seen.extended?.advertisingSID == 6 && seen.extended?.secondaryPHY == .le2M && seen.extended?.primaryPHY == .le1M)
        #expect(seen.extended?.truncated == false && seen.extended?.legacy == false)
        try await scanner.stopScanning()
    }

    @Test("Over a world whose controllers do not claim it, an extended scan is refused with the sentence")
    func refusedOverTheAir() async throws {
        var scenario = Scenario(name: "empty").addingExternalDevices(1)
        scenario.timing = .ideal
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false)
        let scanner = Host(transport: running.transports[0], configuration: .patient)
        _ = try await scanner.start()
        await #expect(throws: HostError.gap(.extendedScanningUnsupported)) {
            _ = try await scanner.startScanning(GAPScanParameters(extended: true))
        }
    }

    /// 1,650 octets of advertising data in seven manufacturer-specific structures, each octet
    /// different from its neighbours.
    static let longStructures: AdvertisingData = {
        let sizes = [252, 252, 252, 252, 252, 252, 124]
        var next = 0
        return AdvertisingData(structures: sizes.map { size in
            defer { next += size }
            return AdvertisingData.Structure(type: .manufacturerSpecificData, data: (next ..< next + size).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        })
    }()

    @Test("Our host advertises an extended set of 1,650 octets on LE 2M; another host's extended scan gets it whole")
    func hostToHost() async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let (running, advertiser, scanner) = (pair.running, pair.advertiser, pair.scanner)
        #expect(Self.longStructures.encodedLength == 1650)
        try await advertiser.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, data: Self.longStructures, extended: GAPExtendedAdvertising(secondaryPHY: .le2M, sid: 7)))
        let heard = try await scanner.startScanning(GAPScanParameters(active: false, interval: 0xA0, window: 0xA0, extended: true))
        let seen = try await firstElement(of: heard, within: patience) { $0.address == running.addresses[0] }
        #expect(seen.advertisingBytes == Self.longStructures.encoded())
        #expect(seen.data.structures.count == 7)
        #expect(seen.extended?.advertisingSID == 7 && seen.extended?.secondaryPHY == .le2M && seen.extended?.truncated == false)
        try await scanner.stopScanning()
        try await advertiser.stopAdvertising()
    }

    @Test("Extended sets the controller does not model, or a controller without the commands, are refused before anything is sent")
    func advertisingRefusals() throws {
        var gap = GAPCore()
        let data = AdvertisingData(structures: [])
        #expect(throws: GAPError.extendedAdvertisingUnsupported) {
            try gap.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, data: data, extended: .init()), at: 0)
        }
        _ = gap.handle(.ready(ControllerInfo(supportedCommands: HCI.SupportedCommands([
            .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedAdvertisingEnable]))), at: 0)
        for parameters in [GAPAdvertisingParameters(kind: .scannable, extended: .init()),
                           GAPAdvertisingParameters(kind: .connectable, data: Self.longStructures, extended: .init()),
                           GAPAdvertisingParameters(kind: .nonConnectable, scanResponse: Self.longStructures, extended: .init()),
                           GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(sid: 16)),
                           GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(secondaryPHY: .leCoded))] {
            #expect(throws: GAPError.self) { try gap.startAdvertising(parameters, at: 0) }
        }
        var tooLong = Self.longStructures
        tooLong.structures.append(AdvertisingData.Structure(type: .manufacturerSpecificData, data: [1]))
        #expect(throws: GAPError.advertisingDataTooLong(octets: 1653, maximum: 1650)) {
            try gap.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, data: tooLong, extended: .init()), at: 0)
        }
        #expect(!gap.isAdvertising)
        let started = try gap.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, data: Self.longStructures, extended: .init()), at: 0)
        let fragments = started.compactMap { if case let .submit(command, _) = $0 { command as? HCI.LESetExtendedAdvertisingData } else { nil } }
        #expect(fragments.map(\.advertisingData.count) == [251, 251, 251, 251, 251, 251, 144])
        #expect(fragments.first?.operation == .firstFragment && fragments.last?.operation == .lastFragment)
        // Structures that each fit a fragment are never cut: 9 of 183 octets go as 7 fragments of whole structures.
        let small = AdvertisingData(structures: (0 ..< 9).map { AdvertisingData.Structure(type: .manufacturerSpecificData, data: Array(repeating: UInt8($0), count: 181)) })
        let pieces = GAPCore.fragments(small)
        #expect(pieces.map(\.1.count) == Array(repeating: 183, count: 9))
        #expect(pieces.allSatisfy { (try? AdvertisingData(decoding: Array($0.1)))?.structures.count == 1 })
    }
}
