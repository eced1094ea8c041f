import BLE
import BLEAdapter
import BLEChat
import BLEHost
import BLEProfiles
import BLEStorage
import Foundation

/// The chat app's session transport on SwiftBLE's own front door (`BLE`): the same
/// protocol core (``ChatRendezvous``, ``ChatSession``) and the same roles, advertising and
/// GATT layout as the Core Bluetooth version in Examples/Chat, with the front door's
/// async calls in place of delegates. Write with response from the central (the response is
/// the flow control), notifications from the peripheral (`notify` suspends while the
/// controller's buffers are full: the back-pressure). The session's time and its heartbeat
/// tick are on the controller's clock: an embedded world's virtual time (paced to real
/// time), or the wall clock of a real controller.
@MainActor
public final class FrontDoorChat {
    /// Receives every event of the session (messages, acknowledgements, roles, links, notes).
    public var onEvent: ((ChatEvent) -> Void)?
    /// What this device advertises: its chat name and device identifier.
    public let advertisement: ChatAdvertisement
    /// The partner's chat name as advertised, when one was asked for.
    public let partnerName: String?
    var rendezvous: ChatRendezvous
    /// The session: what waits to be sent and acknowledged, and its counters.
    public internal(set) var session: ChatSession
    /// The partner, once chosen.
    public internal(set) var partner: ChatDeviceID?
    /// How many times a link to the partner came up.
    public internal(set) var linksEstablished = 0

    private let hci: String?
    /// The controller's clock (``BLEAdapter/Adapter/clock``) once ``start()`` opened it;
    /// the wall clock until then, when nothing reads it.
    public private(set) var clock: any StackClock = WallClock()
    /// The clock's reading when the controller opened: the session's time zero.
    private var clockOrigin: Int64 = 0
    var device: BLEDevice?
    var tasks: [Task<Void, Never>] = []
    var advertising: AdvertisingSession?
    var advertisingChange: Task<Void, Never>?

    // Central role.
    var connecting = false
    var link: Connection?
    var remote: RemoteCharacteristic?
    var writing = false
    // Peripheral role.
    var local: LocalCharacteristic?
    var subscriber: Connection?
    var incoming: [UInt16: Connection] = [:]
    var notifying = false
    var frameRoom = 20

    /// A chat device called `name` that chats with `partnerName` (or the first chat device
    /// seen), keeping `configuration`'s heartbeats, on the controller `hci` names (`nil`:
    /// `SWIFTBLE_HCI`, else the simulated neighbourhood).
    public init(name: String, partnerName: String?, configuration: ChatSession.Configuration, hci: String?) {
        let device = ChatDeviceID.random()
        advertisement = ChatAdvertisement(name: name, device: device)
        self.partnerName = partnerName.map { ChatAdvertisement(name: $0, device: device).name }
        rendezvous = ChatRendezvous(me: device)
        session = ChatSession(configuration: configuration)
        self.hci = hci
    }

    /// The session's time: since the controller opened, on its clock.
    var now: Duration { .microseconds(clock.microseconds - clockOrigin) }
    var isCentral: Bool { if case .central? = rendezvous.role { true } else { false } }

    /// Whether everything sent was acknowledged and no acknowledgement waits to go out.
    public var isSettled: Bool { session.unacknowledgedCount == 0 && !session.isAcknowledgementDue }

    /// Opens the controller, publishes the session service, advertises and scans.
    public func start() async throws(BLEError) {
        let (device, clock) = try await Self.open(hci: hci)
        self.device = device
        self.clock = clock
        clockOrigin = clock.microseconds
        guard let serviceUUID = BluetoothUUID(ChatUUIDs.sessionService),
              let characteristicUUID = BluetoothUUID(ChatUUIDs.sessionCharacteristic) else { return }
        let service = Service(serviceUUID) {
            Characteristic(characteristicUUID, properties: [.write, .notify], onWrite: { [weak self] request in
                await self?.written(request) == true ? .success(()) : .failure(.unlikelyError)
            })
        }
        let published = try await Self.publish(service, named: advertisement.name, on: device)
        local = published.characteristic(characteristicUUID, in: serviceUUID)
        advertise()
        tasks.append(Task { [weak self] in await self?.scan(device) })
        tasks.append(Task { [weak self] in await self?.accept(device) })
        tasks.append(Task { [weak self] in
            while !Task.isCancelled {
                // Pacing: heartbeats are due once a second; a 100 ms tick on the controller's
                // clock keeps them on time.
                do { try await clock.sleep(for: .milliseconds(100)) } catch { return }
                self?.tick()
            }
        })
    }

