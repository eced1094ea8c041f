import BLE
import Foundation

/// A service: a group of characteristics serving one purpose (Core Bluetooth's
/// `CBService`; Core 5.4, Vol 3, Part G, §3.1). A remote one is found by
/// ``CBPeripheral/discoverServices(_:)``; a local one is a ``CBMutableService``.
open class CBService: CBAttribute, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// The peripheral the service was discovered on; `nil` for a local service.
    open internal(set) weak var peripheral: CBPeripheral?
    /// Whether the service is primary (what a device is for) rather than secondary
    /// (only included by others), Vol 3, Part G, §2.5.1.
    open internal(set) var isPrimary: Bool
    /// The included services found by ``CBPeripheral/discoverIncludedServices(_:for:)``,
    /// `nil` until then.
    open internal(set) var includedServices: [CBService]?
    /// The characteristics found by ``CBPeripheral/discoverCharacteristics(_:for:)``,
    /// `nil` until then.
    open internal(set) var characteristics: [CBCharacteristic]?

    /// Where the service lies on the peer's server, for a remote service.
    var remote: RemoteService?

    init(uuid: CBUUID, primary: Bool) {
        isPrimary = primary
        super.init(uuid: uuid)
    }

    /// A remote service on `peripheral`.
    init(remote: RemoteService, peripheral: CBPeripheral) {
        isPrimary = remote.isPrimary
        self.remote = remote
        self.peripheral = peripheral
        super.init(uuid: CBUUID(remote.uuid))
    }
}

/// A service this device publishes with `CBPeripheralManager.add(_:)`; its members can be
/// changed until then (Core Bluetooth's `CBMutableService`).
open class CBMutableService: CBService, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// A service of type `UUID`, primary or secondary.
    public init(type UUID: CBUUID, primary isPrimary: Bool) {
        super.init(uuid: UUID, primary: isPrimary)
    }

    /// Whether the service is primary; settable before the service is added.
    open override var isPrimary: Bool {
        get { super.isPrimary }
        set { super.isPrimary = newValue }
    }

    /// The services this one includes (Vol 3, Part G, §3.2); they must be added first.
    open override var includedServices: [CBService]? {
        get { super.includedServices }
        set { super.includedServices = newValue }
    }

    /// The service's characteristics.
    open override var characteristics: [CBCharacteristic]? {
        get { super.characteristics }
        set { super.characteristics = newValue }
    }
}
