import ArgumentParser
import BLEController
import BLEWire
import BLEWorld
import Foundation

/// `ble scan`: discover advertisers, as `bluetoothctl scan on` and Core Bluetooth's
/// `scanForPeripherals` do. Today it scans the embedded simulated world (`--hci sim`, the
/// default, or `sim:FILE.yaml`) through real HCI to the world's controller; the host core
/// brings the other controllers.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan for advertising devices and show them as a live table or JSON lines."
    )

    @Option(help: "How long to scan, in seconds.")
    var seconds: Double = 10

    @Flag(help: "Passive scanning: no scan requests, so no scan responses.")
    var passive = false

    @Flag(help: "Report every advertisement, not only new devices and changed data.")
    var duplicates = false

    @Option(help: "Only devices advertising this service UUID (repeatable), e.g. 180D or 0x180D.")
    var service: [String] = []

    @Flag(help: "One JSON object per line and advertisement instead of the table.")
    var json = false

    @Flag(help: "Scan with the extended commands (Bluetooth 5): extended advertisements too, their data up to 1,650 octets reassembled.")
    var extended = false

    @Option(help: "With --extended: the primary PHY to listen on, 1m, coded (LE Coded advertisers, heard further) or both (in turn).")
    var phy: String = "1m"

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet of the scanning controller to this btsnoop file.")
    var snoop: String?

    @Option(help: "The simulated world's seed (default: the scenario's).")
    var seed: UInt64?

    @OptionGroup(title: "Privacy") var privacyOptions: PrivacyOptions

    func validate() throws {
        try ArgumentChecks.duration(seconds, option: "--seconds", maximum: 86_400)
        try ArgumentChecks.uuids(service, option: "--service")
        guard scanPHYs != nil else { throw ValidationError("--phy \(phy) is not 1m, coded or both.") }
        if !extended, phy.lowercased() != "1m" { throw ValidationError("--phy \(phy) chooses an extended scan's PHYs: add --extended.") }
    }

    /// The Scanning_PHYs `--phy` names, or `nil` for a value it does not know.
    var scanPHYs: HCI.LEPHYs? {
        switch phy.lowercased() {
        case "1m": .le1M
        case "coded": .leCoded
        case "both": [.le1M, .leCoded]
        default: nil
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        try await runOnHost()
    }
}
