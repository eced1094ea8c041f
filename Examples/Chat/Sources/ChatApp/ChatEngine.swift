#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif
import BLEChat
import Foundation

/// The chat app's Bluetooth side, written against Core Bluetooth's API: on Apple platforms
/// it builds against CoreBluetooth, on Linux against OpenCoreBluetooth, unchanged.
///
/// Every device scans for and advertises the discovery service (the discovery screen).
/// The first to send becomes the session's peripheral and the partner connects as central
/// (``ChatRendezvous``); frames travel as writes with response from the central and
/// notifications from the peripheral, with back-pressure (`updateValue` returning `false`,
/// then `peripheralManagerIsReady(toUpdateSubscribers:)`). ``ChatSession`` numbers,
/// fragments, acknowledges and re-sends, and its heartbeats notice a silent link, which
/// the engine then tears down and re-establishes; no message is lost or delivered twice.
@MainActor
public final class ChatEngine: NSObject {
    /// What the engine reports to the screen.
    public typealias Event = ChatEvent

    /// This device's advertised identity.
    public let advertisement: ChatAdvertisement
    /// The partner's display name to chat with; any chat device when `nil`.
    public let partnerName: String?
    /// Receives every event, on the main actor.
    public var onEvent: ((Event) -> Void)?
    /// Who plays which role.
    public internal(set) var rendezvous: ChatRendezvous
    /// The session: sequence numbers, fragments, acknowledgements, heartbeats.
    public internal(set) var session: ChatSession
    /// The partner, once chosen.
    public internal(set) var partner: ChatDeviceID?
    /// How many times a link to the partner came up.
    public internal(set) var linksEstablished = 0
    /// How many times `updateValue` said the transmit queue was full (back-pressure).
    public internal(set) var notificationsDeferred = 0

    var central: CBCentralManager?
    var peripheralManager: CBPeripheralManager?
    /// Where the session's time comes from (``ChatTime``).
    let time: ChatTime
    var ticker: Task<Void, Never>?
    /// When a failed advertising start is tried again (on the session clock), if it is.
    var advertisingRetry: Duration?

    // Central role.
    var partnerPeripheral: CBPeripheral?
    var sessionCharacteristic: CBCharacteristic?
    var connecting = false
    var writeInFlight = false

    // Peripheral role.
    var sessionService: CBMutableService?
    var notifyingCharacteristic: CBMutableCharacteristic?
    var subscriber: CBCentral?
    var pendingNotification: Data?
    var invitation: ChatDeviceID?
    var sessionPublished = false

    /// An engine for a device called `name` that chats with `partnerName` (or the first
    /// chat device it sees).
    public init(name: String, partnerName: String? = nil, device: ChatDeviceID = .random(),
                configuration: ChatSession.Configuration = ChatSession.Configuration(), time: ChatTime = .continuous()) {
        self.time = time
        advertisement = ChatAdvertisement(name: name, device: device)
        self.partnerName = partnerName.map { ChatAdvertisement(name: $0, device: device).name }
        rendezvous = ChatRendezvous(me: device)
        session = ChatSession(configuration: configuration)
        super.init()
    }

    /// Creates the managers (their state arrives asynchronously) and starts the heartbeat
    /// clock.
    public func start() {
        guard central == nil else { return }
        central = CBCentralManager(delegate: self, queue: nil)
        peripheralManager = CBPeripheralManager(delegate: self, queue: nil)
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                // Pacing: heartbeats are due once a second; a 100 ms tick keeps them on time
                // within a tenth of an interval.
                guard let time = self?.time else { return }
                await time.sleep(.milliseconds(100))
                self?.tick()
            }
        }
    }

    /// Stops scanning, advertising and the clock; the managers go with the engine.
    public func stop() {
        ticker?.cancel()
        ticker = nil
        central?.stopScan()
        if let partnerPeripheral { central?.cancelPeripheralConnection(partnerPeripheral) }
        peripheralManager?.stopAdvertising()
    }

    /// Queues a message for the partner. Before a session exists the first message makes
    /// this device the peripheral, inviting the partner as soon as one is known.
    public func send(_ message: Data) throws(ChatSession.SendError) {
        try session.send(message)
        if let partner, rendezvous.role == nil { apply(rendezvous.startSession(with: partner)) }
        pump()
    }

    /// Whether everything sent was acknowledged and no acknowledgement waits to go out.
    public var isSettled: Bool { session.unacknowledgedCount == 0 && !session.isAcknowledgementDue }

    /// The session clock: time since the engine was made.
    var now: Duration { time.now() }

    func report(_ event: Event) { onEvent?(event) }

    /// A chat device's advertisement: pick the partner, follow the role decision.
    func discovered(_ seen: ChatAdvertisement, peripheral: CBPeripheral) {
        if rendezvous.names[seen.device] == nil { report(.discovered(name: seen.name, device: seen.device)) }
        if partner == nil, seen.device != advertisement.device, partnerName.map({ $0 == seen.name }) ?? true {
            partner = seen.device
            if session.unacknowledgedCount > 0 { apply(rendezvous.startSession(with: seen.device)) }
        }
        let decision = rendezvous.discovered(seen)
        if case let .connect(inviter) = decision, inviter == partner || partner == nil {
            partner = inviter
            if invitation != nil {
                // We invited too and gave way (the partner's ID is lower): stop inviting.
                invitation = nil
                advertise()
            }
            connect(peripheral)
        } else {
            apply(decision)
        }
    }

    /// Carries out a role decision that needs no peripheral object.
    func apply(_ decision: ChatRendezvous.Decision) {
        switch decision {
        case let .invite(partner):
            report(.role(.peripheral(partner: partner)))
            invite(partner)
        case .connect, .none:
            break
        }
    }

    /// The link came up: the session starts sending again from its first unacknowledged
    /// message.
    func linkUp(central: Bool) {
        linksEstablished += 1
        session.linkEstablished(now: now)
        report(.linkUp(central: central))
        pump()
    }

    /// The link went away (or was declared dead).
    func linkDown(_ reason: String) {
        guard session.isLinkUp else { return }
        session.linkLost()
        writeInFlight = false
        pendingNotification = nil
        report(.linkDown(reason: reason))
    }

    /// Hands frames received from the partner to the session.
    func received(_ frame: Data) {
        for event in session.receive(frame, now: now) {
            switch event {
            case let .message(message): report(.message(message))
            case let .acknowledged(count): report(.acknowledged(count))
            }
        }
        pump()
    }

    /// Sends whatever the session has due, as far as the link allows.
    func pump() {
        guard session.isLinkUp else { return }
        if rendezvous.role.map({ if case .central = $0 { true } else { false } }) == true {
            pumpWrites()
        } else {
            pumpNotifications()
        }
    }

    /// The clock: heartbeats and the silent-link check.
    private func tick() {
        if session.checkLink(now: now) {
            let timeout = session.configuration.linkTimeout
            session.linkLost()
            writeInFlight = false
            pendingNotification = nil
            report(.linkDown(reason: "no frame for \(timeout): heartbeats missed"))
            linkSilent()
        }
        if let retry = advertisingRetry, now >= retry {
            advertisingRetry = nil
            if subscriber == nil, peripheralManager?.isAdvertising == false { advertise() }
        }
        pump()
    }
}
