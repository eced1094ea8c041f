import BLE
import Dispatch
import Foundation

/// Scans for, connects to and manages peripherals (Core Bluetooth's `CBCentralManager`),
/// with Apple's names, so central code written for Apple platforms compiles with only its
/// import changed:
///
/// ```swift
/// #if canImport(CoreBluetooth)
/// import CoreBluetooth
/// #else
/// import OpenCoreBluetooth
/// #endif
///
/// final class HeartRateCentral: NSObject, CBCentralManagerDelegate {
///     var manager: CBCentralManager!
///     override init() {
///         super.init()
///         manager = CBCentralManager(delegate: self, queue: nil)
///     }
///     func centralManagerDidUpdateState(_ central: CBCentralManager) {
///         if central.state == .poweredOn { central.scanForPeripherals(withServices: [CBUUID(string: "180D")]) }
///     }
/// }
/// ```
///
/// **Threads.** The delegate is called on the `queue:` given (a serial queue), or on the
/// main queue when it is `nil`; call the manager and its peripherals from that queue too
/// (see ``CBManager``). A command-line program using the main queue ends its top-level code
/// with `dispatchMain()`; main-actor code (a test, a UI) may be the delegate of a manager on
/// the main queue.
///
/// **Controller.** All managers of a process share one device per controller: the one
/// `$SWIFTBLE_HCI` names (default `sim`, the embedded neighbourhood), or the one given under
/// ``OpenCoreBluetoothControllerOptionKey`` (SwiftBLE-only). The state moves from
/// ``CBManagerState/unknown`` to ``CBManagerState/poweredOn`` when it opens,
/// ``CBManagerState/unsupported`` when it does not, ``CBManagerState/poweredOff`` when it
/// goes away.
open class CBCentralManager: CBManager, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// Who is told what happens; held weakly, called on the manager's queue.
    open weak var delegate: (any CBCentralManagerDelegate)?

    /// Whether a scan is running (`isScanning`).
    open internal(set) var isScanning = false

    let controller: String?
    let restoreIdentifier: String?
    /// The app of a simulated phone this manager belongs to (made in its launch entry
    /// point), whose system decides when the delegate hears of each event.
    let app: PhoneApp?
    /// The manager of the app's previous run whose links and scan this one restored.
    var predecessor: CBCentralManager?
    /// The manager of the app's next run that restored this one's links and scan.
    weak var successor: CBCentralManager?
    /// The services and options of the running scan, for state restoration.
    var scanRequest: (services: [CBUUID]?, options: [String: Any]?)?
    /// The device, once open.
    var device: BLEDevice?
    /// The peripherals seen or retrieved this run, by identifier (for
    /// ``retrievePeripherals(withIdentifiers:)`` and to hand out one object per peer).
    /// Bounded by ``knownPeripheralLimit`` (CBCentralManager+KnownPeripherals.swift).
    var known: [UUID: CBPeripheral] = [:]
    /// Peripherals forgotten to stay within ``knownPeripheralLimit``.
    var forgottenPeripherals = 0
    /// The scan running, and its number (a replaced scan's late reports are dropped).
    var scanning: Task<Void, Never>?
    var scanNumber = 0

    /// A manager with no delegate on the main queue (`init`).
    public convenience init() {
        self.init(delegate: nil, queue: nil, options: nil)
    }

    /// A manager calling `delegate` on `queue` (`initWithDelegate:queue:`); `nil` is the main queue.
    public convenience init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?) {
        self.init(delegate: delegate, queue: queue, options: nil)
    }

    /// A manager calling `delegate`, with options (`initWithDelegate:queue:options:`):
    /// ``CBCentralManagerOptionShowPowerAlertKey`` (on a simulated iPhone with Bluetooth
    /// switched off, the system's "Turn On Bluetooth" alert on its timeline; default true),
    /// ``CBCentralManagerOptionRestoreIdentifierKey`` (state restoration on a simulated
    /// iPhone; elsewhere `centralManager(_:willRestoreState:)` is called first, with nothing
    /// to restore), and SwiftBLE's
    /// ``OpenCoreBluetoothControllerOptionKey``. The delegate is called on `queue` (the main
    /// queue when `nil`).
    public init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        controller = options?[OpenCoreBluetoothControllerOptionKey] as? String
        restoreIdentifier = options?[CBCentralManagerOptionRestoreIdentifierKey] as? String
        app = PhoneApp.launching
        self.delegate = delegate
        let authorization = CBManager.admit(app)
        super.init(queue: queue, authorization: authorization ?? .notDetermined)
        // The app was terminated for making it (no Bluetooth usage description).
        guard authorization != nil else { return }
        CBManager.showPowerAlertIfOff(app, asked: options?[CBCentralManagerOptionShowPowerAlertKey] as? Bool ?? true)
        var kept: CentralMembership?
        if let app {
            do {
                kept = try app.phone.join(CentralMembership(self), app: app.name) as? CentralMembership
            } catch {
                // Core Bluetooth logs misuse and goes on; so does this manager, unpreserved.
                FileHandle.standardError.write(Data("OpenCoreBluetooth: API MISUSE: \(error)\n".utf8))
            }
        }
        // The delegate is set before the first report can run.
        Task { [weak self] in
            if authorization == .denied {
                guard let self else { return }
                await self.onQueue { self.report(.unauthorized) }
            } else if let predecessor = kept?.manager {
                await self?.restore(from: predecessor)
            } else {
                await self?.powerUp()
            }
        }
    }

    /// The manager now in charge of this one's work: this one, or the one that restored it
    /// after the app's relaunch.
    var live: CBCentralManager { successor?.live ?? self }

    deinit {
        scanning?.cancel()
    }

    /// Opens the controller (shared with the process's other managers) and reports the state.
    private func powerUp() async {
        if let restoreIdentifier, app == nil {
            await onQueue {
                self.delegate?.centralManager(self, willRestoreState: [CBCentralManagerOptionRestoreIdentifierKey: restoreIdentifier])
            }
        }
        switch await CBDeviceHub.shared.device(for: controller, of: app) {
        case let .success(opened):
            let bonded = await opened.bondedPeers()
            await onQueue {
                self.device = opened
                self.learn(bonded)
                self.report(self.app?.phone.isBluetoothAvailable == false ? .poweredOff : .poweredOn)
            }
            await watchController(opened)
        case .failure:
            await onQueue { self.report(.unsupported) }
        }
    }

    /// Waits for the controller to go away, then ends links and scan and reports it (the
    /// manager that restored this one watches in its place).
    func watchController(_ opened: BLEDevice) async {
            await opened.stopped()
            await onQueue {
                guard self.successor == nil else { return }
                self.device = nil
                self.stopScanTask()
                for peripheral in self.known.values where peripheral.state != .disconnected {
                    peripheral.linkWentDown(error: CBError(.peripheralDisconnected, reason: "the controller went away"))
                }
                self.report(.poweredOff)
            }
    }

    func report(_ newState: CBManagerState) {
        guard changeState(to: newState) else { return }
        tell("didUpdateState \(newState)") { manager in manager.delegate?.centralManagerDidUpdateState(manager) }
    }

    /// Calls the delegate through the app's phone, which delivers the call now, later or
    /// never (DESIGN.md, "phone"); at once for a manager on no phone. `call` gets the manager
    /// in charge when it runs (after a relaunch, the one that restored this one).
    func tell(_ detail: @autoclosure () -> String, _ call: @escaping @Sendable (CBCentralManager) -> Void) {
        guard let app else { return call(self) }
        app.phone.deliver(.central, detail(), for: app.name, on: isolation) { call(self.live) }
    }

    // MARK: Features

    /// Optional central features (Core Bluetooth's `CBCentralManager.Feature`).
    public struct Feature: OptionSet, Sendable {
        public let rawValue: UInt
        /// Features from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Extended scanning and connecting (Core 5.4, Vol 4, Part E, §7.8.64–§7.8.66; LE
        /// Extended Advertising): the controller scans with the extended commands and connects
        /// with LE Extended Create Connection, to connectable extended advertising too.
        public static let extendedScanAndConnect = Feature(rawValue: 1 << 0)
    }

    /// Whether the features are supported (`supportsFeatures:`), answered from the
    /// controller, as Core Bluetooth answers from the device's: the default controller's
    /// (``OpenCoreBluetooth/defaultController``) once a manager has opened it, since a class
    /// method has no manager of its own. ``Feature/extendedScanAndConnect`` needs LE Set
    /// Extended Scan Parameters and Enable and LE Extended Create Connection in its Supported
    /// Commands; before any manager opened the controller, `false`. The managers' own scans
    /// and connections keep to the legacy commands.
    open class func supports(_ features: Feature) -> Bool {
        supports(features, supportedCommands: CBDeviceHub.shared.openedControllerCommands(nil))
    }

    /// Whether a controller with `supportedCommands` (`nil`: none is open, or it did not say) has `features`.
    static func supports(_ features: Feature, supportedCommands: HCI.SupportedCommands?) -> Bool {
        guard !features.isEmpty else { return true }
        guard features.subtracting(.extendedScanAndConnect).isEmpty, let commands = supportedCommands else { return false }
        return commands.contains(.leSetExtendedScanParameters) && commands.contains(.leSetExtendedScanEnable)
            && commands.contains(.leExtendedCreateConnection)
    }

    // MARK: Scanning

    /// Starts scanning for peripherals advertising any of `serviceUUIDs` (all peripherals
    /// when `nil`), replacing a running scan; it runs until ``stopScan()``
    /// (`scanForPeripheralsWithServices:options:`). Options:
    /// ``CBCentralManagerScanOptionAllowDuplicatesKey`` (every advertisement rather than
    /// one discovery per peripheral per scan) and
    /// ``CBCentralManagerScanOptionSolicitedServiceUUIDsKey`` (also peripherals soliciting
    /// these services). Ignored, as on Apple platforms, unless the state is powered on.
    open func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil) {
        guard let device, state == .poweredOn else {
            if app != nil { logMisuse("scanForPeripherals") }
            return
        }
        let rule = DiscoveryRule(services: serviceUUIDs?.map(\.value), options: options)
        scanRequest = (serviceUUIDs, options)
        let previous = scanning
        previous?.cancel()
        scanNumber += 1
        let number = scanNumber
        isScanning = true
        scanning = Task { [weak self] in
            await previous?.value
            // Every report of the device's one scan comes up; the rule picks what the delegate sees.
            // On a phone, the app's state sets the shared scan's duty (§9, rules 8 and 9).
            let results = SharedScan.of(device).subscribe(for: self?.app)
            var sieve = DiscoverySieve(rule: rule)
            for await heard in results {
                guard let self, !Task.isCancelled else { break }
                guard let report = sieve.admit(heard.advertisement, activeScan: heard.active) else { continue }
                let current = await self.onQueue { () -> Bool in
                    guard self.live.scanNumber == number else { return false }
                    self.live.discovered(report, scannedFor: rule.services ?? [], on: device)
                    return true
                }
                guard current else { break }
            }
            // The device's scan ended under the manager (the controller went away, or the
            // device's central scans for someone else).
            guard let self, !Task.isCancelled else { return }
            await self.onQueue { self.scanFailed(number) }
        }
    }

    /// Stops the scan (`stopScan`); no discovery arrives after this returns.
    open func stopScan() {
        stopScanTask()
    }

    func stopScanTask() {
        scanning?.cancel()
        scanNumber += 1
        isScanning = false
        scanRequest = nil
    }

    private func scanFailed(_ number: Int) {
        guard scanNumber == number else { return }
        isScanning = false
    }

    private func discovered(_ advertisement: Advertisement, scannedFor: [BluetoothUUID], on device: BLEDevice) {
        let peripheral = peripheral(at: advertisement.address, on: device)
        guard admitsInBackground(peripheral, scannedFor: scannedFor) else { return }
        tell("didDiscover \(peripheral.name ?? advertisement.localName ?? advertisement.address.description)") { manager in
            if let name = advertisement.localName, peripheral.name != name {
                let renamed = peripheral.name != nil
                peripheral.name = name
                if renamed { peripheral.delegate?.peripheralDidUpdateName(peripheral) }
            }
            manager.delegate?.centralManager(manager, didDiscover: peripheral,
                                             advertisementData: AdvertisementDictionary.make(advertisement, scannedFor: scannedFor),
                                             rssi: NSNumber(value: advertisement.rssi ?? 127))
        }
    }

    /// The one peripheral object for the peer at `address`.
    func peripheral(at address: BluetoothAddress, on device: BLEDevice) -> CBPeripheral {
        let text = device.bondedPeerIdentifier(for: address) ?? device.observerScopedIdentifier(for: address)
        let identifier = UUID(uuidString: text) ?? UUID()
        if let peripheral = known[identifier] {
            peripheral.address = address
            return peripheral
        }
        makeRoomForKnownPeripheral(on: device)
        let peripheral = CBPeripheral(identifier: identifier, address: address, name: nil, isolation: isolation)
        peripheral.manager = self
        known[identifier] = peripheral
        return peripheral
    }
}
