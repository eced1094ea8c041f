import BLE
import Foundation

extension CBCentralManager {
    // MARK: Connecting

    /// Connects to `peripheral` (`connectPeripheral:options:`): the delegate gets
    /// `didConnect`, or `didFailToConnect` when the controller refuses. As on Apple
    /// platforms the attempt never times out: it stays pending until it succeeds or
    /// ``cancelPeripheralConnection(_:)``. The link starts as an iPhone's does: a 30 ms
    /// interval, no latency, a 720 ms supervision timeout (`HostProfile.iPhone`).
    ///
    /// Options: ``CBConnectPeripheralOptionStartDelayKey`` (seconds, an `NSNumber`) holds the
    /// first attempt back that long; ``CBConnectPeripheralOptionEnableAutoReconnect`` (iOS 17)
    /// has the system connect again after a link the app did not end goes down:
    /// `didDisconnectPeripheral(_:timestamp:isReconnecting:error:)` says `isReconnecting`
    /// true, then `didConnect` follows when the peripheral is back. The alert options
    /// (`CBConnectPeripheralOptionNotifyOnConnectionKey`, `…Disconnection…`,
    /// `…Notification…`) have the system of a simulated iPhone show an alert for the event
    /// while the app is suspended, only for the app most recently in the foreground among
    /// those that asked for it (iOS research §9, rule 5); elsewhere they have no effect.
    public func connect(_ peripheral: CBPeripheral, options: [String: Any]? = nil) {
        guard let device, state == .poweredOn else {
            if app != nil { logMisuse("connect") }
            return
        }
        guard peripheral.state == .disconnected else { return }
        peripheral.manager = self
        peripheral.state = .connecting
        peripheral.locallyCancelled = false
        peripheral.autoReconnect = options?[CBConnectPeripheralOptionEnableAutoReconnect] as? Bool ?? false
        peripheral.alerts = ConnectionAlert.asked(in: options)
        if let app {
            app.phone.requestConnectionAlerts(Set(peripheral.alerts.map(\.rawValue)), peripheral: peripheral.identifier.uuidString, for: app.name)
        }
        let startDelay = (options?[CBConnectPeripheralOptionStartDelayKey] as? NSNumber)?.doubleValue ?? 0
        known[peripheral.identifier] = peripheral
        let address = peripheral.address
        let identifier = peripheral.identifier
        let profile = hostProfile
        peripheral.connecting = Task { [weak self, weak peripheral] in
            // Once the app's call has returned: a peripheral it kept no reference to is gone.
            if let self, await self.onQueue({ self.releasesIfUnused(identifier) }) { return }
            if startDelay > 0 {
                do {
                    try await device.clock.sleep(seconds: startDelay)
                } catch {
                    return
                }
            }
            while !Task.isCancelled {
                if let self, await self.onQueue({ self.releasesIfUnused(identifier) }) { return }
                guard let self, let peripheral, await self.onQueue({ peripheral.state == .connecting }) else { return }
                do throws(BLEError) {
                    // In slices, so the attempt has no overall limit (Apple's behaviour).
                    let connection = try await device.central.connect(to: address, parameters: profile.initialConnection, timeout: .seconds(30))
                    await self.onQueue { self.connected(peripheral, connection) }
                    return
                } catch {
                    switch error {
                    case .timeout: continue
                    case .cancelled: return
                    default:
                        await self.onQueue {
                            guard peripheral.state == .connecting else { return }
                            peripheral.state = .disconnected
                            self.tell("didFailToConnect \(peripheral.logName)") { manager in
                                manager.delegate?.centralManager(manager, didFailToConnect: peripheral, error: CBErrorMapping.error(error))
                            }
                        }
                        return
                    }
                }
            }
        }
    }

    private func connected(_ peripheral: CBPeripheral, _ connection: Connection) {
        guard peripheral.state == .connecting else {
            Task { try? await connection.disconnect() }
            return
        }
        peripheral.attach(connection)
        // An iPhone asks for long data PDUs on every new link (research §9, rule 19).
        if let octets = hostProfile.dataLength { Task { try? await connection.requestDataLength(octets: octets) } }
        peripheral.alertIfAsked(.connection)
        tell("didConnect \(peripheral.logName)") { manager in manager.delegate?.centralManager(manager, didConnect: peripheral) }
        peripheral.watching = Task { [weak self, weak peripheral] in
            let reason = try? await connection.disconnected
            guard let self, let peripheral else { return }
            await self.onQueue {
                guard peripheral.connection === connection else { return }
                // The HCI reason (Vol 1, Part F) goes into the error's failure reason: Apple's
                // two codes alone cannot tell a peer's "remote user terminated" from our own host's.
                let why = reason.map { "the link went down: \($0)" } ?? "the link went down"
                let error: CBError? = peripheral.locallyCancelled ? nil
                    : reason == .connectionTimeout ? CBError(.connectionTimeout, reason: why) : CBError(.peripheralDisconnected, reason: why)
                peripheral.linkWentDown(error: error)
                let reconnecting = peripheral.autoReconnect && !peripheral.locallyCancelled
                self.reportDisconnection(of: peripheral, error: error, isReconnecting: reconnecting)
                if reconnecting { self.live.connect(peripheral, options: [CBConnectPeripheralOptionEnableAutoReconnect: true]) }
            }
        }
    }

