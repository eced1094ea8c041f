import BLE
import Foundation

/// A peripheral manager as its phone's system sees it (``PhoneAppMember``): its advertising
/// follows the app on and off screen; when its app is terminated it is kept, with its
/// published services, advertising and subscribed centrals, if it has a restore identifier
/// (iOS research §9, rule 13), and ends with the app otherwise.
final class PeripheralMembership: PhoneAppMember, @unchecked Sendable {
    // @unchecked Sendable: `manager` is set once; the manager is used on its queue, and so
    // is `advertisesOnScreen`.
    /// Held, as the system holds what an app asked of it until the app ends (or, preserved,
    /// until the manager made again after the relaunch takes it over).
    let manager: CBPeripheralManager
    var restoreIdentifier: String? { manager.restoreIdentifier }
    var role: AppEventKind { .peripheral }
    /// Whether the advertisement is the foreground one; read and set on the manager's queue.
    private var advertisesOnScreen: Bool

    init(_ manager: CBPeripheralManager) {
        self.manager = manager
        // A manager made at a relaunch starts in the background, its advertisement already
        // in the background form.
        advertisesOnScreen = manager.app.map { $0.state == .foreground } ?? true
    }

    func appTerminated(preserved: Bool) async {
        await manager.onQueue {
            guard preserved else { return self.manager.appEnded() }
            self.manager.delegate = nil
            // The system advertises for the terminated app in the background form (rule 12).
            guard self.advertisesOnScreen else { return }
            self.advertisesOnScreen = false
            self.manager.followDropouts(offScreen: true)
            if self.manager.isAdvertising { self.manager.restartAdvertising() }
        }
    }

    func bluetoothSwitched(on: Bool) async {
        await manager.onQueue { self.manager.bluetoothSwitched(on: on) }
    }

    func appStateChanged(to state: AppState) async {
        let onScreen = state == .foreground
        await manager.onQueue {
            // Off screen, the advertisement is the same whether the app runs or is suspended.
            guard onScreen != self.advertisesOnScreen else { return }
            self.advertisesOnScreen = onScreen
            self.manager.followDropouts(offScreen: !onScreen)
            if self.manager.isAdvertising { self.manager.restartAdvertising() }
        }
    }
}

extension CBPeripheralManager {
    /// The app ended and the system keeps nothing of this manager (no restore identifier,
    /// a force-quit, or another manager had its identifier): its delegate is gone, its
    /// advertising stops and its services leave the GATT server (§9, rule 16).
    func appEnded() {
        delegate = nil
        followDropouts(offScreen: false)
        withdraw()
    }

    /// Starts pausing the off-screen advertising as the phone's dropouts say (research §9,
    /// rule 12, `bgAdvDropout`: `PhonePolicy.backgroundAdvertisingDropouts`, a seeded
    /// `AdvertisingDropoutSchedule` from now), or, on screen, stops: the advertising is
    /// then on air. Call on the manager's queue; the caller restarts the advertising. A
    /// manager made again at a relaunch takes the pauses over (``restore(from:)``).
    func followDropouts(offScreen: Bool) {
        dropouts?.cancel()
        dropouts = nil
        advertisingPaused = false
        guard offScreen, let app, let numbers = app.policy.backgroundAdvertisingDropouts else { return }
        let seed = app.phone.nextAdvertisingDropoutSeed()
        let clock = app.phone.clock
        dropouts = Task { [weak self] in
            var schedule = AdvertisingDropoutSchedule(numbers, seed: seed, start: clock.microseconds)
            while !Task.isCancelled {
                let phase = schedule.phase(at: clock.microseconds)
                // Not held while sleeping: a manager gone ends its pauses.
                guard await self?.enter(phase) != nil else { return }
                do { try await clock.sleep(untilMicroseconds: phase.changesAt) } catch { return }
            }
        }
    }

