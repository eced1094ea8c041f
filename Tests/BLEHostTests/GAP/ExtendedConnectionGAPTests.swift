import BLEController
@testable import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Testing

/// GAP connecting on chosen PHYs with LE Extended Create Connection (Core 5.4, Vol 4, Part E,
/// §7.8.66): what it refuses, the command it sends, and our hosts connected over a world from
/// a connectable extended set, the link on the set's secondary PHY.
@Suite("Connections on chosen PHYs in GAP", .simulated, .serialized, .timeLimit(.minutes(10)))
struct ExtendedConnectionGAPTests {
    /// A core told at start-up whether the controller claims LE Extended Create Connection and the LE Coded PHY.
    private func core(claiming: Bool, coded: Bool = true) -> GAPCore {
        var gap = GAPCore()
        let commands: [HCI.SupportedCommands.Entry] = claiming ? [.leExtendedCreateConnection, .leCreateConnection] : [.leCreateConnection]
        _ = gap.handle(.ready(ControllerInfo(leFeatures: coded ? [.leCodedPHY] : [], supportedCommands: HCI.SupportedCommands(commands))), at: 0)
        return gap
    }

    static let peer = BluetoothAddress(0xA1)

    @Test("Initiating PHYs are refused by name without the command, without LE 1M or LE Coded, or with Coded but no Coded PHY")
    func refusals() {
        var plain = core(claiming: false)
        #expect(throws: GAPError.extendedConnectionUnsupported) {
            try plain.connect(GAPConnectRequest(peer: Self.peer, initiatingPHYs: .le1M), at: 0)
        }
        var claiming = core(claiming: true)
        #expect(throws: GAPError.unsupportedInitiatingPHYs(0b010)) {
            try claiming.connect(GAPConnectRequest(peer: Self.peer, initiatingPHYs: .le2M), at: 0)
        }
        var uncoded = core(claiming: true, coded: false)
        #expect(throws: GAPError.codedPHYUnsupported) {
            try uncoded.connect(GAPConnectRequest(peer: Self.peer, initiatingPHYs: .leCoded), at: 0)
        }
        #expect(GAPError.extendedConnectionUnsupported.description.contains("LE Extended Create Connection"))
    }

    @Test("A request with initiating PHYs sends LE Extended Create Connection with its parameters on each; without, LE Create Connection")
    func commandSent() throws {
        var gap = core(claiming: true)
        let parameters = HCI.LEConnectionParameters(connectionIntervalMin: 32, connectionIntervalMax: 40, maxLatency: 1, supervisionTimeout: 300)
        let outputs = try gap.connect(GAPConnectRequest(
            peer: Self.peer, parameters: parameters, scanInterval: 0x20, scanWindow: 0x10, initiatingPHYs: [.le1M, .le2M]), at: 0)
        let commands = outputs.compactMap { if case let .submit(command, _) = $0 { command } else { nil } }
        let command = try #require(commands.first as? HCI.LEExtendedCreateConnection)
        let each = HCI.LEExtendedCreateConnection.PHYParameters(scanInterval: 0x20, scanWindow: 0x10, connectionParameters: parameters)
        #expect(command.le1M == each && command.le2M == each && command.leCoded == nil && command.peerAddress == Self.peer)
        var legacy = core(claiming: true)
        let plain = try legacy.connect(GAPConnectRequest(peer: Self.peer), at: 0)
        #expect(plain.contains { if case let .submit(command, _) = $0 { command is HCI.LECreateConnection } else { false } })
    }

    @Test("Over a world: our host connects to our other host's connectable extended set, on its secondary PHY",
          arguments: [(HCI.PHY.le2M, HCI.LEPHYs([.le1M, .le2M])), (.leCoded, .leCoded)])
    func hostToHost(secondary: HCI.PHY, initiating: HCI.LEPHYs) async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let (running, advertiser, central) = (pair.running, pair.advertiser, pair.scanner)
        let primary: HCI.PHY = secondary == .leCoded ? .leCoded : .le1M
        try await advertiser.startAdvertising(GAPAdvertisingParameters(
            kind: .connectable, extended: GAPExtendedAdvertising(primaryPHY: primary, secondaryPHY: secondary)))
        let link = try await central.connect(GAPConnectRequest(
            peer: running.addresses[0], timeout: 20_000_000, initiatingPHYs: initiating))
        let phys = try await central.readPHY(link.handle)
        #expect(phys.tx == secondary && phys.rx == secondary)
        try await central.disconnect(link.handle)
    }
}
