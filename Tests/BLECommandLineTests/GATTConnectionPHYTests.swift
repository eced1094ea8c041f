@testable import BLECommandLine
import BLEHost
import BLEWire
import Testing

/// `ble gatt … --phy 1m|2m|coded`: the PHYs it initiates and scans on, and the controllers it
/// refuses with a sentence before connecting (Core 5.4, Vol 4, Part E, §7.8.66).
@Suite("ble gatt --phy")
struct GATTConnectionPHYTests {
    static let extended: [HCI.SupportedCommands.Entry] = [.leExtendedCreateConnection, .leSetExtendedScanParameters, .leSetExtendedScanEnable]

    @Test("1m, 2m and coded in any letter case name their initiating and scanning PHYs; anything else is no PHY")
    func parsing() {
        #expect(GATTConnectionPHY("1M")?.initiatingPHYs == .le1M)
        #expect(GATTConnectionPHY("2m")?.initiatingPHYs == [.le1M, .le2M])
        #expect(GATTConnectionPHY("Coded")?.initiatingPHYs == .leCoded)
        #expect(GATTConnectionPHY("coded")?.scanningPHYs == .leCoded && GATTConnectionPHY("2m")?.scanningPHYs == .le1M)
        #expect(GATTConnectionPHY("s8") == nil)
        #expect(throws: (any Error).self) { try GATTConnectionOptions.parse(["C0:11:22:33:44:55", "--phy", "3m"]) }
        #expect((try? GATTConnectionOptions.parse(["C0:11:22:33:44:55", "--phy", "coded"]))?.phy == "coded")
    }

    @Test("A controller without the extended commands, or without LE Coded for coded, is refused with a sentence")
    func refusals() throws {
        let legacy = ControllerInfo(supportedCommands: HCI.SupportedCommands([.leCreateConnection, .leSetScanEnable]))
        do {
            try GATTConnectionPHY.oneMegabit.check(legacy)
            Issue.record("a legacy controller was not refused")
        } catch let failure as CommandFailure {
            #expect(failure.description.hasPrefix("--phy needs a controller that connects with LE Extended Create Connection"))
        }
        let uncoded = ControllerInfo(supportedCommands: HCI.SupportedCommands(Self.extended))
        try GATTConnectionPHY.twoMegabit.check(uncoded)
        #expect(throws: CommandFailure.self) { try GATTConnectionPHY.coded.check(uncoded) }
        try GATTConnectionPHY.coded.check(ControllerInfo(leFeatures: .leCodedPHY, supportedCommands: HCI.SupportedCommands(Self.extended)))
    }
}
