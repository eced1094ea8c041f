import Foundation

/// A central's read or write of a local characteristic the app answers (Core Bluetooth's
/// `CBATTRequest`), handed to `CBPeripheralManagerDelegate`'s `didReceiveRead` /
/// `didReceiveWrite` and answered once with `CBPeripheralManager.respond(to:withResult:)`
/// (an ATT Read / Write Response or Error Response, Core 5.4, Vol 3, Part F, §3.4).
open class CBATTRequest: NSObject, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// The central asking.
    public let central: CBCentral
    /// The characteristic read or written.
    public let characteristic: CBCharacteristic
    /// Where in the value the read or write starts (non-zero for long reads and writes,
    /// Vol 3, Part F, §3.4.4.5 and §3.4.6.1).
    public let offset: Int
    /// For a write, the value written; for a read, set it to the value (from ``offset``)
    /// before responding.
    open var value: Data?

    /// Whatever the peripheral manager needs to answer the request (the link, the ATT
    /// exchange, whether it was answered): the manager's business.
    var serverContext: (any Sendable)?

    init(central: CBCentral, characteristic: CBCharacteristic, offset: Int, value: Data?) {
        self.central = central
        self.characteristic = characteristic
        self.offset = offset
        self.value = value
        super.init()
    }
}
