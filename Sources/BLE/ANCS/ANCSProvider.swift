import BLEHost
import BLEProfiles
import Foundation
import Synchronization

/// The phone's side of ANCS (the Notification Provider): it serves a
/// ``PhoneNotificationCenter`` as Apple's Notification Center Service on the device's GATT
/// server, with encryption required (an unpaired consumer's subscription gets Insufficient
/// Authentication, so the accessory pairs), and connects, as a phone does, to accessories
/// that solicit the service.
///
/// A session begins when a consumer subscribes to the Notification Source and ends when it
/// unsubscribes or the link goes down (ANCS Specification, "Session"). At its start the
/// notifications present are announced as Added with the PreExisting flag, then every change
/// in order. Control Point commands are answered per the specification: attributes cut to
/// the maximum length asked for, the Data Source response sent in notifications of
/// ATT_MTU − 3 octets, unknown notification UIDs and apps answered with Invalid Parameter
/// (0xA2), malformed commands with Unknown or Invalid Command (0xA0, 0xA1), and an action on a
/// notification that has no such action with Action Failed (0xA3). Performed actions go to
/// ``PhoneNotificationCenter/actions``.
public final class ANCSProvider: Sendable {
    /// The notifications served.
    public let center: PhoneNotificationCenter
    private let device: BLEDevice
    private let published: Mutex<(source: LocalCharacteristic, data: LocalCharacteristic)?> = Mutex(nil)
    /// Open sessions, by connection handle.
    private let sessions = Mutex<[UInt16: Task<Void, Never>]>([:])
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    private init(device: BLEDevice, center: PhoneNotificationCenter) {
        self.device = device
        self.center = center
    }

    /// Publishes ANCS on `device`'s GATT server, serving `center`.
    /// - Throws: what publishing the service throws.
    public static func start(on device: BLEDevice, center: PhoneNotificationCenter) async throws(BLEError) -> ANCSProvider {
        let provider = ANCSProvider(device: device, center: center)
        // Notify-only values: never read, and subscribed to over an encrypted link only.
        let services = try await device.peripheral.add(Service(ANCS.service) {
            Characteristic(ANCS.notificationSource, properties: [.notify], permissions: [], subscriptionPermissions: .writeEncryptionRequired)
            Characteristic(ANCS.controlPoint, properties: [.write], permissions: [.writeable, .writeEncryptionRequired],
                           onWrite: { [weak provider] request in
                               guard let provider else { return .failure(.unlikelyError) }
                               return await provider.controlPoint(request)
                           })
            Characteristic(ANCS.dataSource, properties: [.notify], permissions: [], subscriptionPermissions: .writeEncryptionRequired)
        })
        guard let source = services.gatt.characteristic(ANCS.notificationSource, in: ANCS.service),
              let data = services.gatt.characteristic(ANCS.dataSource, in: ANCS.service) else {
            throw .invalidParameters("the ANCS service was published without its characteristics")
        }
        provider.published.withLock { $0 = (source, data) }
        let changes = device.peripheral.watchSubscriptions()
        provider.watcher.withLock { $0 = Task { [weak provider] in
            for await change in changes {
                guard let provider else { return }
                provider.subscriptionChanged(change)
            }
        } }
        return provider
    }

    /// Scans for an accessory soliciting ANCS (or AMS) and connects to it, as an iPhone
    /// does once the user picks it in Settings (``BLEDevice/connectToSolicitingAccessory(soliciting:timeout:)``).
    public func connectToAccessory(timeout: Duration = .seconds(30)) async throws(BLEError) -> Connection {
        try await device.connectToSolicitingAccessory(soliciting: [ANCS.service, AMS.service], timeout: timeout)
    }

    /// Stops serving: sessions end, the service stays published.
    public func stop() {
        watcher.withLock { $0?.cancel() }
        for task in sessions.withLock({ $0.values }) { task.cancel() }
    }

    // MARK: Sessions

    private func subscriptionChanged(_ change: GATTSubscriptionChange) {
        guard let (source, _) = published.withLock({ $0 }), change.valueHandle == source.valueHandle else { return }
        let connection = change.connection
        if change.isSubscribed {
            let task = Task { await self.runSession(on: connection) }
            sessions.withLock { sessions in
                sessions[connection]?.cancel()
                sessions[connection] = task
            }
        } else {
            sessions.withLock { $0.removeValue(forKey: connection) }?.cancel()
        }
    }

