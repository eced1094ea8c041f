import Foundation

/// What services, characteristics and descriptors share: a UUID naming their type
/// (Core Bluetooth's `CBAttribute`; an attribute's type, Core 5.4, Vol 3, Part F, §3.2.1).
///
/// The attribute classes are `@MainActor`, as the managers are: they are handed to the
/// delegate on the main queue and changed there. Their ``uuid`` is readable anywhere.
@MainActor
open class CBAttribute: NSObject {
    nonisolated private let attributeType: CBUUID

    /// The attribute's type, e.g. `180D` for a Heart Rate service.
    nonisolated open var uuid: CBUUID { attributeType }

    nonisolated init(uuid: CBUUID) {
        attributeType = uuid
        super.init()
    }
}
