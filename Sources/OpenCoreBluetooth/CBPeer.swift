import Foundation
import Synchronization

/// A remote device (Core Bluetooth's `CBPeer`): a ``CBPeripheral`` seen by a central
/// manager or a ``CBCentral`` connected to a peripheral manager.
@MainActor
open class CBPeer: NSObject, NSCopying {
    nonisolated private let peerIdentifier: UUID

    /// The peer's identifier: stable across runs for the same peer seen from the same
    /// controller (derived from both addresses, or the bond's identifier), and different
    /// for another observer, as on Apple platforms.
    nonisolated open var identifier: UUID { peerIdentifier }

    nonisolated init(identifier: UUID) {
        peerIdentifier = identifier
        super.init()
    }

    /// The peer itself: a peer object stands for the device.
    nonisolated public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A central connected to this device's peripheral manager (Core Bluetooth's `CBCentral`).
@MainActor
open class CBCentral: CBPeer {
    nonisolated let updateLength: Mutex<Int>

    nonisolated init(identifier: UUID, maximumUpdateValueLength: Int = 20) {
        updateLength = Mutex(maximumUpdateValueLength)
        super.init(identifier: identifier)
    }

    /// The longest value one notification or indication to this central carries: the
    /// link's ATT_MTU less 3 (Core 5.4, Vol 3, Part F, §3.4.7.1), 20 before an MTU exchange.
    nonisolated open var maximumUpdateValueLength: Int { updateLength.withLock { $0 } }

    /// Records the length after an MTU exchange (`mtu - 3`).
    nonisolated func setMaximumUpdateValueLength(_ length: Int) {
        updateLength.withLock { $0 = length }
    }
}
