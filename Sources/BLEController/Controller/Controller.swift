import BLEWire

/// A virtual LE link-layer controller behind HCI (Core 5.4, Vol 4, Part E and Vol 6, Part B):
/// its host sends H4 packets, the air delivers packets to its open receiver and it wakes at
/// ``nextDeadline``. Outside connections it advertises, scans and initiates itself; each
/// connection is a ``LinkLayerConnection`` it creates and feeds.
///
/// One radio serves everything: connections come first, then advertising, then initiating,
/// then scanning; a lower-priority activity skips a slot that would overlap. Connections
/// share the radio event by event (see `shareRadioBetweenConnections`): one event at a time,
/// each ending before the next link's, and where two collide the one skipped less recently
/// gives way.
public struct Controller: SimulatedController {
    /// Counters of what the controller dropped, for tests and diagnostics.
    public struct Counters: Hashable, Sendable {
        /// Host ACL packets for a handle that does not exist.
        public var aclUnknownHandle = 0
        /// Host ACL packets beyond the buffer credits or the buffer size.
        public var aclOverflow = 0
        /// Advertising-channel PDUs from the air that did not decode.
        public var malformedAirPDUs = 0
        /// Host packets of kinds a controller does not take (events, SCO, ISO).
        public var ignoredHostPackets = 0
        /// CONNECT_INDs addressed to us whose LLData were out of range
        /// (``BLEWire/LL/ConnectionRequestData/invalidity``): refused, advertising went on.
        public var invalidConnectIndications = 0
        /// What the links refused from their peers, by kind, over all links so far (per
        /// link in ``LinkLayerConnection/refusals``).
        public var linkRefusals = LinkLayerRefusals()
        /// Connection events a link skipped because another link's event held the radio.
        public var skippedConnectionEvents = 0
        /// Connection events a link held the radio for.
        public var connectionEvents = 0

        /// All counters at zero.
        public init() {}
    }

    /// Per-connection bookkeeping around one ``LinkLayerConnection``.
    struct ConnectionSlot: Sendable {
        var link: LinkLayerConnection
        var role: HCI.Role
        var request: LL.ConnectionRequestData
        var peerAddress: BluetoothAddress
        var transmitPHY = HCI.PHY.le1M
        var receivePHY = HCI.PHY.le1M
        var authenticatedPayloadTimeout: UInt16 = 3000
        /// Host ACL packets handed to the link layer and not yet reported completed.
        var outstandingACLPackets = 0
        /// Host ACL packets handed straight to the peer (``DirectLinkData``) and not yet
        /// reported in Number Of Completed Packets; they hold their buffers until then.
        var directCompletions = 0
        /// The receiver window the link last asked for; it reaches the radio while the link
        /// holds it.
        var window: ReceiverWindow?
        /// Events in a row this link gave to another link; the most starved goes first.
        var skippedEvents = 0
    }

    /// The configuration the controller was built with.
    public let configuration: ControllerConfiguration
    /// What the controller has dropped so far.
    public internal(set) var counters = Counters()