    /// Opens the controller `hci` names as `BLEDevice.open(hci:)` does (the adapter's
    /// default bond store, an embedded world's GATT devices started) and returns the device
    /// with its adapter's clock.
    private nonisolated static func open(hci: String?) async throws(BLEError) -> (BLEDevice, any StackClock) {
        let environment = ProcessInfo.processInfo.environment
        let spec = hci ?? environment[Adapter.environmentVariable] ?? "sim"
        let bonds = BondStoreLocation.defaultPath(hci: spec, environment: environment).map(BondStorage.file) ?? .memory
        let adapter: Adapter
        do {
            adapter = try await Adapter.open(hci: hci)
        } catch {
            throw .controllerUnavailable((error as? AdapterError)?.description ?? "\(error)")
        }
        do {
            try await adapter.startSimulatedPeripherals()
        } catch {
            await adapter.close()
            throw .controllerUnavailable("\(error)")
        }
        do {
            return (try await BLEDevice.open(host: adapter.host, bonds: bonds) { await adapter.close() }, adapter.clock)
        } catch {
            // A bond store that cannot be read fails before the device takes the adapter over.
            if case .bondStoreUnavailable = error { await adapter.close() }
            throw error
        }
    }

    /// Publishes `service` off the main actor (the builder's closure is not Sendable).
    private nonisolated static func publish(_ service: Service, named name: String, on device: BLEDevice) async throws(BLEError)
        -> PublishedGATT {
        try await device.peripheral.publish(name: name) { service }
    }

    /// Ends every task and closes the controller.
    public func stop() async {
        for task in tasks { task.cancel() }
        advertisingChange?.cancel()
        await device?.close()
    }

    /// Queues a message for the partner.
    public func send(_ message: Data) throws(ChatSession.SendError) {
        try session.send(message)
        if let partner, rendezvous.role == nil { apply(rendezvous.startSession(with: partner)) }
        pump()
    }

    func report(_ event: ChatEvent) { onEvent?(event) }

    // MARK: Discovery and roles

    private func scan(_ device: BLEDevice) async {
        guard let discovery = BluetoothUUID(ChatUUIDs.discoveryService) else { return }
        do {
            let results = try await device.central.scan(filter: ScanFilter(serviceUUIDs: [discovery]),
                                                        options: ScanOptions(allowDuplicates: true))
            for await seen in results {
                guard let name = seen.localName, let chat = ChatAdvertisement(localName: name) else { continue }
                discovered(chat, seen)
            }
        } catch {
            report(.note("scanning failed: \(error)"))
        }
    }

    private func discovered(_ seen: ChatAdvertisement, _ sighting: Advertisement) {
        if rendezvous.names[seen.device] == nil { report(.discovered(name: seen.name, device: seen.device)) }
        if partner == nil, seen.device != advertisement.device, partnerName.map({ $0 == seen.name }) ?? true {
            partner = seen.device
            if session.unacknowledgedCount > 0 { apply(rendezvous.startSession(with: seen.device)) }
        }
        let decision = rendezvous.discovered(seen)
        if case let .connect(inviter) = decision, inviter == partner || partner == nil {
            partner = inviter
            advertise()
            connect(sighting)
        } else {
            apply(decision)
        }
    }

    private func apply(_ decision: ChatRendezvous.Decision) {
        guard case let .invite(partner) = decision else { return }
        report(.role(.peripheral(partner: partner)))
        advertise()
    }

    /// (Re)starts advertising the discovery service with our name and, as the session's
    /// peripheral, the invitation; one change at a time, in order.
    func advertise() {
        guard let device else { return }
        var content = advertisement
        if case let .peripheral(partner)? = rendezvous.role { content.invites = partner }
        let name = content.localName
        let previous = advertisingChange
        advertisingChange = Task { [weak self] in
            await previous?.value
            guard let self, let discovery = BluetoothUUID(ChatUUIDs.discoveryService) else { return }
            try? await self.advertising?.stop()
            do {
                self.advertising = try await device.peripheral.advertise(name: name, serviceUUIDs: [discovery])
            } catch {
                self.report(.note("advertising failed: \(error)"))
            }
        }
    }
}
