import BLE
import Foundation

/// The connection state of a ``CBPeripheral`` (Core Bluetooth's `CBPeripheralState`,
/// Apple's raw values).
public enum CBPeripheralState: Int, Sendable {
    /// Not connected.
    case disconnected = 0
    /// `connect(_:options:)` is under way.
    case connecting = 1
    /// Connected.
    case connected = 2
    /// `cancelPeripheralConnection(_:)` is under way.
    case disconnecting = 3
}

/// A remote peripheral a central manager discovered, retrieved or connected to (Core
/// Bluetooth's `CBPeripheral`), on the front door's `Connection`.
///
/// Requests (discoveries, reads, writes, subscriptions, RSSI, channels) are issued one at
/// a time in the order they were made, and each is answered through the ``delegate`` on the
/// queue of the central manager that found it. Requests made while not connected are
/// ignored, as Core Bluetooth does (it logs "API MISUSE").
open class CBPeripheral: CBPeer, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// Who is told the answers; held weakly, called on the central manager's queue.
    open weak var delegate: (any CBPeripheralDelegate)?
    /// The peripheral's name: the local name it advertised last.
    open internal(set) var name: String?
    /// Whether the peripheral is connected.
    open internal(set) var state: CBPeripheralState = .disconnected
    /// The services found by ``discoverServices(_:)``, `nil` until then.
    open internal(set) var services: [CBService]?
    /// Whether a write without response would be sent now rather than queued: false while
    /// `pendingWritesLimit` writes without response wait; then
    /// `peripheralIsReady(toSendWriteWithoutResponse:)` follows once one is sent.
    open internal(set) var canSendWriteWithoutResponse = true
    /// The RSSI the last ``readRSSI()`` read, `nil` before (Core Bluetooth's deprecated
    /// `RSSI` property, which code written for iOS 7 reads in `peripheralDidUpdateRSSI(_:error:)`).
    open internal(set) var rssi: NSNumber?
    /// Always `false`: SwiftBLE serves no Apple Notification Center Service.
    open var ancsAuthorized: Bool { false }

    /// The peer's address (public or random), as last seen.
    var address: BluetoothAddress
    /// The central manager's ``CBManager/isolation``: where requests run and are answered.
    let isolation: any Actor
    weak var manager: CBCentralManager?
    var connection: Connection?
    var connecting: Task<Void, Never>?
    var watching: Task<Void, Never>?
    /// Reads the link's Service Changed ranges once services were discovered on it.
    var serviceChangeWatch: Task<Void, Never>?
    /// Whether Service Changed is watched (or being turned on) on the current link.
    var watchesServiceChanges = false
    var locallyCancelled = false
    /// Whether the system connects again after a drop (`CBConnectPeripheralOptionEnableAutoReconnect`).
    var autoReconnect = false
    /// The connection alerts the app asked for (`CBConnectPeripheralOptionNotifyOn…`).
    var alerts: Set<ConnectionAlert> = []
    /// The last request issued; the next one waits for it.
    var tail: Task<Void, Never>?
    /// Notification streams by characteristic value handle.
    var subscriptions: [UInt16: (values: GATTNotifications, reader: Task<Void, Never>)] = [:]
    /// Writes without response queued and not yet handed to the host.
    var pendingWrites = 0
    /// ATT_MTU − 3 once known (Core 5.4, Vol 3, Part F, §3.4.5.3).
    var writeWithoutResponseLength = 20

    /// How many writes without response may wait before ``canSendWriteWithoutResponse``
    /// turns false.
    static let pendingWritesLimit = 8

    init(identifier: UUID, address: BluetoothAddress, name: String?, isolation: any Actor) {
        self.address = address
        self.isolation = isolation
        self.name = name
        super.init(identifier: identifier)
    }

    /// A link is up to the peripheral.
    func attach(_ connection: Connection) {
        self.connection = connection
        state = .connected
        pendingWrites = 0
        canSendWriteWithoutResponse = true
    }

    /// The link went down: requests end, subscriptions end.
    func linkWentDown(error: CBError?) {
        connection = nil
        state = .disconnected
        serviceChangeWatch?.cancel()
        serviceChangeWatch = nil
        watchesServiceChanges = false
        for (_, subscription) in subscriptions {
            subscription.values.cancel()
            subscription.reader.cancel()
        }
        subscriptions = [:]
        for service in services ?? [] {
            for characteristic in service.characteristics ?? [] { characteristic.isNotifying = false }
        }
    }

    /// Runs `work` on the connection after the requests made before it. `work` runs on
    /// Swift's global executor: it reaches the peripheral's state and delegate through
    /// ``onQueue(_:)``.
    func enqueue(_ work: @escaping @Sendable (CBPeripheral, Connection) async -> Void) {
        guard state == .connected else { return }
        let previous = tail
        tail = Task { [weak self] in
            await previous?.value
            guard let self, let connection = await self.onQueue({ self.connection }) else { return }
            await work(self, connection)
            let length = await connection.maximumWriteLength(for: .withoutResponse)
            await self.onQueue { self.writeWithoutResponseLength = length }
        }
    }

    /// Shows the system's alert for `kind` if the app asked for it and is suspended, and no
    /// app that asked for it too was in the foreground since (see
    /// `SimulatedPhone.alert(_:kind:peripheral:for:)`).
    func alertIfAsked(_ kind: ConnectionAlert) {
        guard alerts.contains(kind), let app = manager?.app else { return }
        app.phone.alert("\(kind.rawValue) \(logName)", kind: kind.rawValue, peripheral: identifier.uuidString, for: app.name)
    }

    /// The name, else the start of the identifier, for timelines.
    var logName: String { name ?? String(identifier.uuidString.prefix(8)) }

    /// Calls the delegate through the phone of the manager's app, which delivers the call
    /// now, later or never (DESIGN.md, "phone"); at once for a manager on no phone.
    func tell(_ detail: @autoclosure () -> String, _ call: @escaping @Sendable () -> Void) {
        guard let app = manager?.app else { return call() }
        app.phone.deliver(.central, "\(detail()) \(logName)", for: app.name, on: isolation, call)
    }

    /// Runs `body` on the central manager's queue (see `hop(to:_:)`).
    func onQueue<T: Sendable>(_ body: @Sendable () -> T) async -> T {
        await hop(to: isolation, body)
    }

    /// The longest value one write of `type` carries (`maximumWriteValueLengthForType:`):
    /// 512 with response (long writes, Vol 3, Part G, §4.9.4), ATT_MTU − 3 without.
    open func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int {
        type == .withResponse ? 512 : writeWithoutResponseLength
    }

    /// Reads the link's RSSI (`readRSSI`); the delegate gets `peripheral(_:didReadRSSI:error:)`,
    /// then the deprecated `peripheralDidUpdateRSSI(_:error:)` with ``rssi`` set.
    open func readRSSI() {
        enqueue { peripheral, connection in
            let result: Result<Int?, BLEError>
            do throws(BLEError) {
                result = .success(try await connection.readRSSI())
            } catch {
                result = .failure(error)
            }
            await peripheral.onQueue {
                switch result {
                case let .success(rssi):
                    peripheral.tell("didReadRSSI") {
                        let value = NSNumber(value: rssi ?? 127)
                        peripheral.rssi = value
                        peripheral.delegate?.peripheral(peripheral, didReadRSSI: value, error: nil)
                        peripheral.delegate?.peripheralDidUpdateRSSI(peripheral, error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didReadRSSI error") {
                        let failure = CBErrorMapping.error(error)
                        peripheral.delegate?.peripheral(peripheral, didReadRSSI: NSNumber(value: 127), error: failure)
                        peripheral.delegate?.peripheralDidUpdateRSSI(peripheral, error: failure)
                    }
                }
            }
        }
    }

    /// Opens an L2CAP credit-based channel to `PSM` (`openL2CAPChannel:`; Core 5.4, Vol 3,
    /// Part A, §4.22); the delegate gets `peripheral(_:didOpen:error:)`.
    open func openL2CAPChannel(_ PSM: CBL2CAPPSM) {
        enqueue { peripheral, connection in
            let result: Result<L2CAPChannel, BLEError>
            do throws(BLEError) {
                result = .success(try await connection.openL2CAPChannel(psm: PSM))
            } catch {
                result = .failure(error)
            }
            await peripheral.onQueue {
                switch result {
                case let .success(channel):
                    peripheral.tell("didOpen L2CAP") {
                        peripheral.delegate?.peripheral(peripheral, didOpen: CBL2CAPChannel(peer: peripheral, channel: channel, managerQueue: peripheral.isolation),
                                                        error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didOpen L2CAP error") {
                        peripheral.delegate?.peripheral(peripheral, didOpen: nil, error: CBErrorMapping.error(error))
                    }
                }
            }
        }
    }
}

/// A connection alert an app may ask the system for while it is suspended (the
/// `CBConnectPeripheralOptionNotifyOn…` options), with the words the alert opens with.
enum ConnectionAlert: String, Hashable, Sendable {
    case connection = "Connected to"
    case disconnection = "Disconnected from"
    case notification = "Notification from"

    /// The alerts `options` of `connect(_:options:)` ask for.
    static func asked(in options: [String: Any]?) -> Set<ConnectionAlert> {
        var alerts: Set<ConnectionAlert> = []
        if options?[CBConnectPeripheralOptionNotifyOnConnectionKey] as? Bool == true { alerts.insert(.connection) }
        if options?[CBConnectPeripheralOptionNotifyOnDisconnectionKey] as? Bool == true { alerts.insert(.disconnection) }
        if options?[CBConnectPeripheralOptionNotifyOnNotificationKey] as? Bool == true { alerts.insert(.notification) }
        return alerts
    }
}