    func reportDisconnection(of peripheral: CBPeripheral, error: CBError?, isReconnecting: Bool = false) {
        let timestamp = Date().timeIntervalSinceReferenceDate
        if let app { app.phone.forgetBackgroundReport(of: peripheral.identifier.uuidString, for: app.name) }
        peripheral.alertIfAsked(.disconnection)
        tell("didDisconnectPeripheral \(peripheral.logName)") { manager in
            manager.delegate?.centralManager(manager, didDisconnectPeripheral: peripheral, timestamp: timestamp, isReconnecting: isReconnecting, error: error)
        }
    }

    /// Cancels a pending connection or ends the link (`cancelPeripheralConnection:`); the
    /// delegate gets `didDisconnectPeripheral` with a `nil` error.
    public func cancelPeripheralConnection(_ peripheral: CBPeripheral) {
        switch peripheral.state {
        case .connecting:
            peripheral.connecting?.cancel()
            peripheral.state = .disconnected
            reportDisconnection(of: peripheral, error: nil)
        case .connected:
            guard let connection = peripheral.connection else { return }
            peripheral.locallyCancelled = true
            peripheral.state = .disconnecting
            Task { try? await connection.disconnect() }
        case .disconnected, .disconnecting:
            break
        }
    }

    // MARK: Retrieving

    /// The peripherals with these identifiers that this manager knows: seen or connected
    /// this run, or bonded to its controller (`retrievePeripheralsWithIdentifiers:`). A
    /// bonded peer not seen yet is returned with its identity address, ready to connect.
    /// Past 1,024 peers, one only seen, and held by nobody, may have been forgotten
    /// (CBCentralManager+KnownPeripherals.swift), as Core Bluetooth's cache ages out.
    public func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [CBPeripheral] {
        identifiers.compactMap { known[$0] }
    }

    /// The connected peripherals with any of `serviceUUIDs` among their discovered
    /// services (`retrieveConnectedPeripheralsWithServices:`). Only this process's links
    /// are known on Linux.
    public func retrieveConnectedPeripherals(withServices serviceUUIDs: [CBUUID]) -> [CBPeripheral] {
        known.values.filter { peripheral in
            peripheral.state == .connected
                && (peripheral.services ?? []).contains { service in serviceUUIDs.contains(service.uuid) }
        }.sorted { $0.identifier.uuidString < $1.identifier.uuidString }
    }

    /// Adds the device's bonded peers to the known peripherals, so
    /// ``retrievePeripherals(withIdentifiers:)`` finds them.
    func learn(_ bondedPeers: [BondedPeer]) {
        for bonded in bondedPeers {
            guard let identifier = UUID(uuidString: bonded.identifier), known[identifier] == nil else { continue }
            let peripheral = CBPeripheral(identifier: identifier, address: bonded.identityAddress, name: nil, isolation: isolation)
            peripheral.manager = self
            known[identifier] = peripheral
        }
    }
}

extension CBCentralManager {
    /// On a simulated iPhone, releases the peripheral `identifier` when nothing but this
    /// manager holds it while it is being connected, and says whether it did: Core Bluetooth
    /// does not retain the peripherals it hands out, so one the app did not keep is freed and
    /// its pending connection cancelled, with no delegate call ("API MISUSE: Cancelling
    /// connection for unused peripheral", the beginner's fault the programming notes name
    /// first). The phone's timeline says so. Off a phone, the manager keeps it.
    func releasesIfUnused(_ identifier: UUID) -> Bool {
        // The state is asked in a call of its own, so no reference of ours is alive when the
        // table's is asked whether it is the only one.
        guard let app, Self.isConnecting(known[identifier]), isKnownUniquelyReferenced(&known[identifier]!),
              let peripheral = known.removeValue(forKey: identifier) else { return false }
        peripheral.connecting = nil
        peripheral.state = .disconnected
        let warning = "API MISUSE: Cancelling connection for unused peripheral \(identifier.uuidString), Did you forget to keep a reference to it?"
        FileHandle.standardError.write(Data("OpenCoreBluetooth: \(warning)\n".utf8))
        app.phone.dropped(.central, "didConnect \(peripheral.logName)", for: app.name, reason: warning)
        return true
    }

    private static func isConnecting(_ peripheral: CBPeripheral?) -> Bool { peripheral?.state == .connecting }

    /// The host habits of the manager's phone (``SimulatedPhone/hostProfile``); an
    /// iPhone's of today for a manager on no phone.
    var hostProfile: HostProfile { app?.phone.hostProfile ?? .iPhone }
}
