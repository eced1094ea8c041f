import BLE
import Dispatch
import Foundation

/// The peripheral role of this device (Core Bluetooth's `CBPeripheralManager`): publishes
/// services on the GATT server, advertises, answers centrals' requests and updates their
/// subscriptions, publishes L2CAP channels.
///
/// ```swift
/// let manager = CBPeripheralManager(delegate: self, queue: nil)
/// // peripheralManagerDidUpdateState → .poweredOn:
/// manager.add(service)
/// manager.startAdvertising([CBAdvertisementDataLocalNameKey: "Thermo",
///                           CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "1809")]])
/// ```
///
/// **Threads.** Like every OpenCoreBluetooth manager, it calls its delegate on the `queue:`
/// given (the main queue when `nil`) and is used from that queue (see ``CBManager``).
/// Command-line programs using the main queue run it with `dispatchMain()`.
///
/// **One GATT server.** The process's managers share one controller and so one GATT
/// server: two peripheral managers of one process publish into the same database, and
/// the requests of a central go to one of them. Make one.
///
/// **Departures.** Service changes are published one after another; ``add(_:)`` of a
/// characteristic with a value and anything but the read property reports
/// ``CBError/Code/invalidParameters`` through `didAdd` where Core Bluetooth raises an
/// exception; advertising restarts after each connection while ``isAdvertising`` (a legacy
/// advertising set stops at a connection, Core 5.4, Vol 6, Part B, §4.4.2).
open class CBPeripheralManager: CBManager, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// Receives the manager's events on the manager's queue.
    open weak var delegate: (any CBPeripheralManagerDelegate)?
    /// Whether the manager is advertising (between a successful ``startAdvertising(_:)``
    /// and ``stopAdvertising()``).
    open internal(set) var isAdvertising = false

    /// The controller the options named (``OpenCoreBluetoothControllerOptionKey``).
    let controllerName: String?
    /// The app of a simulated phone this manager belongs to (made in its launch entry
    /// point), whose state decides how it advertises.
    let app: PhoneApp?
    /// The identifier the manager's state is preserved and restored under
    /// (``CBPeripheralManagerOptionRestoreIdentifierKey``), on a simulated phone.
    let restoreIdentifier: String?
    /// The manager of the app's last run whose work this one took over after a relaunch;
    /// held, as its loops still read the device for this one.
    var predecessor: CBPeripheralManager?
    /// The manager of the app's next run that took this one's work over.
    weak var successor: CBPeripheralManager?
    /// The device, once opened.
    var device: BLEDevice?
    /// Service changes and advertising starts, one after another in call order.
    var pending: Task<Void, Never>?
    /// The services added, with the front door's id for each, in order.
    var published: [(service: CBMutableService, id: LocalService.ID)] = []
    /// Our characteristics by value handle, and their front-door names.
    var characteristicsByHandle: [UInt16: CBMutableCharacteristic] = [:]
    var localCharacteristics: [ObjectIdentifier: LocalCharacteristic] = [:]
    /// The centrals connected, by connection handle.
    var centrals: [UInt16: CBCentral] = [:]
    /// What is being advertised, to restart it after a connection.
    var advertised: AdvertisedContent?
    var advertisingSession: AdvertisingSession?
    /// Whether the phone holds the off-screen advertising back for a dropout (rule 12,
    /// `PhonePolicy.backgroundAdvertisingDropouts`); `isAdvertising` stays true meanwhile.
    var advertisingPaused = false
    /// Pauses the off-screen advertising now and then while the phone's dropouts are on
    /// (``followDropouts(offScreen:)``).
    var dropouts: Task<Void, Never>?
    /// Published L2CAP channels by PSM.
    var listeners: [CBL2CAPPSM: L2CAPListener] = [:]
    /// Background loops reading the device, ended when the manager goes.
    var loops: [Task<Void, Never>] = []

    /// A manager without a delegate, on the default controller and the main queue.
    public convenience init() {
        self.init(delegate: nil, queue: nil, options: nil)
    }

    /// A manager whose events go to `delegate`.
    /// - Parameters:
    ///   - delegate: receives the events.
    ///   - queue: where events are delivered (a serial queue); `nil` is the main queue.
    public convenience init(delegate: (any CBPeripheralManagerDelegate)?, queue: DispatchQueue?) {
        self.init(delegate: delegate, queue: queue, options: nil)
    }

    /// A manager whose events go to `delegate`, with options:
    /// ``CBPeripheralManagerOptionShowPowerAlertKey`` (on a simulated iPhone with Bluetooth
    /// switched off, the system's "Turn On Bluetooth" alert on its timeline; default false),
    /// ``CBPeripheralManagerOptionRestoreIdentifierKey`` (state preservation and restoration
    /// for an app of a simulated iPhone, iOS research §9, rules 13–16; ignored elsewhere, as
    /// no process is relaunched), and SwiftBLE's ``OpenCoreBluetoothControllerOptionKey``,
    /// which picks the controller.
    public init(delegate: (any CBPeripheralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        controllerName = options?[OpenCoreBluetoothControllerOptionKey] as? String
        restoreIdentifier = options?[CBPeripheralManagerOptionRestoreIdentifierKey] as? String
        app = PhoneApp.launching
        self.delegate = delegate
        let authorization = CBManager.admit(app)
        super.init(queue: queue, authorization: authorization ?? .notDetermined)
        // The app was terminated for making it (no Bluetooth usage description).
        guard authorization != nil else { return }
        CBManager.showPowerAlertIfOff(app, asked: options?[CBPeripheralManagerOptionShowPowerAlertKey] as? Bool ?? false)
        var kept: PeripheralMembership?
        if let app {
            do {
                kept = try app.phone.join(PeripheralMembership(self), app: app.name) as? PeripheralMembership
            } catch {
                // Core Bluetooth logs misuse and goes on; so does this manager, unpreserved.
                FileHandle.standardError.write(Data("OpenCoreBluetooth: API MISUSE: \(error)\n".utf8))
            }
        }
        // Opens (or shares) the controller, or takes the preserved manager's work over; the
        // delegate is set before the state moves on.
        let controllerName = controllerName, app = app
        Task { [weak self] in
            if authorization == .denied {
                guard let self else { return }
                await self.onQueue { self.report(.unauthorized) }
                return
            }
            if let predecessor = kept?.manager {
                await self?.restore(from: predecessor)
                return
            }
            let result = await CBDeviceHub.shared.device(for: controllerName, of: app)
            guard let self else { return }
            await self.onQueue { self.open(result) }
        }
    }

    /// The manager now in charge of this one's work: this one, or the one that restored it
    /// after the app's relaunch.
    var live: CBPeripheralManager { successor?.live ?? self }

    deinit {
        for loop in loops { loop.cancel() }
    }

    /// The controller opened, or not: the state moves on and the loops start.
    func open(_ result: Result<BLEDevice, BLEError>) {
        switch result {
        case let .success(device):
            self.device = device
            startLoops(device)
            setState(app?.phone.isBluetoothAvailable == false ? .poweredOff : .poweredOn)
        case .failure:
            setState(.unsupported)
        }
    }

    /// Sets the state and tells the delegate if it changed.
    func setState(_ state: CBManagerState) {
        guard changeState(to: state) else { return }
        delegate?.peripheralManagerDidUpdateState(self)
    }

    /// Sets the state and tells the delegate through the app's phone if it changed (a change
    /// the user made: Bluetooth switched, the permission refused), so the timeline shows it
    /// and a suspended app gets it as its rules say.
    func report(_ state: CBManagerState) {
        guard changeState(to: state) else { return }
        tell("didUpdateState \(state)") { manager in manager.delegate?.peripheralManagerDidUpdateState(manager) }
    }

    /// Runs `work` after every earlier service change or advertising start. `work` runs on
    /// Swift's global executor and reaches the manager's state and delegate through
    /// ``CBManager/onQueue(_:)``.
    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        let previous = pending
        pending = Task {
            await previous?.value
            await work()
        }
    }

    // MARK: Advertising

    /// Starts advertising `advertisementData`, of which only
    /// ``CBAdvertisementDataLocalNameKey`` (a `String`) and
    /// ``CBAdvertisementDataServiceUUIDsKey`` (`[CBUUID]`) are accepted, as on Apple
    /// platforms; anything else fails with ``CBError/Code/invalidParameters``. The UUIDs
    /// that fit the 28 octets after the Flags are advertised; the name goes into the scan
    /// response, with the UUIDs that did not fit in the overflow area
    /// (`ServiceAdvertisingLayout`, `ServiceOverflowArea` in the `BLE` module). The
    /// dictionary `CLBeaconRegion.peripheralData(withMeasuredPower:)` returns (its one key,
    /// `kCBAdvDataAppleBeaconKey`) advertises that iBeacon instead, connectable as an
    /// iPhone sends it. The delegate gets
    /// ``CBPeripheralManagerDelegate/peripheralManagerDidStartAdvertising(_:error:)-55fco``.
    open func startAdvertising(_ advertisementData: [String: Any]?) {
        let parsed = AdvertisedContent.parse(advertisementData ?? [:])
        enqueue { [weak self] in
            guard let self else { return }
            let device = await self.onQueue { () -> BLEDevice? in
                if case let .failure(refusal) = parsed { self.didStartAdvertising(refusal); return nil }
                guard let device = self.device, self.state == .poweredOn else {
                    self.didStartAdvertising(CBError(.unknown, reason: "the peripheral manager is not powered on"))
                    return nil
                }
                guard !self.isAdvertising else { self.didStartAdvertising(CBError(.alreadyAdvertising)); return nil }
                return device
            }
            guard let device, case let .success(content) = parsed else { return }
            let paused = await self.onQueue { self.advertisingPaused }
            do {
                let session = try await content.start(on: device, for: self.app, paused: paused)
                await self.onQueue {
                    self.advertisingSession = session
                    self.advertised = content
                    self.isAdvertising = true
                    self.didStartAdvertising(nil)
                }
            } catch {
                let reason = "\(error)"
                await self.onQueue { self.didStartAdvertising(CBError(.unknown, reason: reason)) }
            }
        }
    }

    private func didStartAdvertising(_ error: CBError?) {
        delegate?.peripheralManagerDidStartAdvertising(self, error: error)
    }

    /// Stops advertising.
    open func stopAdvertising() {
        isAdvertising = false
        // After any start still queued, which may have set these again.
        enqueue { [weak self] in
            guard let self else { return }
            let session = await self.onQueue { () -> AdvertisingSession? in
                self.isAdvertising = false
                self.advertised = nil
                defer { self.advertisingSession = nil }
                return self.advertisingSession
            }
            try? await session?.stop()
        }
    }

    /// A central connected (the controller stopped advertising), or the app moved on or off
    /// screen (the advertisement changes): start again while the app wants to advertise.
    func restartAdvertising() {
        enqueue { [weak self] in
            guard let self else { return }
            let running = await self.onQueue { () -> (session: AdvertisingSession?, content: AdvertisedContent, device: BLEDevice, paused: Bool)? in
                guard self.isAdvertising, let advertised = self.advertised, let device = self.device else { return nil }
                return (self.advertisingSession, advertised, device, self.advertisingPaused)
            }
            guard let running else { return }
            try? await running.session?.stop()
            let session = try? await running.content.start(on: running.device, for: self.app, paused: running.paused)
            await self.onQueue { self.advertisingSession = session }
        }
    }
}