    var random: ControllerRandom
    var now: Microseconds = 0
    var eventMask = HCI.EventMask.defaultAfterReset
    var eventMaskPage2: UInt64 = 0
    var leEventMask = HCI.LEEventMask.defaultAfterReset
    var randomAddress: BluetoothAddress?
    var advertisingParameters = Controller.defaultAdvertisingParameters
    var advertisingData: [UInt8] = []
    var scanResponseData: [UInt8] = []
    var scanParameters = Controller.defaultScanParameters
    var advertiser: LegacyAdvertiser?
    var scanner: LegacyScanner?
    /// The advertising sets, in ascending handle order (Controller+ExtendedAdvertising.swift).
    var advertisingSets: [AdvertisingSet] = []
    var extendedScanner: ExtendedScanner?
    /// LE Periodic Advertising Create Sync waiting for its train (Controller+PeriodicSync.swift).
    var pendingPeriodicSync: HCI.LEPeriodicAdvertisingCreateSync?
    /// The periodic trains followed.
    var periodicSyncs: [PeriodicSync] = []
    var extendedScanParameters = Controller.defaultScanParameters
    /// The primary PHYs the extended scan takes in turn, with their intervals and windows;
    /// `nil` scans LE 1M with ``extendedScanParameters``.
    var extendedScanLegs: [ScanSchedule.Leg]?
    /// Legacy or extended commands, once the host has used one of them (§3.1.1 of Vol 4, Part E).
    var advertisingCommandFamily: AdvertisingCommandFamily?
    /// The legacy-PDU advertising set that holds ``advertiser``, if one does.
    var legacyAdvertisingSet: LegacyAdvertisingSetRun?
    var initiator: Initiator?
    var filterAcceptList: [FilterAcceptListEntry] = []
    var resolvingList = ControllerResolvingList()
    var addressResolutionEnabled = false
    var resolvablePrivateAddressTimeout: UInt16 = 0x0384
    var hostChannelClassification: UInt64 = 0x1F_FFFF_FFFF
    var leHostSupported = false
    var suggestedMaxTxOctets: UInt16 = 27
    var suggestedMaxTxTime: UInt16 = 328
    /// The host's PHY preferences for new connections (LE Set Default PHY, Vol 4, Part E,
    /// §7.8.48): none until it says, so a link offers every PHY it supports.
    var defaultPHY = HCI.LESetDefaultPHY(allPHYs: [.noTransmitPreference, .noReceivePreference], txPHYs: [], rxPHYs: [])
    var controllerToHostFlowControl = HCI.SetControllerToHostFlowControl.FlowControl.off
    var connections: [ConnectionSlot] = []
    var pendingEvents: [(due: Microseconds, event: HCI.Event)] = []
    /// When the direct completions not yet reported are reported, whatever their number
    /// (``DirectLinkData``).
    var directCompletionsDue: Microseconds?
    var currentWindow: ReceiverWindow?
    /// The connection whose event holds the radio, from its start until it closes.
    var radioOwner: UInt16?

    /// A controller that is powered on and waits for its host's commands.
    public init(configuration: ControllerConfiguration) {
        self.configuration = configuration
        random = ControllerRandom(seed: configuration.seed)
    }

    /// Whether the controller is advertising (for tests and the world's display).
    public var isAdvertising: Bool { advertiser != nil || advertisingSets.contains(where: \.isEnabled) }
    /// Whether the controller is scanning, with the legacy or the extended commands.
    public var isScanning: Bool { scanner != nil || extendedScanner != nil }
    /// Whether an LE Create Connection is pending.
    public var isInitiating: Bool { initiator != nil }
    /// Handles of the open connections, in ascending order.
    public var connectionHandles: [UInt16] { connections.map(\.link.handleValue) }

