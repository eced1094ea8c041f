import BLEWire
@testable import OpenCoreBluetooth
import Testing

/// `CBCentralManager.supports(_:)`, answered from a controller's Supported Commands (Core 5.4,
/// Vol 4, Part E, §6.27): extended scan and connect needs the extended scanning commands and
/// LE Extended Create Connection.
@Suite("CBCentralManager features")
struct CentralManagerFeatureTests {
    static func controller(_ commands: [HCI.SupportedCommands.Entry]) -> HCI.SupportedCommands {
        HCI.SupportedCommands(commands)
    }

    @Test("A controller with extended scanning and LE Extended Create Connection supports extended scan and connect")
    func claimed() {
        let info = Self.controller([.leSetExtendedScanParameters, .leSetExtendedScanEnable, .leExtendedCreateConnection])
        #expect(CBCentralManager.supports(.extendedScanAndConnect, supportedCommands: info))
        #expect(CBCentralManager.supports([], supportedCommands: nil))
    }

    @Test("Without LE Extended Create Connection, with legacy commands only, or with no controller open, it does not")
    func notClaimed() {
        #expect(!CBCentralManager.supports(.extendedScanAndConnect, supportedCommands: Self.controller([.leSetExtendedScanParameters, .leSetExtendedScanEnable])))
        #expect(!CBCentralManager.supports(.extendedScanAndConnect, supportedCommands: Self.controller([.leSetScanEnable, .leCreateConnection])))
        #expect(!CBCentralManager.supports(.extendedScanAndConnect, supportedCommands: nil))
        #expect(!CBCentralManager.supports(CBCentralManager.Feature(rawValue: 1 << 5), supportedCommands: Self.controller([.leExtendedCreateConnection])))
    }
}