    /// Puts the advertising of the manager doing this one's work (this one, or the one
    /// that restored it) on air or off it, as `phase` of its dropouts says.
    private func enter(_ phase: AdvertisingDropoutSchedule.Phase) async {
        await onQueue {
            guard !Task.isCancelled else { return }
            var manager = self
            while let successor = manager.successor { manager = successor }
            let paused = !phase.advertising
            guard manager.advertisingPaused != paused else { return }
            manager.advertisingPaused = paused
            if manager.isAdvertising { manager.restartAdvertising() }
        }
    }

    /// Bluetooth was switched on or off in the phone's Settings (Apple, `CBManagerState`;
    /// `peripheralManagerDidUpdateState(_:)`: the published services are gone below
    /// powered on, and the app adds them again). Off, advertising stops and the services
    /// leave the GATT server, then the delegate hears `poweredOff`; on again, `poweredOn`,
    /// and nothing comes back by itself.
    func bluetoothSwitched(on: Bool) {
        guard successor == nil, device != nil, state != .unauthorized else { return }
        guard !on else { return report(.poweredOn) }
        withdraw()
        centrals = [:]
        report(.poweredOff)
    }

    /// Stops advertising and removes the published services from the GATT server.
    private func withdraw() {
        stopAdvertising()
        enqueue { [weak self] in
            guard let self else { return }
            let found = await self.onQueue { () -> (device: BLEDevice, ids: [LocalService.ID])? in
                guard let device = self.device else { return nil }
                defer { self.published = [] }
                return (device, self.published.map(\.id))
            }
            guard let found else { return }
            var layout: PublishedServices?
            for id in found.ids { layout = (try? await found.device.peripheral.remove(id)) ?? layout }
            guard let layout else { return }
            await self.onQueue { self.adopt(layout) }
        }
    }

    /// Takes the work of `predecessor`, the manager with this one's restore identifier in
    /// the app's last run, and reports it as Core Bluetooth does after a relaunch (§9, rule
    /// 14): `peripheralManager(_:willRestoreState:)` with the published services (the same
    /// `CBMutableService` objects, their characteristics' subscribed centrals as they are)
    /// and the advertisement data in use, then `peripheralManagerDidUpdateState(_:)`, then
    /// the requests the app was relaunched for.
    func restore(from predecessor: CBPeripheralManager) async {
        let previous = await predecessor.onQueue { predecessor.pending }
        let opened = await onQueue { () -> Bool in
            predecessor.successor = self
            self.predecessor = predecessor
            self.device = predecessor.device
            self.pending = previous
            self.published = predecessor.published
            self.characteristicsByHandle = predecessor.characteristicsByHandle
            self.localCharacteristics = predecessor.localCharacteristics
            self.centrals = predecessor.centrals
            self.advertised = predecessor.advertised
            self.advertisingSession = predecessor.advertisingSession
            self.isAdvertising = predecessor.isAdvertising
            self.advertisingPaused = predecessor.advertisingPaused
            self.dropouts = predecessor.dropouts
            var state: [String: Any] = [:]
            if !self.published.isEmpty {
                state[CBPeripheralManagerRestoredStateServicesKey] = self.published.map(\.service)
            }
            if self.isAdvertising, let advertised = self.advertised {
                state[CBPeripheralManagerRestoredStateAdvertisementDataKey] = advertised.dictionary
            }
            self.app.map { $0.phone.called(.peripheral, "willRestoreState \(self.published.count) service(s)", for: $0.name) }
            self.delegate?.peripheralManager(self, willRestoreState: state)
            guard self.device != nil else { return false }
            if self.state != predecessor.state {
                self.app.map { $0.phone.called(.peripheral, "didUpdateState \(predecessor.state)", for: $0.name) }
            }
            self.setState(predecessor.state)
            return true
        }
        if let app { app.phone.restored(app: app.name) }
        // The predecessor never had a controller: open one as a new manager does.
        guard !opened else { return }
        let result = await CBDeviceHub.shared.device(for: controllerName, of: app)
        await onQueue { self.open(result) }
    }
}
