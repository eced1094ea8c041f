import BLE
import Foundation

extension CBPeripheralManager {
    /// Sends `value` to the centrals subscribed to `characteristic` (all of them, or those
    /// of `centrals`) as a notification or an indication, whichever each enabled (Core 5.4,
    /// Vol 3, Part G, §4.10–§4.11), without waiting.
    /// - Returns: `false` when the transmit queue is full: nothing is sent, and
    ///   ``CBPeripheralManagerDelegate/peripheralManagerIsReady(toUpdateSubscribers:)-3aub9`` is
    ///   called once there is room — send it again then. Values taken go out in order.
    ///   Discardable, as Apple's Objective-C method is: code that sends without watching
    ///   for a full queue compiles without a warning.
    @discardableResult
    public func updateValue(_ value: Data, for characteristic: CBMutableCharacteristic, onSubscribedCentrals centrals: [CBCentral]?) -> Bool {
        guard let device, let local = localCharacteristics[ObjectIdentifier(characteristic)] else { return false }
        let handles = centrals.map { wanted in
            self.centrals.filter { entry in wanted.contains { $0 === entry.value } }.map(\.key)
        }
        return device.peripheral.updateValue(Array(value), for: local, on: handles)
    }

    /// Answers `request` (from `didReceiveRead` or `didReceiveWrite`) with `result`; for a
    /// read's success, with the request's ``CBATTRequest/value`` (from its offset on). A
    /// request is answered once: a second answer is ignored (and reported on standard
    /// error). For the requests of one `didReceiveWrite`, answer the first: the answer is
    /// the whole batch's.
    public func respond(to request: CBATTRequest, withResult result: CBATTError.Code) {
        let code: ATT.ErrorCode? = result == .success ? nil : ATT.ErrorCode(rawValue: UInt8(truncatingIfNeeded: result.rawValue))
        let answered: Bool
        switch request.serverContext {
        case let read as GATTReadRequestToAnswer:
            answered = read.respondNow(code.map { .failure($0) } ?? .success(Array(request.value ?? Data())))
        case let writes as GATTWritesToAnswer:
            answered = writes.respondNow(code.map { .failure($0) } ?? .success(()))
        default:
            answered = false
        }
        if !answered {
            FileHandle.standardError.write(Data("OpenCoreBluetooth: respond(to:withResult:) ignored: the request was already answered\n".utf8))
        }
    }

    /// Asks `central` for connection parameters matching `latency` (Core 5.4, Vol 3, Part C,
    /// §9.3.9 over L2CAP; the central may refuse). The steps' values are SwiftBLE's choice
    /// (`ConnectionLatency` in the `BLE` module).
    public func setDesiredConnectionLatency(_ latency: CBPeripheralManagerConnectionLatency, for central: CBCentral) {
        guard let device, let handle = centrals.first(where: { $0.value === central })?.key,
              let connection = device.connections.first(where: { $0.handle == handle }) else { return }
        let request: ConnectionParameterRequest = switch latency {
        case .low: ConnectionLatency.low.request
        case .medium: ConnectionLatency.medium.request
        case .high: ConnectionLatency.high.request
        }
        Task { _ = try? await connection.updateParameters(request) }
    }

    // MARK: Loops

    /// Reads the device's peripheral events until it closes or the manager goes; each is
    /// handled on the manager's queue.
    func startLoops(_ device: BLEDevice) {
        let peripheral = device.peripheral
        // Each event goes to the manager in charge (after a relaunch, the one that restored
        // this one), found on the queue.
        loops.append(Task { [weak self] in
            for await request in peripheral.requests {
                guard let self else { return }
                await self.onQueue { self.live }.deliver(request, device: device)
            }
        })
        loops.append(Task { [weak self] in
            for await change in peripheral.subscriptionChanges {
                guard let self else { return }
                await self.onQueue { self.live }.deliver(change, device: device)
            }
        })
        loops.append(Task { [weak self] in
            for await _ in peripheral.readyToUpdate {
                guard let self else { return }
                await self.onQueue {
                    let manager = self.live
                    // A phone with the fault switched on skips the call now and then.
                    if let app = manager.app, app.phone.skipsReadyToUpdateSubscribers(for: app.name) { return }
                    manager.tell("isReadyToUpdateSubscribers") { manager in manager.delegate?.peripheralManagerIsReady(toUpdateSubscribers: manager) }
                }
            }
        })
        loops.append(Task { [weak self] in
            // The controller went away (its transport closed, or the device was closed).
            await device.stopped()
            guard let self else { return }
            await self.onQueue { self.live.setState(.poweredOff) }
        })
        loops.append(Task { [weak self] in
            for await connection in peripheral.connections {
                guard let self else { return }
                await self.onQueue {
                    let manager = self.live
                    manager.centrals[connection.handle] = manager.makeCentral(connection)
                    manager.restartAdvertising()
                }
            }
        })
    }

    /// The longest value one update to the central on `handle` carries (ATT_MTU − 3), when
    /// the link is up; asked of the host, off the queue.
    func updateLength(on handle: UInt16, of device: BLEDevice) async -> Int? {
        guard let connection = device.connections.first(where: { $0.handle == handle }) else { return nil }
        return await connection.maximumWriteLength(for: .withoutResponse)
    }

