import Foundation

/// What services, characteristics and descriptors share: a UUID naming their type
/// (Core Bluetooth's `CBAttribute`; an attribute's type, Core 5.4, Vol 3, Part F, §3.2.1).
///
/// The attribute classes belong to their manager's queue, as the managers do (see
/// ``CBManager``): they are handed to the delegate there and changed there. Their ``uuid``
/// is readable anywhere.
open class CBAttribute: NSObject, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    private let attributeType: CBUUID

    /// The attribute's type, e.g. `180D` for a Heart Rate service.
    open var uuid: CBUUID { attributeType }

    init(uuid: CBUUID) {
        attributeType = uuid
        super.init()
    }
}
