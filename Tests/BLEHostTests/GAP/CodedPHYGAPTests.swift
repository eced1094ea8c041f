import BLEController
@testable import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Testing

/// GAP on LE Coded (Core 5.4, Vol 4, Part E, §7.8.53 and §7.8.64): the PHYs it asks for,
/// the controllers it refuses, and a Coded set heard by a Coded scan over a world.
@Suite("LE Coded in GAP", .simulated, .serialized, .timeLimit(.minutes(10)))
struct CodedPHYGAPTests {
    /// A core told at start-up that the controller claims the extended commands, with or
    /// without the LE Coded PHY feature and [v2] of the parameters command.
    private func core(coded: Bool, v2: Bool = false) -> GAPCore {
        var gap = GAPCore()
        let commands: [HCI.SupportedCommands.Entry] = [
            .leSetExtendedScanParameters, .leSetExtendedScanEnable, .leSetExtendedAdvertisingParameters,
            .leSetExtendedAdvertisingData, .leSetExtendedAdvertisingEnable,
        ] + (v2 ? [.leSetExtendedAdvertisingParametersV2] : [])
        _ = gap.handle(.ready(ControllerInfo(leFeatures: coded ? [.leExtendedAdvertising, .leCodedPHY] : [.leExtendedAdvertising],
                                             supportedCommands: HCI.SupportedCommands(commands))), at: 0)
        return gap
    }

    private func commands(_ outputs: [GAPOutput]) -> [any HCICommand] {
        outputs.compactMap { if case let .submit(command, _) = $0 { command } else { nil } }
    }

