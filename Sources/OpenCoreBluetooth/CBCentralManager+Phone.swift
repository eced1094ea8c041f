import BLE
import Foundation

/// A central manager as its phone's system sees it (``PhoneAppMember``): kept, with its
/// links, scan and subscriptions, when its app is terminated and it has a restore identifier.
final class CentralMembership: PhoneAppMember, @unchecked Sendable {
    // @unchecked Sendable: `manager` is set once; the manager itself is used on its queue.
    let manager: CBCentralManager
    var restoreIdentifier: String? { manager.restoreIdentifier }
    var role: AppEventKind { .central }

    init(_ manager: CBCentralManager) {
        self.manager = manager
    }

    func appTerminated(preserved: Bool) async {
        await manager.onQueue {
            self.manager.appEnded(preserved: preserved)
            self.manager.reconsiderScanDuty()
        }
    }

    func bluetoothSwitched(on: Bool) async {
        await manager.onQueue { self.manager.bluetoothSwitched(on: on) }
    }

    /// The screen came on after being off: on a phone with the screen-lock fault, the
    /// device's running scans freeze (``SharedScan/freeze()``).
    func screenCameOn(afterLock: Bool) async {
        guard afterLock else { return }
        await manager.onQueue {
            guard let device = self.manager.live.device, self.manager.app?.policy.scanFreezesAfterScreenLock == true else { return }
            SharedScan.of(device).freeze()
        }
    }

    /// On or off screen, the app may change the phone's scan duty (§9, rule 8).
    func appStateChanged(to state: AppState) async {
        await manager.onQueue { self.manager.reconsiderScanDuty() }
    }
}

extension CBCentralManager {
    /// The app ended. Its delegate is gone with it. A preserved manager's links, scan and
    /// subscriptions stay for the app's relaunch (§9, rule 13); any other manager's end, as
    /// the system cleans up after an app.
    func appEnded(preserved: Bool) {
        delegate = nil
        guard !preserved else { return }
        stopScanTask()
        for peripheral in known.values {
            peripheral.delegate = nil
            // The system's reconnection (`EnableAutoReconnect`) ends with the app too.
            peripheral.autoReconnect = false
            if peripheral.state == .connecting || peripheral.state == .connected {
                peripheral.connecting?.cancel()
                if let connection = peripheral.connection { Task { try? await connection.disconnect() } }
            }
        }
    }

    /// Takes the work of `predecessor`, the manager with this one's restore identifier in
    /// the app's last run, and reports it as Core Bluetooth does after a relaunch (§9, rules
    /// 14 and 15): `centralManager(_:willRestoreState:)` with the peripherals connected or
    /// connecting (services, characteristics and notify state as they were) and the scan,
    /// then `centralManagerDidUpdateState(_:)`, then the events the app was relaunched for.
    func restore(from predecessor: CBCentralManager) async {
        let opened = await onQueue { () -> BLEDevice? in
            predecessor.successor = self
            self.predecessor = predecessor
            self.device = predecessor.device
            self.known = predecessor.known
            for peripheral in self.known.values {
                peripheral.manager = self
                peripheral.delegate = nil
            }
            self.scanning = predecessor.scanning
            self.scanNumber = predecessor.scanNumber
            self.isScanning = predecessor.isScanning
            self.scanRequest = predecessor.scanRequest
            var state: [String: Any] = [:]
            let peripherals = self.known.values.filter { $0.state == .connected || $0.state == .connecting }
                .sorted { $0.identifier.uuidString < $1.identifier.uuidString }
            if !peripherals.isEmpty { state[CBCentralManagerRestoredStatePeripheralsKey] = peripherals }
            if let request = self.scanRequest {
                if let services = request.services { state[CBCentralManagerRestoredStateScanServicesKey] = services }
                if let options = request.options { state[CBCentralManagerRestoredStateScanOptionsKey] = options }
            }
            self.app?.called("willRestoreState " + peripherals.map { $0.name ?? $0.identifier.uuidString }.joined(separator: ", "))
            self.delegate?.centralManager(self, willRestoreState: state)
            let off = predecessor.device == nil || self.app?.phone.isBluetoothAvailable == false
            if self.changeState(to: off ? .poweredOff : .poweredOn) {
                self.app?.called("didUpdateState \(self.state)")
                self.delegate?.centralManagerDidUpdateState(self)
            }
            return self.device
        }
        if let app { app.phone.restored(app: app.name) }
        if let opened { await watchController(opened) }
    }

    /// Bluetooth was switched on or off in the phone's Settings (Apple, `CBManagerState`:
    /// below powered on, "scanning has stopped" and peripherals are disconnected). Off, the
    /// scan stops, pending connections are cancelled and links end, each peripheral's state
    /// becomes disconnected without `didDisconnectPeripheral` (iOS 10 and later call none
    /// then: kable PR #287, dotnet-bluetooth-le #264, bluejay #211), and the delegate hears
    /// `poweredOff`; on again, `poweredOn`. Nothing restarts by itself.
    func bluetoothSwitched(on: Bool) {
        guard successor == nil, device != nil, state != .unauthorized else { return }
        guard !on else { return report(.poweredOn) }
        stopScanTask()
        for peripheral in known.values where peripheral.state != .disconnected {
            peripheral.connecting?.cancel()
            let connection = peripheral.connection
            // Detached first, so the link's end is reported to no one.
            peripheral.linkWentDown(error: nil)
            if let app { app.phone.forgetBackgroundReport(of: peripheral.identifier.uuidString, for: app.name) }
            if let connection { Task { try? await connection.disconnect() } }
        }
        reconsiderScanDuty()
        report(.poweredOff)
    }

    /// Has the device's shared scan take the duty its apps now need: the app of this
    /// manager moved on or off screen, or ended (§9, rules 8 and 9).
    func reconsiderScanDuty() {
        guard let device = live.device else { return }
        SharedScan.of(device).reconsider()
    }

    /// Whether a discovery reaches the app now that it may not be in the foreground (§9):
    /// nothing for a suspended app without `bluetooth-central` (rule 3), nothing for a scan
    /// without services (rule 6), and each peripheral once per app whatever the scan's
    /// duplicate option says (rule 7). An app in the foreground, or on no phone, sees all.
    func admitsInBackground(_ peripheral: CBPeripheral, scannedFor: [BluetoothUUID]) -> Bool {
        guard let app else { return true }
        let state = app.state
        guard state != .foreground else { return true }
        if state == .suspended, !app.declares(.bluetoothCentral) { return false }
        guard !scannedFor.isEmpty else { return false }
        return app.phone.firstBackgroundReport(of: peripheral.identifier.uuidString, for: app.name)
    }
}

extension PhoneApp {
    /// Puts a central manager's call that restoration makes by itself on the phone's timeline.
    func called(_ detail: String) { phone.called(.central, detail, for: name) }
}
