import ArgumentParser
import BLE

/// The options every `ble ancs` and `ble ams` command shares: the controller, a capture,
/// the address to use, and the output format; and opening the device they describe.
struct AccessoryDeviceOptions: ParsableArguments {
    @Flag(help: "One JSON object per line and event instead of sentences.")
    var json = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet through the host to this btsnoop file.")
    var snoop: String?

    @Option(help: "Use this random static address (e.g. C0:5F:00:00:00:01) instead of the controller's public one.")
    var ownAddress: String?

    func validate() throws {
        try ArgumentChecks.ownAddress(ownAddress)
    }

    /// Opens the controller (bonds kept in memory) and sets the random static address asked for.
    func open() async throws -> BLEDevice {
        let device: BLEDevice
        do {
            device = try await BLEDevice.open(hci: hci, snoop: snoop, bonds: .memory)
        } catch {
            throw CommandFailure("Cannot open the controller: \(error).")
        }
        if let address = ownAddress.flatMap({ BluetoothAddress($0, kind: .random) }) {
            do {
                try await device.useRandomStaticAddress(address)
            } catch {
                await device.close()
                throw CommandFailure("Cannot use \(address): \(error).")
            }
        }
        return device
    }
}