    @Test("A PHY update naming LE Coded is refused by name without the feature, and sends the coding asked for with it")
    func phyUpdateToCoded() throws {
        var plain = core(coded: false)
        _ = plain.handle(.event(.leMeta(.connectionComplete(.init(
            status: .success, connectionHandle: 1, role: .central, peerAddressType: .public, peerAddress: BluetoothAddress(0xA1),
            connectionInterval: 24, peripheralLatency: 0, supervisionTimeout: 200, centralClockAccuracy: .ppm500)))), at: 0)
        #expect(throws: GAPError.codedPHYUnsupported) {
            try plain.setPHY(1, tx: .leCoded, rx: .leCoded, at: 0)
        }
        #expect(try commands(plain.setPHY(1, tx: .le2M, rx: .le2M, at: 0)).count == 1)
        var coded = core(coded: true)
        _ = coded.handle(.event(.leMeta(.connectionComplete(.init(
            status: .success, connectionHandle: 1, role: .central, peerAddressType: .public, peerAddress: BluetoothAddress(0xA1),
            connectionInterval: 24, peripheralLatency: 0, supervisionTimeout: 200, centralClockAccuracy: .ppm500)))), at: 0)
        let sent = try commands(coded.setPHY(1, tx: .leCoded, rx: .leCoded, codedOptions: .s2, at: 0))
        #expect(sent.compactMap { $0 as? HCI.LESetPHY } == [HCI.LESetPHY(
            connectionHandle: 1, txPHYs: .leCoded, rxPHYs: .leCoded, phyOptions: .s2)])
    }

    @Test("An extended scan on LE Coded, or on both PHYs, asks for each with the same interval and window")
    func scanPHYs() throws {
        var gap = core(coded: true)
        let both = try gap.startScanning(GAPScanParameters(active: false, interval: 0x60, window: 0x30, extended: true,
                                                           extendedPHYs: [.le1M, .leCoded]), at: 0)
        let parameters = try #require(commands(both).first as? HCI.LESetExtendedScanParameters)
        let expected = HCI.LESetExtendedScanParameters.PHYParameters(scanType: .passive, scanInterval: 0x60, scanWindow: 0x30)
        #expect(parameters.le1M == expected && parameters.leCoded == expected)
        var codedOnly = core(coded: true)
        let coded = try codedOnly.startScanning(GAPScanParameters(extended: true, extendedPHYs: .leCoded), at: 0)
        let codedParameters = try #require(commands(coded).first as? HCI.LESetExtendedScanParameters)
        #expect(codedParameters.le1M == nil && codedParameters.leCoded != nil)
    }

    @Test("Coded is refused by name on a controller without the feature, and a scan on no PHY or on 2M is refused")
    func refusals() {
        var gap = core(coded: false)
        #expect(throws: GAPError.codedPHYUnsupported) { try gap.startScanning(GAPScanParameters(extended: true, extendedPHYs: .leCoded), at: 0) }
        #expect(throws: GAPError.codedPHYUnsupported) {
            try gap.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .coded()), at: 0)
        }
        #expect(throws: GAPError.codedPHYUnsupported) {
            try gap.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(secondaryPHY: .leCoded)), at: 0)
        }
        #expect(GAPError.codedPHYUnsupported.description.contains("LE Coded PHY"))
        var coded = core(coded: true)
        #expect(throws: GAPError.unsupportedScanPHYs(0)) { try coded.startScanning(GAPScanParameters(extended: true, extendedPHYs: []), at: 0) }
        #expect(throws: GAPError.unsupportedScanPHYs(0x03)) {
            try coded.startScanning(GAPScanParameters(extended: true, extendedPHYs: [.le1M, .le2M]), at: 0)
        }
        #expect(throws: GAPError.self) {
            try coded.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .init(primaryPHY: .le2M)), at: 0)
        }
        #expect(!coded.isScanning && !coded.isAdvertising)
    }

    @Test("A Coded set asks for LE Coded on the primary and secondary channels")
    func advertisingPHYs() throws {
        var gap = core(coded: true)
        let start = try gap.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .coded(sid: 2)), at: 0)
        let parameters = try #require(commands(start).first as? HCI.LESetExtendedAdvertisingParameters)
        #expect(parameters.primaryAdvertisingPHY == .leCoded && parameters.secondaryAdvertisingPHY == .leCoded && parameters.advertisingSID == 2)
    }

    @Test("A coding goes in [v2]'s PHY options when the controller claims [v2], and is refused by name when it does not")
    func coding() throws {
        var gap = core(coded: true, v2: true)
        let start = try gap.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, extended: .coded(sid: 1, codedPHYOptions: .requireS2)), at: 0)
        let command = try #require(commands(start).first as? HCI.LESetExtendedAdvertisingParametersV2)
        #expect(command.primaryAdvertisingPHYOptions == .requireS2 && command.secondaryAdvertisingPHYOptions == .requireS2)
        #expect(command.parameters.primaryAdvertisingPHY == .leCoded && command.parameters.advertisingSID == 1)
        // On a 1M primary with a Coded secondary, only the secondary gets the options.
        var mixed = core(coded: true, v2: true)
        let mixedStart = try mixed.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, extended: .init(secondaryPHY: .leCoded, codedPHYOptions: .preferS8)), at: 0)
        let mixedCommand = try #require(commands(mixedStart).first as? HCI.LESetExtendedAdvertisingParametersV2)
        #expect(mixedCommand.primaryAdvertisingPHYOptions == .noPreference && mixedCommand.secondaryAdvertisingPHYOptions == .preferS8)
        var old = core(coded: true)
        #expect(throws: GAPError.self) {
            try old.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .coded(codedPHYOptions: .requireS2)), at: 0)
        }
        // Without a coding, [v1] is sent, whatever the controller claims.
        let plain = try old.startAdvertising(GAPAdvertisingParameters(kind: .nonConnectable, extended: .coded()), at: 0)
        #expect(commands(plain).first is HCI.LESetExtendedAdvertisingParameters)
    }

    @Test("Over a world: our host's Coded set reaches another host's Coded scan, reported on LE Coded both ways")
    func hostToHost() async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let (running, advertiser, scanner) = (pair.running, pair.advertiser, pair.scanner)
        let data = ExtendedScanTests.longStructures
        try await advertiser.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, data: data, extended: .coded(sid: 5, codedPHYOptions: .requireS2)))
        let heard = try await scanner.startScanning(GAPScanParameters(
            active: false, interval: 0xA0, window: 0xA0, extended: true, extendedPHYs: [.le1M, .leCoded]))
        let seen = try await firstElement(of: heard, within: patience) { $0.address == running.addresses[0] }
        #expect(seen.advertisingBytes == data.encoded())
        #expect(seen.extended?.primaryPHY == .leCoded && seen.extended?.secondaryPHY == .leCoded && seen.extended?.advertisingSID == 5)
        try await scanner.stopScanning()
        try await advertiser.stopAdvertising()
    }
}
