import Foundation

/// What a ``CBCentralManager`` tells its delegate (Core Bluetooth's
/// `CBCentralManagerDelegate`), on the manager's queue: the `queue:` it was made with, the
/// main queue when that was `nil`.
///
/// On Apple platforms all but ``centralManagerDidUpdateState(_:)`` are `@objc optional`;
/// Linux has no Objective-C runtime, so each has a default that does nothing (in an
/// extension) and a class implements the ones it wants with Apple's signatures, or with
/// every object parameter implicitly unwrapped (`didConnect peripheral: CBPeripheral!`), as
/// code written against the Swift 1 SDKs spells them: both are called. Any other spelling
/// (plain optionals, a misspelt label) is a new method that is never called, as with
/// Apple's optional requirements; the compiler warns ("nearly matches") only when the
/// method is declared in the extension that declares the conformance. As on Apple platforms the protocol has no actor: a main-actor class
/// conforms with `@preconcurrency` (its manager on the main queue), a class of its own
/// queue with `nonisolated` methods or as `@unchecked Sendable`.
public protocol CBCentralManagerDelegate: NSObjectProtocol {
    /// The manager's ``CBManager/state`` changed: first from ``CBManagerState/unknown`` to
    /// ``CBManagerState/poweredOn`` (or ``CBManagerState/unsupported``) soon after creation.
    /// Scan and connect only once it is powered on (`centralManagerDidUpdateState:`).
    func centralManagerDidUpdateState(_ central: CBCentralManager)
    /// Called first, before ``centralManagerDidUpdateState(_:)``, when the manager was made
    /// with ``CBCentralManagerOptionRestoreIdentifierKey``; Linux does not relaunch apps, so
    /// `dict` holds no peripherals (`centralManager:willRestoreState:`).
    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any])
    /// A scan found `peripheral`: its advertising and scan response data under the
    /// `CBAdvertisementData…Key`s, and the signal strength in dBm (127 when unknown)
    /// (`centralManager:didDiscoverPeripheral:advertisementData:RSSI:`).
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber)
    /// `connect(_:options:)` succeeded (`centralManager:didConnectPeripheral:`).
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral)
    /// `connect(_:options:)` failed (`centralManager:didFailToConnectPeripheral:error:`).
    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?)
    /// The link to `peripheral` went down: `error` is `nil` after
    /// ``CBCentralManager/cancelPeripheralConnection(_:)``, else a ``CBError``
    /// (`centralManager:didDisconnectPeripheral:error:`).
    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?)
    /// The link to `peripheral` went down, with when and whether the system reconnects (never,
    /// on Linux). This is the one the manager calls; unless a delegate implements it, it calls
    /// ``centralManager(_:didDisconnectPeripheral:error:)-6or31``, as Core Bluetooth calls that one
    /// only when this one is not implemented
    /// (`centralManager:didDisconnectPeripheral:timestamp:isReconnecting:error:`).
    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, timestamp: CFAbsoluteTime,
                        isReconnecting: Bool, error: (any Error)?)
    /// A connection event matching `registerForConnectionEvents(options:)`. Never called on
    /// Linux: it reports other apps' connections, and a SwiftBLE process sees only its own
    /// (`centralManager:connectionEventDidOccur:forPeripheral:`).
    func centralManager(_ central: CBCentralManager, connectionEventDidOccur event: CBConnectionEvent, for peripheral: CBPeripheral)
    /// The ANCS authorization of `peripheral` changed. Never called on Linux: SwiftBLE
    /// serves no Apple Notification Center Service (`centralManager:didUpdateANCSAuthorizationForPeripheral:`).
    func centralManager(_ central: CBCentralManager, didUpdateANCSAuthorizationFor peripheral: CBPeripheral)

    // Old code spells delegate methods with implicitly unwrapped parameters, as the Swift 1
    // SDKs imported them; Apple's Objective-C protocols call those too. The default of each
    // method above forwards to its spelling here, so either spelling is called.

    /// ``centralManager(_:willRestoreState:)`` spelled with implicitly unwrapped parameters.
    func centralManager(_ central: CBCentralManager!, willRestoreState dict: [String: Any]!)
    /// ``centralManager(_:didDiscover:advertisementData:rssi:)`` spelled with implicitly unwrapped parameters.
    func centralManager(_ central: CBCentralManager!, didDiscover peripheral: CBPeripheral!, advertisementData: [String: Any]!, rssi RSSI: NSNumber!)
    /// ``centralManager(_:didConnect:)`` spelled with implicitly unwrapped parameters.
    func centralManager(_ central: CBCentralManager!, didConnect peripheral: CBPeripheral!)
    /// ``centralManager(_:didFailToConnect:error:)`` spelled with implicitly unwrapped parameters.
    func centralManager(_ central: CBCentralManager!, didFailToConnect peripheral: CBPeripheral!, error: (any Error)!)
    /// ``centralManager(_:didDisconnectPeripheral:error:)`` spelled with implicitly unwrapped parameters.
    func centralManager(_ central: CBCentralManager!, didDisconnectPeripheral peripheral: CBPeripheral!, error: (any Error)!)
}

extension CBCentralManagerDelegate {
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        self.centralManager(central as CBCentralManager?, willRestoreState: dict)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any],
                               rssi RSSI: NSNumber) {
        centralManager(central as CBCentralManager?, didDiscover: peripheral, advertisementData: advertisementData, rssi: RSSI)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        self.centralManager(central as CBCentralManager?, didConnect: peripheral)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        self.centralManager(central as CBCentralManager?, didFailToConnect: peripheral, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
        self.centralManager(central as CBCentralManager?, didDisconnectPeripheral: peripheral, error: error)
    }
    /// Calls ``centralManager(_:didDisconnectPeripheral:error:)`` unless the delegate
    /// implements this one.
    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, timestamp: CFAbsoluteTime,
                               isReconnecting: Bool, error: (any Error)?) {
        centralManager(central, didDisconnectPeripheral: peripheral, error: error)
    }
    /// Does nothing unless the delegate implements it (never called on Linux).
    public func centralManager(_ central: CBCentralManager, connectionEventDidOccur event: CBConnectionEvent, for peripheral: CBPeripheral) {}
    /// Does nothing unless the delegate implements it (never called on Linux).
    public func centralManager(_ central: CBCentralManager, didUpdateANCSAuthorizationFor peripheral: CBPeripheral) {}
}

/// Seconds since 1 January 2001 (Core Foundation's `CFAbsoluteTime`, which Linux's
/// Foundation does not export), the type of the disconnection timestamp.
public typealias CFAbsoluteTime = Double

/// A connection event another app's peripheral caused (Core Bluetooth's `CBConnectionEvent`).
public enum CBConnectionEvent: Int, Sendable {
    /// A matching peer disconnected.
    case peerDisconnected = 0
    /// A matching peer connected.
    case peerConnected = 1
}
