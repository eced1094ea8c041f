import Foundation
import Synchronization

/// A remote device (Core Bluetooth's `CBPeer`): a ``CBPeripheral`` seen by a central
/// manager or a ``CBCentral`` connected to a peripheral manager.
open class CBPeer: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    private let peerIdentifier: UUID

    /// The peer's identifier: stable across runs for the same peer seen from the same
    /// controller (derived from both addresses, or the bond's identifier), and different
    /// for another observer, as on Apple platforms.
    open var identifier: UUID { peerIdentifier }

    init(identifier: UUID) {
        peerIdentifier = identifier
        super.init()
    }

    /// The peer itself: a peer object stands for the device.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A central connected to this device's peripheral manager (Core Bluetooth's `CBCentral`).
open class CBCentral: CBPeer, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    let updateLength: Mutex<Int>

    init(identifier: UUID, maximumUpdateValueLength: Int = 20) {
        updateLength = Mutex(maximumUpdateValueLength)
        super.init(identifier: identifier)
    }

    /// The longest value one notification or indication to this central carries: the
    /// link's ATT_MTU less 3 (Core 5.4, Vol 3, Part F, §3.4.7.1), 20 before an MTU exchange.
    open var maximumUpdateValueLength: Int { updateLength.withLock { $0 } }

    /// Records the length after an MTU exchange (`mtu - 3`).
    func setMaximumUpdateValueLength(_ length: Int) {
        updateLength.withLock { $0 = length }
    }
}
