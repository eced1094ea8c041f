import BLEHost

/// The peripheral role of a ``BLEDevice`` (Core 5.4, Vol 3, Part C, §2.2.2): advertises,
/// accepts connections and publishes L2CAP channels, like Core Bluetooth's
/// `CBPeripheralManager`.
///
/// Legacy advertising has one set per controller and stops when a central connects
/// (Vol 6, Part B, §4.4.2): advertise again to accept another connection.
public actor Peripheral {
    let core: DeviceCore
    let dispatcher: EventDispatcher
    /// The newest advertising session; only it may stop the controller's advertising.
    private var current: AdvertisingSession?
    /// Published PSMs.
    private var published: [UInt16: L2CAPListener] = [:]
    /// Our GATT server's services, in the order added (``add(_:)``, ``publish(name:_:)``).
    var services: [(id: UInt64, service: Service)] = []
    /// The id the next added service gets.
    var nextServiceID: UInt64 = 1
    /// The device name our GAP service shows.
    var gattName = "SwiftBLE"
    /// The transmit queue of ``updateValue(_:for:on:)``.
    let updates: ValueUpdateQueue

    init(core: DeviceCore, dispatcher: EventDispatcher) {
        self.core = core
        self.dispatcher = dispatcher
        updates = ValueUpdateQueue { item in
            _ = try? await Peripheral.send(item.value, to: item.characteristic, on: item.connections, core: core)
        }
    }

    // MARK: Advertising

    /// Starts advertising `content` (Vol 3, Part C, §9.1–9.3) and returns once the
    /// controller is advertising. What does not fit the 31-octet advertisement goes into
    /// the scan response (see ``AdvertisingContent``); a non-connectable advertiser that
    /// needs one advertises as scannable (ADV_SCAN_IND), else as a beacon (ADV_NONCONN_IND).
    /// - Parameters:
    ///   - content: what to advertise.
    ///   - connectable: whether centrals may connect (ADV_IND).
    ///   - interval: 20 ms to 10.24 s (Vol 4, Part E, §7.8.5), in steps of 0.625 ms.
    /// - Throws: ``BLEError/advertisingInProgress``,
    ///   ``BLEError/advertisementTooLarge(octets:maximum:)``, ``BLEError/invalidParameters(_:)``.
    public func advertise(
        _ content: AdvertisingContent, connectable: Bool = true, interval: Duration = .milliseconds(100)
    ) async throws(BLEError) -> AdvertisingSession {
        let units = ConnectionParameters.microseconds(interval) / 625
        guard (0x0020...0x4000).contains(units) else { throw .invalidParameters("the advertising interval must be 20 ms to 10.24 s") }
        let (data, response) = try content.layout(connectable: connectable, scannable: true)
        let kind: GAPAdvertisingParameters.Kind = connectable ? .connectable : response.structures.isEmpty ? .nonConnectable : .scannable
        let parameters = GAPAdvertisingParameters(
            kind: kind, intervalMin: UInt16(units), intervalMax: UInt16(units), data: data, scanResponse: response)
        return try await startAdvertising(parameters)
    }

    /// Has the controller advertise `parameters` and makes the session that stops it; the
    /// one path every kind of advertising (content, beacon frames) goes through.
    func startAdvertising(_ parameters: GAPAdvertisingParameters) async throws(BLEError) -> AdvertisingSession {
        do {
            try await core.host.startAdvertising(parameters)
        } catch {
            throw core.translate(error)
        }
        let session = AdvertisingSession(
            peripheral: self, advertisingData: parameters.data, scanResponse: parameters.scanResponse,
            connectable: parameters.kind == .connectable)
        current = session
        return session
    }

    /// Starts advertising a name, services and data; see ``advertise(_:connectable:interval:)``.
    ///
    /// ```swift
    /// let session = try await device.peripheral.advertise(name: "Thermometer", serviceUUIDs: [0x1809])
    /// for await connection in device.peripheral.connections { print("connected:", connection.peer); break }
    /// try await session.stop()
    /// ```
    public func advertise(
        name: String? = nil, serviceUUIDs: [BluetoothUUID] = [], manufacturerData: AdvertisingData.ManufacturerData? = nil,
        serviceData: [BluetoothUUID: [UInt8]] = [:], txPower: Int? = nil, connectable: Bool = true,
        interval: Duration = .milliseconds(100)
    ) async throws(BLEError) -> AdvertisingSession {
        let content = AdvertisingContent(
            name: name, serviceUUIDs: serviceUUIDs, manufacturerData: manufacturerData, serviceData: serviceData, txPower: txPower)
        return try await advertise(content, connectable: connectable, interval: interval)
    }

    /// Stops the controller's advertising if `session` is the newest one.
    func stop(_ session: AdvertisingSession) async throws(BLEError) {
        guard current === session else { return }
        current = nil
        do {
            try await core.host.stopAdvertising()
        } catch HostError.gap(.advertisingNotEnabled) {
            // A connection already ended it (Vol 6, Part B, §4.4.2).
        } catch {
            throw core.translate(error)
        }
    }

    // MARK: Connections

    /// The connections centrals make to this device, in order. Like a listening socket's
    /// accept queue: connections wait here from the moment they are made until taken, so
    /// none is missed whenever the loop starts; with several loops each connection goes to
    /// one of them. Iteration ends when the device closes.
    public nonisolated var connections: IncomingConnections { IncomingConnections(mailbox: dispatcher.incoming) }

    // MARK: L2CAP

    /// Accepts LE credit-based channels to `psm` on every connection (Vol 3, Part A,
    /// §4.22), like `CBPeripheralManager.publishL2CAPChannel`; the channels come out of the
    /// returned listener.
    /// - Parameters:
    ///   - psm: the SPSM, 0x0001–0x00FF (0x0080 and up for an app's own protocol).
    ///   - options: what this side accepts on each channel.
    /// - Throws: ``BLEError/alreadyPublished(psm:)``, ``BLEError/invalidParameters(_:)``.
    public func publishL2CAPChannel(psm: UInt16, options: L2CAPChannelOptions = L2CAPChannelOptions()) async throws(BLEError) -> L2CAPListener {
        try L2CAPChannelOptions.check(psm: psm)
        let parameters = try options.hostParameters()
        guard published[psm] == nil else { throw .alreadyPublished(psm: psm) }
        let channels = await core.host.listen(psm: psm, parameters: parameters)
        let listener = L2CAPListener(psm: psm, peripheral: self, channels: channels, core: core, dispatcher: dispatcher)
        published[psm] = listener
        return listener
    }

    /// Stops accepting channels for `listener`'s PSM, if it is still the one published.
    func unpublish(_ listener: L2CAPListener) async {
        guard published[listener.psm] === listener else { return }
        published[listener.psm] = nil
        await core.host.stopListening(psm: listener.psm)
    }
}

