import BLE
import Foundation

/// A characteristic descriptor: more about a characteristic's value, e.g. its Client
/// Characteristic Configuration or User Description (Core Bluetooth's `CBDescriptor`;
/// Core 5.4, Vol 3, Part G, §3.3.3).
open class CBDescriptor: CBAttribute, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// The characteristic the descriptor belongs to.
    open internal(set) weak var characteristic: CBCharacteristic?
    /// The last value read, typed as Core Bluetooth types it: `NSNumber` for the extended
    /// properties and client/server configuration descriptors, `String` for the user
    /// description, `Data` for the others.
    open internal(set) var value: Any?

    /// Where the descriptor lies on the peer's server, for a remote descriptor.
    var remote: RemoteDescriptor?

    init(uuid: CBUUID, value: Any?) {
        self.value = value
        super.init(uuid: uuid)
    }

    /// A remote descriptor of `characteristic`.
    init(remote: RemoteDescriptor, characteristic: CBCharacteristic) {
        self.remote = remote
        self.characteristic = characteristic
        super.init(uuid: CBUUID(remote.uuid))
    }
}

/// A descriptor this device publishes with its characteristic (Core Bluetooth's
/// `CBMutableDescriptor`). As on Apple platforms only the User Description (a `String`)
/// and Presentation Format (`Data`) descriptors may be made; the Client Characteristic
/// Configuration descriptor is added by the stack.
open class CBMutableDescriptor: CBDescriptor, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// A descriptor of type `UUID` with `value` (a `String` for the User Description,
    /// `Data` otherwise). On the main actor, as the value (`Any`) is not Sendable.
    public init(type UUID: CBUUID, value: Any?) {
        super.init(uuid: UUID, value: value)
    }
}
