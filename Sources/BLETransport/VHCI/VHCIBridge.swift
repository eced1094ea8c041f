import BLEWire
import Glibc

/// Relays packets between the kernel's end of a `/dev/vhci` adapter and a controller,
/// both ways, until one side closes or fails: what `ble vhci` runs. The kernel's commands
/// and data go to the controller; the controller's events and data go to the kernel.
public enum VHCIBridge {
    /// Why a relay ended.
    public struct Ending: Error, Hashable, Sendable, CustomStringConvertible {
        /// The side that closed or failed.
        public var side: VHCI.Side
        /// What went wrong; nil when that side closed cleanly.
        public var error: TransportError?

        /// An ending on `side`, with `error` if it failed.
        public init(side: VHCI.Side, error: TransportError?) {
            self.side = side
            self.error = error
        }

        public var description: String {
            switch (side, error) {
            case (.controller, nil): return "the controller closed the connection"
            case (.kernel, nil): return "the kernel closed /dev/vhci"
            case let (_, error?): return error.message
            }
        }
    }

    /// Relays until one side ends, then closes both and returns why. A packet the kernel
    /// refuses because its adapter is down (`ENXIO`) is dropped, reported to `onDropped`,
    /// and the relay goes on: closing the device would remove the adapter.
    public static func run(
        kernel: VHCITransport,
        controller: any HCITransport,
        onDropped: @escaping @Sendable (H4.Packet, TransportError) -> Void = { _, _ in }
    ) async -> Ending {
        let ending = await withTaskGroup(of: Ending.self) { group in
            group.addTask {
                do {
                    for try await packet in kernel.packets {
                        do throws(TransportError) {
                            try await controller.send(packet)
                        } catch {
                            return Ending(side: .controller, error: error)
                        }
                    }
                    return Ending(side: .kernel, error: nil)
                } catch {
                    return Ending(side: .kernel, error: transportError(error))
                }
            }
            group.addTask {
                do {
                    for try await packet in controller.packets {
                        do throws(TransportError) {
                            try await kernel.send(packet)
                        } catch where error.errno == ENXIO {
                            onDropped(packet, error)
                        } catch {
                            return Ending(side: error.errno == nil ? .controller : .kernel, error: error)
                        }
                    }
                    return Ending(side: .controller, error: nil)
                } catch {
                    return Ending(side: .controller, error: transportError(error))
                }
            }
            let first = await group.next() ?? Ending(side: .kernel, error: nil)
            group.cancelAll()
            return first
        }
        await kernel.close()
        await controller.close()
        return ending
    }

    private static func transportError(_ error: any Error) -> TransportError {
        (error as? TransportError) ?? TransportError("\(error)")
    }
}
