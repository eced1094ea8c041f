import Foundation

/// What a ``CBPeripheralManager`` tells its app (Core Bluetooth's
/// `CBPeripheralManagerDelegate`), on the manager's queue (the main queue by default). Only
/// ``peripheralManagerDidUpdateState(_:)`` is required; the others default to doing nothing.
public protocol CBPeripheralManagerDelegate: NSObjectProtocol {
    /// The manager's ``CBManager/state`` changed: wait for ``CBManagerState/poweredOn``
    /// before adding services or advertising.
    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager)
    /// State restoration, the first call to a manager made with
    /// ``CBPeripheralManagerOptionRestoreIdentifierKey`` that takes over the preserved one of
    /// its app's last run on a simulated iPhone (iOS research §5, §9 rules 13–14): `dict`
    /// holds ``CBPeripheralManagerRestoredStateServicesKey`` (the published
    /// `[CBMutableService]`) and ``CBPeripheralManagerRestoredStateAdvertisementDataKey``
    /// (the advertisement data in use); `peripheralManagerDidUpdateState(_:)` follows. Never
    /// called off a phone: no process is relaunched for an app there.
    func peripheralManager(_ peripheral: CBPeripheralManager, willRestoreState dict: [String: Any])
    /// ``CBPeripheralManager/startAdvertising(_:)`` finished: `error` says why it did not start.
    func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?)
    /// ``CBPeripheralManager/add(_:)`` finished: the service is published, or `error` says why not.
    func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?)
    /// A central enabled notifications or indications of `characteristic` (it wrote its
    /// Client Characteristic Configuration, Core 5.4, Vol 3, Part G, §3.3.3.3).
    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic)
    /// A central disabled them, or disconnected.
    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didUnsubscribeFrom characteristic: CBCharacteristic)
    /// A central reads a characteristic created without a value: set the request's value
    /// (from its offset on) and call ``CBPeripheralManager/respond(to:withResult:)`` once.
    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest)
    /// A central writes characteristics created without a value, one write or the parts of
    /// one long or reliable write: respond once, to the first request, for all of them.
    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest])
    /// ``CBPeripheralManager/updateValue(_:for:onSubscribedCentrals:)`` returned `false`
    /// and the transmit queue has room again.
    func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager)
    /// ``CBPeripheralManager/publishL2CAPChannel(withEncryption:)`` finished.
    func peripheralManager(_ peripheral: CBPeripheralManager, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?)
    /// ``CBPeripheralManager/unpublishL2CAPChannel(_:)`` finished.
    func peripheralManager(_ peripheral: CBPeripheralManager, didUnpublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?)
    /// A central opened a channel to a published PSM.
    func peripheralManager(_ peripheral: CBPeripheralManager, didOpen channel: CBL2CAPChannel?, error: (any Error)?)

    // Old code spells delegate methods with implicitly unwrapped parameters, as the Swift 1
    // SDKs imported them; Apple's Objective-C protocols call those too. The default of each
    // method above forwards to its spelling here, so either spelling is called.

    /// ``peripheralManager(_:willRestoreState:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, willRestoreState dict: [String: Any]!)
    /// ``peripheralManagerDidStartAdvertising(_:error:)`` spelled with implicitly unwrapped parameters.
    func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager!, error: (any Error)!)
    /// ``peripheralManager(_:didAdd:error:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, didAdd service: CBService!, error: (any Error)!)
    /// ``peripheralManager(_:central:didSubscribeTo:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, central: CBCentral!, didSubscribeTo characteristic: CBCharacteristic!)
    /// ``peripheralManager(_:central:didUnsubscribeFrom:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, central: CBCentral!, didUnsubscribeFrom characteristic: CBCharacteristic!)
    /// ``peripheralManager(_:didReceiveRead:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, didReceiveRead request: CBATTRequest!)
    /// ``peripheralManager(_:didReceiveWrite:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, didReceiveWrite requests: [CBATTRequest]!)
    /// ``peripheralManagerIsReady(toUpdateSubscribers:)`` spelled with implicitly unwrapped parameters.
    func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager!)
    /// ``peripheralManager(_:didPublishL2CAPChannel:error:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)!)
    /// ``peripheralManager(_:didUnpublishL2CAPChannel:error:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, didUnpublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)!)
    /// ``peripheralManager(_:didOpen:error:)`` spelled with implicitly unwrapped parameters.
    func peripheralManager(_ peripheral: CBPeripheralManager!, didOpen channel: CBL2CAPChannel!, error: (any Error)!)
}

extension CBPeripheralManagerDelegate {
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, willRestoreState dict: [String: Any]) {
        self.peripheralManager(peripheral as CBPeripheralManager?, willRestoreState: dict)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {
        self.peripheralManagerDidStartAdvertising(peripheral as CBPeripheralManager?, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        self.peripheralManager(peripheral as CBPeripheralManager?, didAdd: service, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {
        self.peripheralManager(peripheral as CBPeripheralManager?, central: central, didSubscribeTo: characteristic)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didUnsubscribeFrom characteristic: CBCharacteristic) {
        self.peripheralManager(peripheral as CBPeripheralManager?, central: central, didUnsubscribeFrom: characteristic)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one (with neither, the request times out at the central after 30 s).
    public func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest) {
        self.peripheralManager(peripheral as CBPeripheralManager?, didReceiveRead: request)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one (with neither, the requests time out at the central after 30 s).
    public func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {
        self.peripheralManager(peripheral as CBPeripheralManager?, didReceiveWrite: requests)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        self.peripheralManagerIsReady(toUpdateSubscribers: peripheral as CBPeripheralManager?)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?) {
        self.peripheralManager(peripheral as CBPeripheralManager?, didPublishL2CAPChannel: PSM, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didUnpublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?) {
        self.peripheralManager(peripheral as CBPeripheralManager?, didUnpublishL2CAPChannel: PSM, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {
        self.peripheralManager(peripheral as CBPeripheralManager?, didOpen: channel, error: error)
    }
}

/// How quickly a peripheral wants its central to answer (Core Bluetooth's
/// `CBPeripheralManagerConnectionLatency`, Apple's raw values); see
/// ``CBPeripheralManager/setDesiredConnectionLatency(_:for:)``.
public enum CBPeripheralManagerConnectionLatency: Int, Sendable {
    /// Quick exchanges, more power.
    case low = 0
    /// A balance (the default).
    case medium = 1
    /// Less power, slower exchanges.
    case high = 2
}

/// Whether the app may share data through Bluetooth in the background (Core Bluetooth's
/// deprecated `CBPeripheralManagerAuthorizationStatus`, Apple's raw values); Linux asks no
/// permission, so it is always ``authorized``.
@available(*, deprecated, message: "use CBManager.authorization")
public enum CBPeripheralManagerAuthorizationStatus: Int, Sendable {
    /// The user has not been asked.
    case notDetermined = 0
    /// Restricted, e.g. by a policy.
    case restricted = 1
    /// The user denied it.
    case denied = 2
    /// Allowed: the only value on Linux.
    case authorized = 3
}

extension CBPeripheralManager {
    /// ``CBPeripheralManagerAuthorizationStatus/authorized``: Linux asks no permission.
    @available(*, deprecated, message: "use CBManager.authorization")
    public class func authorizationStatus() -> CBPeripheralManagerAuthorizationStatus { .authorized }
}
