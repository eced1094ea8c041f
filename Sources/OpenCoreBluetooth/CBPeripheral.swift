import BLE
import Foundation

/// The connection state of a ``CBPeripheral`` (Core Bluetooth's `CBPeripheralState`,
/// Apple's raw values).
public enum CBPeripheralState: Int, Sendable {
    /// Not connected.
    case disconnected = 0
    /// `connect(_:options:)` is under way.
    case connecting = 1
    /// Connected.
    case connected = 2
    /// `cancelPeripheralConnection(_:)` is under way.
    case disconnecting = 3
}

/// A remote peripheral a central manager discovered, retrieved or connected to (Core
/// Bluetooth's `CBPeripheral`).
@MainActor
open class CBPeripheral: CBPeer {
    /// The peripheral's name: the GAP Device Name read after connecting, else the local
    /// name last advertised (Core 5.4, Vol 3, Part C, §12.1).
    open internal(set) var name: String?
    /// Whether the peripheral is connected.
    open internal(set) var state: CBPeripheralState = .disconnected
    /// The services found by ``discoverServices(_:)``, `nil` until then.
    open internal(set) var services: [CBService]?

    /// The peer's address (public or random), as last seen.
    var address: BluetoothAddress

    init(identifier: UUID, address: BluetoothAddress, name: String?) {
        self.address = address
        self.name = name
        super.init(identifier: identifier)
    }
}