    /// Handles one input at `now` and returns the resulting HCI packets and radio actions.
    public mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        self.now = max(self.now, now)
        var outputs: [ControllerOutput] = []
        shareRadioBetweenConnections(into: &outputs)
        switch input {
        case let .hci(packet): handleHostPacket(packet, into: &outputs)
        case let .radio(reception): handleReception(reception, into: &outputs)
        case .timer: handleTimer(into: &outputs)
        }
        shareRadioBetweenConnections(into: &outputs)
        reconcileReceiver(into: &outputs)
        return outputs
    }

    /// Loses all state, as a power cycle does, and closes the receiver.
    public mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] {
        let configuration = configuration
        let random = random
        self = Controller(configuration: configuration)
        self.random = random
        self.now = now
        return [.stopListening]
    }

    // MARK: - Host packets

    private mutating func handleHostPacket(_ packet: H4.Packet, into outputs: inout [ControllerOutput]) {
        switch packet {
        case let .command(command): handleCommand(command, into: &outputs)
        case let .acl(data): handleHostACL(data, into: &outputs)
        case .event, .sco, .iso: counters.ignoredHostPackets += 1
        }
    }

    /// The activities in order of priority for the radio.
    enum Activity: Int { case connection, advertising, initiating, scanning }

    /// When an activity more important than `activity` next needs the radio: now while a
    /// connection event is under way, else the next connection event's start.
    /// Mutating, though it changes nothing, so that it reads the controller in place: a
    /// non-mutating method is handed the controller by value, a copy of over a kilobyte,
    /// and this runs for every packet a scanner hears and every advertising event.
    mutating func higherPriorityStart(than activity: Activity) -> Microseconds? {
        if radioOwner != nil { return now }
        // A running minimum, not an array of starts: this runs for every packet a scanner hears.
        var earliest: Microseconds?
        for connection in connections { earliest = Self.earlier(earliest, connection.link.nextEventStart) }
        if activity.rawValue > Activity.advertising.rawValue {
            if advertiser != nil { earliest = Self.earlier(earliest, advertiser?.nextEventStart ?? now) }
            for set in advertisingSets {
                guard let running = set.advertiser else { continue }
                earliest = Self.earlier(earliest, running.claim(at: now) == .none ? running.nextEvent : now)
            }
        }
        return earliest
    }

    // MARK: - Effects

    mutating func apply(_ effects: [LinkEffect], into outputs: inout [ControllerOutput]) {
        for effect in effects {
            switch effect {
            case let .transmit(transmission): outputs.append(.transmit(transmission))
            case let .event(event): emit(event, into: &outputs)
            case let .connected(connection): open(connection, into: &outputs)
            }
        }
    }

    /// Creates the link layer of a new connection and tells the host (LE Connection Complete
    /// or LE Enhanced Connection Complete, §7.7.65.1 and §7.7.65.10), then, if the host
    /// unmasked it and the controller claims Channel Selection Algorithm #2 or the link uses
    /// it, LE Channel Selection Algorithm (§7.7.65.20). The central's events are
    /// sent when the CONNECT_IND has left the antenna. An advertising set that accepted the
    /// connection ends with it: LE Advertising Set Terminated after the others (§7.7.65.18).
    private mutating func open(_ connection: NewConnection, into outputs: inout [ControllerOutput]) {
        if connection.role == .peripheral, connection.advertisingHandle == nil { advertiser = nil }
        let handle = freeHandle()
        var link = LinkLayerConnection(
            handle: handle, role: connection.role, request: connection.request,
            connectIndicationEnd: connection.connectIndicationEnd, localAddress: connection.localAddress,
            peerAddress: connection.peerAddress, configuration: configuration, seed: random.next(),
            phy: connection.phy, channelSelectionAlgorithm2: connection.channelSelectionAlgorithm2,
            transmitWindowDelay: connection.transmitWindowDelay)
        link.adoptDefaultPHY(defaultPHY)
        connections.append(ConnectionSlot(
            link: link, role: connection.role, request: connection.request, peerAddress: connection.peerAddress,
            transmitPHY: connection.phy.hciPHY, receivePHY: connection.phy.hciPHY))
        connections.sort { $0.link.handleValue < $1.link.handleValue }
        let accuracy = HCI.ClockAccuracy(rawValue: connection.request.sleepClockAccuracy) ?? .ppm500
        let addresses = connectionAddresses(local: connection.localAddress, peer: connection.peerAddress)
        var events = [connectionCompleteEvent(
            status: .success, handle: handle, role: connection.role, peer: connection.peerAddress,
            interval: connection.request.interval, latency: connection.request.latency,
            timeout: connection.request.timeout, clockAccuracy: connection.role == .central ? .ppm500 : accuracy,
            addresses: addresses)]
        // Only a controller with the CSA#2 feature, or a link that uses it, tells (§7.7.65.20).
        if leEventMask.contains(.channelSelectionAlgorithm),
           reportedLEFeatures.contains(.channelSelectionAlgorithm2) || connection.channelSelectionAlgorithm2 {
            events.append(.leMeta(.channelSelectionAlgorithm(HCI.LEChannelSelectionAlgorithm(
                connectionHandle: handle, channelSelectionAlgorithm: link.channelSelectionAlgorithm))))
        }
        for event in events {
            if connection.role == .central, connection.connectIndicationEnd > now {
                pendingEvents.append((connection.connectIndicationEnd, event))
            } else {
                emit(event, into: &outputs)
            }
        }
        guard connection.role == .peripheral else { return }
        if let setHandle = connection.advertisingHandle {
            endExtendedSet(setHandle, connectionHandle: handle, into: &outputs)
        } else {
            // A legacy-PDU set that made the connection ends with it (§7.7.65.18).
            stopLegacySet(status: .success, connectionHandle: handle, into: &outputs)
        }
    }

    /// The lowest connection handle not in use, from 0x0001.
    private func freeHandle() -> UInt16 {
        var handle: UInt16 = 1
        for slot in connections where slot.link.handleValue == handle { handle += 1 }
        return handle
    }

    /// LE Connection Complete, or the enhanced form when the host enabled it in the LE mask.
    func connectionCompleteEvent(
        status: HCI.StatusCode, handle: UInt16, role: HCI.Role, peer: BluetoothAddress,
        interval: UInt16, latency: UInt16, timeout: UInt16, clockAccuracy: HCI.ClockAccuracy,
        addresses: ConnectionAddresses? = nil
    ) -> HCI.Event {
        let zero = BluetoothAddress(0, kind: .random)
        let addresses = addresses ?? ConnectionAddresses(
            peer: peer, peerType: peer.kind == .public ? .public : .random, localPrivate: zero, peerPrivate: zero)
        if leEventMask.contains(.enhancedConnectionComplete) {
            return .leMeta(.enhancedConnectionComplete(HCI.LEEnhancedConnectionComplete(
                status: status, connectionHandle: handle, role: role, peerAddressType: addresses.peerType,
                peerAddress: addresses.peer, localResolvablePrivateAddress: addresses.localPrivate,
                peerResolvablePrivateAddress: addresses.peerPrivate, connectionInterval: interval,
                peripheralLatency: latency, supervisionTimeout: timeout, centralClockAccuracy: clockAccuracy)))
        }
        // The legacy event has only types 0x00/0x01: a resolved peer appears as its identity.
        let legacyType: HCI.AddressType = addresses.peer.kind == .public ? .public : .random
        return .leMeta(.connectionComplete(HCI.LEConnectionComplete(
            status: status, connectionHandle: handle, role: role, peerAddressType: legacyType, peerAddress: addresses.peer,
            connectionInterval: interval, peripheralLatency: latency, supervisionTimeout: timeout,
            centralClockAccuracy: clockAccuracy)))
    }

    // MARK: - Receiver arbitration

    /// Opens, moves or closes the receiver for the most important activity that wants it:
    /// the connection whose event holds the radio, else an advertising, initiating or
    /// scanning exchange under way, else the first of them that would listen.
    private mutating func reconcileReceiver(into outputs: inout [ControllerOutput]) {
        var desired: ReceiverWindow?
        if let owner = radioOwner {
            desired = connections.first { $0.link.handleValue == owner }?.window
            guard desired != currentWindow else { return }
            currentWindow = desired
            outputs.append(desired.map(ControllerOutput.listen) ?? .stopListening)
            return
        }
        // A periodic sync's packet that is due takes the receiver from advertising and scanning.
        // Emptiness first: the getter, called, is handed a copy of the controller (see higherPriorityStart(than:)).
        if !periodicSyncs.isEmpty, let window = periodicSyncWindow {
            guard window != currentWindow else { return }
            currentWindow = window
            outputs.append(.listen(window))
            return
        }
        // The legacy advertiser (a legacy-PDU set's, maybe) and the extended sets take turns;
        // whichever sends holds the radio. (A loop, not a mapped array: this runs after every input.)
        var advertiserClaim = advertiser?.claim ?? .none
        for set in advertisingSets where advertiserClaim == .none {
            advertiserClaim = set.advertiser?.claim(at: now) ?? .none
        }
        // Three claims in order of importance (advertising, initiating, scanning), held in
        // locals rather than an array, which would be allocated after every input.
        let initiatorClaim = initiator?.claim(at: now) ?? .none
        let scannerClaim = scanner?.claim(at: now) ?? extendedScanner?.claim(at: now) ?? .none
        // An exchange under way (a claim that is `.busy`) keeps the radio over mere listening;
        // among equals the more important activity wins.
        var holder: Int?
        if case let .busy(window) = advertiserClaim {
            desired = window
            holder = 0
        } else if case let .busy(window) = initiatorClaim {
            desired = window
            holder = 1
        } else if case let .busy(window) = scannerClaim {
            desired = window
            holder = 2
        } else if case let .listen(window) = advertiserClaim {
            desired = window
            holder = 0
        } else if case let .listen(window) = initiatorClaim {
            desired = window
            holder = 1
        } else if case let .listen(window) = scannerClaim {
            desired = window
            holder = 2
        }
        if let holder, holder < 2, case .busy = scannerClaim {
            // The advertiser took the radio during a scan request exchange.
            scanner?.abandonRequest()
            extendedScanner?.abandonRequest()
        }
        guard desired != currentWindow else { return }
        currentWindow = desired
        outputs.append(desired.map(ControllerOutput.listen) ?? .stopListening)
    }
}