    /// Announces the notifications present (PreExisting), then every change, to `connection`.
    private func runSession(on connection: UInt16) async {
        guard let (source, _) = published.withLock({ $0 }) else { return }
        let (existing, changes, id) = center.observe()
        defer { center.stopObserving(id) }
        var active: [UInt32: ANCS.CategoryID] = [:]
        func count(_ category: ANCS.CategoryID) -> UInt8 { UInt8(clamping: active.values.count { $0 == category }) }
        for (uid, notification) in existing {
            active[uid] = notification.category
        }
        for (uid, notification) in existing {
            let event = ANCS.NotificationSourceEvent(eventID: .added, flags: notification.flags.union(.preExisting),
                                                     category: notification.category, categoryCount: count(notification.category),
                                                     notificationUID: uid)
            guard await send(event.encoded(), to: source, on: connection) else { return }
        }
        for await change in changes {
            guard !Task.isCancelled else { return }
            let event: ANCS.NotificationSourceEvent
            switch change {
            case let .added(uid, notification):
                active[uid] = notification.category
                event = .init(eventID: .added, flags: notification.flags, category: notification.category,
                              categoryCount: count(notification.category), notificationUID: uid)
            case let .modified(uid, notification):
                active[uid] = notification.category
                event = .init(eventID: .modified, flags: notification.flags, category: notification.category,
                              categoryCount: count(notification.category), notificationUID: uid)
            case let .removed(uid, notification):
                active[uid] = nil
                event = .init(eventID: .removed, flags: notification.flags, category: notification.category,
                              categoryCount: count(notification.category), notificationUID: uid)
            }
            guard await send(event.encoded(), to: source, on: connection) else { return }
        }
    }

    private func send(_ value: [UInt8], to characteristic: LocalCharacteristic, on connection: UInt16) async -> Bool {
        do {
            try await device.peripheral.notify(value, to: characteristic, on: connection)
            return true
        } catch {
            return false
        }
    }

    // MARK: Control Point

    /// Answers one Control Point write; a Get command's response follows on the Data Source.
    private func controlPoint(_ request: GATTWriteRequest) async -> Result<Void, ATT.ErrorCode> {
        guard request.offset == 0 else { return .failure(ANCS.ErrorCode.invalidCommand.attError) }
        let command: ANCS.ControlPointCommand
        do {
            command = try ANCS.ControlPointCommand(decoding: request.value)
        } catch {
            return .failure(error.attError)
        }
        let response: ANCS.DataSourceResponse
        switch command {
        case let .getNotificationAttributes(uid, attributes):
            guard let notification = center.notification(uid) else { return .failure(ANCS.ErrorCode.invalidParameter.attError) }
            response = .notificationAttributes(notificationUID: uid, attributes: attributes.map {
                ANCS.NotificationAttribute($0.id, value: notification.value(of: $0.id, maximum: $0.maximumLength))
            })
        case let .getAppAttributes(identifier, attributes):
            guard let name = center.appName(for: identifier) else { return .failure(ANCS.ErrorCode.invalidParameter.attError) }
            response = .appAttributes(appIdentifier: identifier, attributes: attributes.map { ANCS.AppAttribute($0, name) })
        case let .performNotificationAction(uid, action):
            guard let notification = center.notification(uid) else { return .failure(ANCS.ErrorCode.invalidParameter.attError) }
            let offered = action == .positive ? notification.positiveActionLabel : notification.negativeActionLabel
            guard offered != nil else { return .failure(ANCS.ErrorCode.actionFailed.attError) }
            center.performed(PhoneNotificationCenter.PerformedAction(notificationUID: uid, notification: notification, action: action))
            return .success(())
        }
        guard let (_, data) = published.withLock({ $0 }) else { return .failure(.unlikelyError) }
        let mtu = await device.peripheral.attMTU(on: request.connection)
        let connection = request.connection
        // After the Write Response: the consumer reads the Data Source once its write succeeded.
        Task {
            for fragment in response.fragments(attMTU: mtu) {
                guard await self.send(fragment, to: data, on: connection) else { return }
            }
        }
        return .success(())
    }
}

extension Peripheral {
    /// The ATT_MTU of the link `connection` (Core 5.4, Vol 3, Part F, §3.2.8): 23 until an
    /// exchange raised it. A notification carries at most ATT_MTU − 3 octets.
    public func attMTU(on connection: UInt16) async -> Int {
        await core.host.attMTU(on: connection) ?? 23
    }
}

extension BLEDevice {
    /// Scans for an accessory whose advertisement solicits one of `services` (Supplement,
    /// Part A, §1.10) and connects to it, as a phone does with an accessory that asks for
    /// its notification or media service.
    /// - Throws: ``BLEError/timeout`` when none is found within `timeout`; what connecting throws.
    public func connectToSolicitingAccessory(soliciting services: [BluetoothUUID], timeout: Duration = .seconds(30))
        async throws(BLEError) -> Connection {
        let clock = self.clock
        let deadline = clock.microseconds + timeout.wholeMicroseconds
        let results = try await central.scan()
        let soliciting = Mutex<Advertisement?>(nil)
        await firstToFinish(within: timeout, on: clock) {
            for await advertisement in results {
                guard let solicited = advertisement.data.serviceSolicitationUUIDs, solicited.contains(where: services.contains) else { continue }
                soliciting.withLock { $0 = advertisement }
                return
            }
        }
        await results.stop()
        guard let found = soliciting.withLock({ $0 }) else { throw .timeout }
        return try await central.connect(to: found, timeout: .microseconds(max(1, deadline - clock.microseconds)))
    }
}