/// A running advertisement of a ``Peripheral``: what is on the air, and ``stop()``.
public final class AdvertisingSession: Sendable {
    /// The advertising data sent (at most 31 octets).
    public let advertisingData: AdvertisingData
    /// The scan response sent to active scanners (empty if none).
    public let scanResponse: AdvertisingData
    /// Whether centrals may connect.
    public let connectable: Bool
    private let peripheral: Peripheral

    init(peripheral: Peripheral, advertisingData: AdvertisingData, scanResponse: AdvertisingData, connectable: Bool) {
        self.peripheral = peripheral
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
        self.connectable = connectable
    }

    /// Stops advertising; nothing happens if a connection already stopped it or a newer
    /// session replaced this one.
    public func stop() async throws(BLEError) {
        try await peripheral.stop(self)
    }
}

/// The connections made to a peripheral, as an `AsyncSequence` (see
/// ``Peripheral/connections``).
public struct IncomingConnections: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = Connection
    /// Iteration never throws: it ends instead.
    public typealias Failure = Never
    let mailbox: Mailbox<Connection>

    /// An iterator taking connections from the queue.
    public func makeAsyncIterator() -> Iterator { Iterator(mailbox: mailbox) }

    /// Takes one connection per step.
    public struct Iterator: AsyncIteratorProtocol {
        let mailbox: Mailbox<Connection>

        /// The next connection; `nil` once the device closed, or the task was cancelled.
        public mutating func next() async -> Connection? { await mailbox.next() }
    }
}