    /// The central on `handle`, made from the link if not known yet, with its update length.
    func central(on handle: UInt16, updateLength: Int?) -> CBCentral? {
        let connection = device?.connections.first { $0.handle == handle }
        if centrals[handle] == nil, let connection { centrals[handle] = makeCentral(connection) }
        guard let central = centrals[handle] else { return nil }
        if let updateLength { central.setMaximumUpdateValueLength(updateLength) }
        return central
    }

    /// A central for `connection`: its bond's identifier when bonded, else the UUID this
    /// controller derives for its address (as for `CBPeripheral.identifier`).
    func makeCentral(_ connection: Connection) -> CBCentral {
        let text = device.map { $0.bondedPeerIdentifier(for: connection.peer) ?? $0.observerScopedIdentifier(for: connection.peer) }
        return CBCentral(identifier: text.flatMap(UUID.init(uuidString:)) ?? UUID())
    }

    /// Calls the delegate through the phone of the manager's app, which delivers the call
    /// now, later or never (DESIGN.md, "phone"); at once for a manager on no phone. `call`
    /// gets the manager in charge when it runs (after a relaunch, the one that restored
    /// this one, §9, rule 14).
    func tell(_ detail: @autoclosure () -> String, _ call: @escaping @Sendable (CBPeripheralManager) -> Void) {
        guard let app else { return call(self) }
        app.phone.deliver(.peripheral, detail(), for: app.name, on: isolation) { call(self.live) }
    }

    /// The ATT error a read of a dynamic value gets while the app is suspended (or, its
    /// services preserved, terminated) without `bluetooth-peripheral`: nothing runs to
    /// answer it (iOS research §9, rule 4; the code is the phone's
    /// ``PhonePolicy/suspendedDynamicReadError``). `nil` when the app can answer, or the
    /// manager is on no phone.
    var suspendedReadRefusal: ATT.ErrorCode? {
        guard let app, !app.declares(.bluetoothPeripheral) else { return nil }
        switch app.state {
        case .suspended, .terminated: break
        default: return nil
        }
        return ATT.ErrorCode(rawValue: app.policy.suspendedDynamicReadError)
    }

    func deliver(_ request: GATTServerRequest, device: BLEDevice) async {
        switch request {
        case let .read(read):
            let length = await updateLength(on: read.request.connection, of: device)
            await onQueue {
                guard let characteristic = self.characteristicsByHandle[read.valueHandle],
                      let central = self.central(on: read.request.connection, updateLength: length) else {
                    read.respondNow(.failure(.invalidHandle))
                    return
                }
                if let refusal = self.suspendedReadRefusal {
                    read.respondNow(.failure(refusal))
                    return
                }
                let attRequest = CBATTRequest(central: central, characteristic: characteristic, offset: read.request.offset, value: nil)
                attRequest.serverContext = read
                self.tell("didReceiveRead \(characteristic.uuid.uuidString)") { manager in manager.delegate?.peripheralManager(manager, didReceiveRead: attRequest) }
            }
        case let .write(writes):
            var lengths: [UInt16: Int?] = [:]
            for write in writes.writes where lengths[write.request.connection] == nil {
                lengths[write.request.connection] = await updateLength(on: write.request.connection, of: device)
            }
            let known = lengths
            await onQueue {
                var requests: [CBATTRequest] = []
                for write in writes.writes {
                    guard let characteristic = self.characteristicsByHandle[write.valueHandle],
                          let central = self.central(on: write.request.connection, updateLength: known[write.request.connection] ?? nil) else {
                        writes.respondNow(.failure(.invalidHandle))
                        return
                    }
                    let attRequest = CBATTRequest(central: central, characteristic: characteristic, offset: write.request.offset,
                                                  value: Data(write.request.value))
                    attRequest.serverContext = writes
                    requests.append(attRequest)
                }
                self.tell("didReceiveWrite") { [requests] manager in manager.delegate?.peripheralManager(manager, didReceiveWrite: requests) }
            }
        }
    }

    func deliver(_ change: GATTSubscriptionChange, device: BLEDevice) async {
        let length = await updateLength(on: change.connection, of: device)
        await onQueue { self.subscriptionChanged(change, updateLength: length) }
    }

    private func subscriptionChanged(_ change: GATTSubscriptionChange, updateLength: Int?) {
        guard let characteristic = characteristicsByHandle[change.valueHandle],
              let central = central(on: change.connection, updateLength: updateLength) else { return }
        var subscribed = characteristic.subscribedCentrals ?? []
        if change.isSubscribed {
            guard !subscribed.contains(where: { $0 === central }) else { return }
            subscribed.append(central)
            characteristic.subscribedCentrals = subscribed
            tell("didSubscribeTo \(characteristic.uuid.uuidString)") { manager in manager.delegate?.peripheralManager(manager, central: central, didSubscribeTo: characteristic) }
        } else {
            guard subscribed.contains(where: { $0 === central }) else { return }
            subscribed.removeAll { $0 === central }
            characteristic.subscribedCentrals = subscribed.isEmpty ? nil : subscribed
            tell("didUnsubscribeFrom \(characteristic.uuid.uuidString)") { manager in
                manager.delegate?.peripheralManager(manager, central: central, didUnsubscribeFrom: characteristic)
            }
        }
    }
}
