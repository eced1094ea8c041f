import BLE
import Foundation

/// A characteristic: one value of a service, with its properties and descriptors (Core
/// Bluetooth's `CBCharacteristic`; Core 5.4, Vol 3, Part G, §3.3). A remote one is found by
/// ``CBPeripheral/discoverCharacteristics(_:for:)``; a local one is a ``CBMutableCharacteristic``.
open class CBCharacteristic: CBAttribute, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// The service the characteristic belongs to.
    open internal(set) weak var service: CBService?
    /// What may be done with the value.
    open internal(set) var properties: CBCharacteristicProperties
    /// The last value read or notified (remote), or the value given at creation (local).
    open internal(set) var value: Data?
    /// The descriptors found by ``CBPeripheral/discoverDescriptors(for:)``, `nil` until then.
    open internal(set) var descriptors: [CBDescriptor]?
    /// Whether notifications or indications of the value are on
    /// (``CBPeripheral/setNotifyValue(_:for:)``).
    open internal(set) var isNotifying: Bool = false
    /// Always `false`: broadcasting is deprecated in Core Bluetooth and not offered.
    @available(*, deprecated, message: "Core Bluetooth deprecates broadcasting")
    open var isBroadcasted: Bool { false }

    /// Where the characteristic lies on the peer's server, for a remote characteristic.
    var remote: RemoteCharacteristic?

    init(uuid: CBUUID, properties: CBCharacteristicProperties, value: Data?) {
        self.properties = properties
        self.value = value
        super.init(uuid: uuid)
    }

    /// A remote characteristic of `service`.
    init(remote: RemoteCharacteristic, service: CBService) {
        properties = CBCharacteristicProperties(rawValue: UInt(remote.properties.rawValue))
        self.remote = remote
        self.service = service
        super.init(uuid: CBUUID(remote.uuid))
    }
}

/// A characteristic this device publishes (Core Bluetooth's `CBMutableCharacteristic`).
/// One made with a value is read-only and answered by the stack; one made without a value
/// is answered by the app through `CBPeripheralManagerDelegate`'s read and write requests.
open class CBMutableCharacteristic: CBCharacteristic, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// What a central needs to read or write the value.
    open var permissions: CBAttributePermissions
    /// The centrals subscribed to the value's notifications or indications, `nil` while none is.
    open internal(set) var subscribedCentrals: [CBCentral]?

    /// A characteristic of type `UUID`; `value`, when given, makes it a read-only
    /// characteristic whose value the stack serves (Core Bluetooth's rule: `properties`
    /// must then be `.read` only and `permissions` `.readable`).
    public init(type UUID: CBUUID, properties: CBCharacteristicProperties, value: Data?, permissions: CBAttributePermissions) {
        self.permissions = permissions
        super.init(uuid: UUID, properties: properties, value: value)
    }

    /// What may be done with the value; settable before the service is added.
    open override var properties: CBCharacteristicProperties {
        get { super.properties }
        set { super.properties = newValue }
    }

    /// The value; for a characteristic made without one, the last value the app set.
    open override var value: Data? {
        get { super.value }
        set { super.value = newValue }
    }

    /// The characteristic's descriptors (``CBMutableDescriptor``s).
    open override var descriptors: [CBDescriptor]? {
        get { super.descriptors }
        set { super.descriptors = newValue }
    }
}
