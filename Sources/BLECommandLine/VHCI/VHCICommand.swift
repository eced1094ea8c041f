import ArgumentParser
import BLETransport
import BLEWire
import Foundation

/// `ble vhci`: hands a controller to this machine's Linux kernel through `/dev/vhci`, so it
/// appears as an adapter `hciN` to BlueZ and every Linux Bluetooth program, for as long as
/// the command runs (drivers/bluetooth/hci_vhci.c; see ``VHCI``).
struct VHCICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vhci",
        abstract: "Attach a controller to the local Linux kernel as an adapter hciN, through /dev/vhci.",
        discussion: """
            Any controller our transports reach: a device of `ble sim serve` (tcp:127.0.0.1:PORT), Bumble, \
            RootCanal, a serial dongle (serial:DEV[@BAUD]). Prints one line READY {"index": N, "interface": "hciN", \
            "hci": SPEC} once the kernel has the adapter, then relays HCI packets until either side closes or the \
            command is stopped; the adapter goes away with it. Needs read and write access to /dev/vhci \
            (root; `modprobe hci_vhci` loads it).
            """
    )

    @Option(help: "The controller to attach: tcp:HOST:PORT, unix:PATH, serial:DEV[@BAUD] or hci:N.")
    var hci: String

    @Option(help: "The kernel's virtual HCI device.")
    var device: String = VHCITransport.defaultPath

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let spec: HCITransportSpec
        do {
            spec = try HCITransportSpec(parsing: hci)
        } catch {
            throw CommandFailure(Self.ending("\(error)"))
        }
        guard !spec.isSimulated else {
            throw CommandFailure("\(spec) is an embedded world, which the kernel cannot reach: serve it with `ble sim serve` "
                                 + "and attach a device with --hci tcp:127.0.0.1:PORT.")
        }
        let controller: any HCITransport
        do {
            controller = try await spec.open()
        } catch {
            throw CommandFailure(Self.ending("Cannot open the controller: \(error)"))
        }
        let kernel: VHCITransport
        do {
            kernel = try await VHCITransport.open(path: device)
        } catch {
            await controller.close()
            throw CommandFailure(Self.ending("Cannot attach \(spec) to the kernel: \(error)"))
        }
        let index = kernel.response.index
        let name = kernel.response.interfaceName
        // Written straight to the descriptor, so a parent reading a pipe sees it at once.
        FileHandle.standardOutput.write(Data("READY {\"index\": \(index), \"interface\": \"\(name)\", \"hci\": \"\(spec)\"}\n".utf8))
        let ending = await VHCIBridge.run(kernel: kernel, controller: controller)
        throw CommandFailure(Self.ending("\(name) is gone: \(Self.sentence(for: ending, spec: spec))"))
    }

    /// `text` ended with a full stop, unless it ends with punctuation already.
    static func ending(_ text: String) -> String {
        guard let last = text.last, !".?!".contains(last) else { return text }
        return text + "."
    }

    /// Why the bridge ended, naming the side in the user's terms.
    static func sentence(for ending: VHCIBridge.Ending, spec: HCITransportSpec) -> String {
        switch (ending.side, ending.error) {
        case (.controller, nil): return "the controller at \(spec) closed the connection"
        case let (.controller, error?): return "the controller at \(spec) failed: \(error.message)"
        case (.kernel, nil): return "the kernel closed /dev/vhci"
        case let (.kernel, error?): return error.message
        }
    }
}
