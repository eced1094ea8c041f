import BLETransport
import BLEWire
import BLEWorld

/// `ble sim serve --vhci`: the served devices' controllers handed to this machine's Linux
/// kernel, each as an adapter `hciN` (see ``VHCICommand``), instead of over TCP. Each device
/// gets an in-process transport pair: the world drives its controller end, and
/// ``VHCIBridge`` relays its host end to `/dev/vhci`.
struct KernelAttachedDevice: Sendable {
    /// The served device.
    let device: ServedDevice
    /// The kernel's end: the adapter it created.
    let kernel: VHCITransport
    /// The host end of the device's transport, which the bridge relays to the kernel.
    let host: InProcessTransport
    /// The controller end, which the world drives.
    let controller: InProcessTransport.ControllerEnd

    /// Opens one adapter per device at `path`; if one cannot be opened, closes the others
    /// and throws the sentence that says why.
    static func attach(_ devices: [ServedDevice], path: String) async throws -> [DeviceID: KernelAttachedDevice] {
        var attached: [DeviceID: KernelAttachedDevice] = [:]
        for device in devices {
            do {
                let kernel = try await VHCITransport.open(path: path)
                let (host, controller) = InProcessTransport.makePair()
                attached[device.id] = KernelAttachedDevice(device: device, kernel: kernel, host: host, controller: controller)
            } catch {
                for attachment in attached.values { await attachment.kernel.close() }
                throw CommandFailure(VHCICommand.ending("Cannot attach \(device.name) to the kernel: \(error)"))
            }
        }
        return attached
    }

    /// Hands a packet the device's controller sent to the kernel, in order.
    func deliver(_ packet: H4.Packet) {
        device.record(packet, fromHost: false)
        controller.send(packet)
    }

    /// Starts relaying: what the kernel sends goes to the device's controller through
    /// `runner`; when the bridge ends, says why on stderr (the other devices go on).
    func start(runner: WorldRunner) {
        let device = self.device
        let controller = self.controller
        Task {
            for await packet in controller.packets {
                device.record(packet, fromHost: true)
                runner.submit(packet, to: device.id)
            }
        }
        let kernel = self.kernel
        let host = self.host
        Task {
            let ending = await VHCIBridge.run(kernel: kernel, controller: host)
            printError("\(kernel.response.interfaceName) (\(device.name)) is gone: \(ending).")
        }
    }
}
