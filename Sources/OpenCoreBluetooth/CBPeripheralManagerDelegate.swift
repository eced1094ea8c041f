import Foundation

/// What a ``CBPeripheralManager`` tells its app (Core Bluetooth's
/// `CBPeripheralManagerDelegate`), on the manager's queue (the main queue by default). Only
/// ``peripheralManagerDidUpdateState(_:)`` is required; the others default to doing nothing.
public protocol CBPeripheralManagerDelegate: NSObjectProtocol {
    /// The manager's ``CBManager/state`` changed: wait for ``CBManagerState/poweredOn``
    /// before adding services or advertising.
    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager)
    /// State restoration (never called on Linux: no process is relaunched for an app).
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
}

extension CBPeripheralManagerDelegate {
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, willRestoreState dict: [String: Any]) {}
    /// Does nothing.
    public func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {}
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {}
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {}
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didUnsubscribeFrom characteristic: CBCharacteristic) {}
    /// Does nothing (the request then times out at the central after 30 s).
    public func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest) {}
    /// Does nothing (the requests then time out at the central after 30 s).
    public func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {}
    /// Does nothing.
    public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {}
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?) {}
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didUnpublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?) {}
    /// Does nothing.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {}
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
