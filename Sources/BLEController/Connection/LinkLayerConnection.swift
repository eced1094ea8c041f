import BLECrypto
import BLEWire

/// The Link Layer of one established LE connection (Core 5.4, Vol 6, Part B, §4.5 and
/// §5): connection event timing and channel hopping, acknowledgement and flow control,
/// the data path between HCI ACL packets and LL data PDUs, the LL control procedures and
/// link encryption.
///
/// A sans-IO state machine: the controller feeds it inputs with the current virtual time
/// and carries out the outputs (radio actions, HCI events and data for the host). It keeps
/// no clock; it asks to be woken at ``nextDeadline``.
public struct LinkLayerConnection: Sendable {
    /// One PDU waiting for its acknowledgement, exactly as first sent (encrypted payload
    /// included), so a retransmission repeats it (§4.5.9).
    struct SentPDU: Sendable {
        var llid: LL.DataChannelPDU.LLID
        var airPayload: [UInt8]
        /// Host ACL packets whose last fragment this is.
        var completesHostPackets: Int
        /// The control PDU carried, for what its acknowledgement completes.
        var control: LL.ControlPDU?
    }

    /// A host ACL packet being cut into LL data PDUs.
    struct HostPacket: Sendable {
        var data: ArraySlice<UInt8>
        var startsL2CAPMessage: Bool
        var offset: Int
    }

    /// A control PDU to send; procedures with an instant get it when the PDU is built.
    enum PendingControl: Sendable {
        case pdu(LL.ControlPDU)
        case connectionUpdate(interval: UInt16, latency: UInt16, timeout: UInt16)
        case phyUpdate(centralToPeripheral: UInt8, peripheralToCentral: UInt8)
        case channelMapUpdate(UInt64)
    }

    /// Where the connection is within its events.
    enum Phase: Sendable {
        /// Just created: a peripheral opens its first receive window at once.
        case starting
        /// Waiting for the anchor of event ``LinkLayerConnection/eventCounter``; a
        /// peripheral has its receiver open around it until `missDeadline`.
        case waitingForAnchor(missDeadline: Microseconds)
        /// Sent a packet within an event; the peer's next packet must start soon.
        case awaitingPeer(missDeadline: Microseconds)
        /// The connection is over.
        case closed
    }

    /// Parameter changes that take effect at an instant (§5.1.1, §5.1.2, §5.1.10).
    struct PendingInstant: Sendable {
        var instant: UInt16
        var change: Change
        enum Change: Sendable {
            case parameters(LL.ConnectionUpdateIndication, notifyHost: Bool)
            case channelMap(UInt64)
            case phy(txPHY: RadioPHY?, rxPHY: RadioPHY?, notifyHost: Bool)
        }
    }

    // MARK: Identity and configuration

    /// The local role.
    public let role: HCI.Role
    /// The connection handle.
    public let handleValue: UInt16
    let accessAddress: UInt32
    let localAddress: BluetoothAddress
    let peerAddress: BluetoothAddress
    let configuration: ControllerConfiguration
    var random: ConnectionRandom

    // MARK: Timing

    var intervalUnits: UInt16
    var latency: UInt16
    var timeoutUnits: UInt16
    var interval: Microseconds { Microseconds(intervalUnits) * 1250 }
    var supervisionTimeout: Microseconds { Microseconds(timeoutUnits) * 10_000 }
    /// Anchor of the event ``eventCounter`` (planned, or measured by a peripheral).
    var anchor: Microseconds
    /// Extra receive time after the anchor: the transmit window of the first event or
    /// of a connection update's instant, 0 otherwise.
    var transmitWindowExtra: Microseconds
    var eventCounter: UInt16 = 0
    /// Events since the connection began, not wrapping: the channel selection's input.
    var eventIndex = 0
    /// When a peripheral last synchronised to the central's anchor (window widening).
    var lastSynchronisedAnchor: Microseconds
    let centralClockAccuracyPPM: Int64
    let connectIndicationEnd: Microseconds
    var channels: DataChannelSelection
    var channel: UInt8
    var txPHY: RadioPHY = .le1M
    var rxPHY: RadioPHY = .le1M
    var phase: Phase
    var established = false
    var lastValidReception: Microseconds
    var procedureDeadline: Microseconds?
    var pendingInstants: [PendingInstant] = []
    /// A peripheral that skipped events (latency) remembers where it could have listened.
    var firstSkippableEvent: (counter: UInt16, index: Int, anchor: Microseconds)?
    /// When another link of the same controller needs the radio: the current event must be
    /// over by then (given with ``ConnectionInput/beginEvent(radioFreeUntil:)``).
    var radioFreeUntil: Microseconds?

    // MARK: Acknowledgement and queues

    var transmitSequenceNumber = false
    var nextExpectedSequenceNumber = false
    var lastSentMoreData = false
    var unacknowledged: SentPDU?
    var controlQueue: [PendingControl] = []
    var hostQueue: [HostPacket] = []
    var hostQueueHead = 0
    var terminating: HCI.StatusCode?
    /// Whether ``terminating`` was the Link Layer's own decision rather than the host's.
    var terminatedByLinkLayer = false
    /// What this Link Layer refused from its peer so far.
    public internal(set) var refusals = LinkLayerRefusals()

    // MARK: Data length

    var localMaxTxOctets: UInt16 = 27
    var localMaxTxTime: UInt16 = 328
    let localMaxRxOctets: UInt16 = 251
    let localMaxRxTime: UInt16 = 2120
    var remoteMaxRxOctets: UInt16 = 27
    var remoteMaxRxTime: UInt16 = 328
    var remoteMaxTxOctets: UInt16 = 27
    var remoteMaxTxTime: UInt16 = 328
    var lengthRequestPending = false
    /// The effective lengths last reported to the host (connMaxTxOctets, connMaxTxTime,
    /// connMaxRxOctets, connMaxRxTime; Vol 6, Part B, §4.5.10): a change against these, not
    /// against the values before the latest PDU, is what LE Data Length Change reports, so
    /// a change this side's own LE Set Data Length made is reported too.
    var reportedLengths: [UInt16] = [27, 328, 27, 328]

    // MARK: Procedures

    var remoteFeatures: UInt64?
    var featureRequestPending = false
    var remoteVersion: LL.VersionIndication?
    var versionSent = false
    var versionRequestedByHost = false
    var phyPreferences = LL.PHYPreferences(txPHYs: 0b011, rxPHYs: 0b011)
    /// The coding this side transmits with on LE Coded. Which coding a transmitter uses is
    /// its own choice, packet by packet (Core 5.4, Vol 6, Part B, §2.2; a receiver reads it
    /// from the Coding Indicator): we send S=2 only when our host preferred it in LE Set PHY's
    /// PHY_Options (Vol 4, Part E, §7.8.49), else S=8, the longest reach, for range is what a
    /// host moves a link to LE Coded for.
    var codedCoding: LECoding = .s8
    var phyRequestPending = false
    var phyRequestedByHost = false
    var connectionUpdatePending = false

    // MARK: Encryption

    var encryption = EncryptionState()

    /// The LL features this Link Layer supports (Core 5.4, Vol 6, Part B, §4.6): LE
    /// Encryption, Extended Reject Indication, Peripheral-initiated Features Exchange, LE
    /// Ping, LE Data Packet Length Extension and LE 2M PHY.
    public static let supportedFeatures: UInt64 = 0x0000_0000_0000_013D
    /// LE Coded PHY, LL feature bit 11 (§4.6.12): offered in the feature exchange, and taken
    /// in the PHY update procedure, by a link layer whose controller has the feature.
    public static let codedPHYFeature: UInt64 = 1 << 11

    /// Whether this link layer can move to LE Coded: its controller claims the LE Coded PHY
    /// (``ControllerConfiguration/claimsExtendedAdvertising``).
    var supportsCodedPHY: Bool { configuration.claimsExtendedAdvertising }

    /// The LL features this link layer offers its peer: ``supportedFeatures``, with
    /// ``codedPHYFeature`` when it supports LE Coded and ``channelSelectionAlgorithm2Feature``
    /// when its controller claims it.
    public var localFeatures: UInt64 {
        var features = supportsCodedPHY ? Self.supportedFeatures | Self.codedPHYFeature : Self.supportedFeatures
        if configuration.claimsChannelSelectionAlgorithm2 { features |= Self.channelSelectionAlgorithm2Feature }
        return features
    }
    /// Channel Selection Algorithm #2, LL feature bit 14 (§4.6.16), offered by a link layer
    /// whose controller claims it (``ControllerConfiguration/claimsChannelSelectionAlgorithm2``).
    public static let channelSelectionAlgorithm2Feature: UInt64 = 1 << 14

    /// The PHYs this link layer can use, as the bits of LL_PHY_REQ (§2.4.2.22): 1M and 2M,
    /// and Coded (bit 2) when it supports it.
    var supportedPHYBits: UInt8 { supportsCodedPHY ? 0b111 : 0b011 }
    /// The LL_VERSION_IND this Link Layer sends: Core 5.4 (0x0D), company 0xFFFF
    /// (reserved for tests and unassigned implementations), subversion 1.
    public static let version = LL.VersionIndication(version: 0x0D, companyIdentifier: 0xFFFF, subversion: 0x0001)
    /// How long a peer has to answer a control procedure (§5.2): 40 s.
    public static let procedureResponseTimeout: Microseconds = 40_000_000
    /// A receive window closes this long after the packet is due (our clocks do not drift).
    static let receiveWindowMargin: Microseconds = 16

    /// The signal strength of the last packet received from the peer.
    public internal(set) var lastRSSI: Int8?

    /// The data channels in use now (37 bits), after any channel map update (LE Read
    /// Channel Map, Core 5.4, Vol 4, Part E, §7.8.20).
    public var currentChannelMap: UInt64 { channels.channelMap }

    /// A connection as CONNECT_IND set it up (§4.5.1 and §4.5.3).
    ///
    /// - Parameters:
    ///   - handle: the connection handle the controller assigned.
    ///   - role: `.central` for the initiator, `.peripheral` for the advertiser.
    ///   - request: the LLData of CONNECT_IND.
    ///   - connectIndicationEnd: when the CONNECT_IND's last bit left the air; the
    ///     transmit window starts 1.25 ms + windowOffset after it.
    ///   - localAddress: this device's address on the link.
    ///   - peerAddress: the peer's address.
    ///   - configuration: the controller's configuration (ACL buffer size, TX power).
    ///   - seed: the seed of the connection's random source.
    ///   - phy: the PHY the connection starts on: LE 1M after CONNECT_IND, the secondary PHY
    ///     the AUX_CONNECT_REQ went on otherwise (§4.5).
    ///   - channelSelectionAlgorithm2: whether the link hops with Channel Selection Algorithm
    ///     #2 (§4.5.8.3) rather than #1.
    ///   - transmitWindowDelay: from the end of the connect request to the transmit window
    ///     (§4.5.3): 1.25 ms after CONNECT_IND, 2.5 ms after AUX_CONNECT_REQ on LE 1M or 2M,
    ///     3.75 ms on LE Coded.
    public init(
        handle: UInt16, role: HCI.Role, request: LL.ConnectionRequestData,
        connectIndicationEnd: Microseconds, localAddress: BluetoothAddress,
        peerAddress: BluetoothAddress, configuration: ControllerConfiguration, seed: UInt64,
        phy: RadioPHY = .le1M, channelSelectionAlgorithm2: Bool = false, transmitWindowDelay: Microseconds = 1250
    ) {
        self.handleValue = handle
        self.role = role
        self.accessAddress = request.accessAddress
        self.localAddress = localAddress
        self.peerAddress = peerAddress
        self.configuration = configuration
        self.random = ConnectionRandom(seed: seed)
        self.intervalUnits = max(request.interval, 1)
        self.latency = request.latency
        self.timeoutUnits = max(request.timeout, 1)
        let windowStart = connectIndicationEnd + transmitWindowDelay + Microseconds(request.windowOffset) * 1250
        self.anchor = windowStart
        self.transmitWindowExtra = Microseconds(max(request.windowSize, 1)) * 1250
        self.lastSynchronisedAnchor = connectIndicationEnd
        let accuracies: [Int64] = [500, 250, 150, 100, 75, 50, 30, 20]
        self.centralClockAccuracyPPM = accuracies[Int(request.sleepClockAccuracy & 0x07)]
        self.channels = channelSelectionAlgorithm2
            ? .algorithm2(ChannelSelectionAlgorithm2(accessAddress: request.accessAddress, channelMap: request.channelMap))
            : .algorithm1(ChannelSelectionAlgorithm1(hopIncrement: request.hopIncrement, channelMap: request.channelMap))
        self.channel = channels.channel(eventIndex: 0)
        self.lastValidReception = windowStart
        self.phase = role == .central ? .waitingForAnchor(missDeadline: windowStart) : .starting
        self.connectIndicationEnd = connectIndicationEnd
        let phys: UInt8 = configuration.claimsExtendedAdvertising ? 0b111 : 0b011
        self.phyPreferences = LL.PHYPreferences(txPHYs: phys, rxPHYs: phys)
        self.txPHY = phy
        self.rxPHY = phy
    }

    /// The channel selection algorithm the link hops with (LE Channel Selection Algorithm, Vol 4, Part E, §7.7.65.20).
    public var channelSelectionAlgorithm: HCI.LEChannelSelectionAlgorithm.Algorithm { channels.hciAlgorithm }

    /// Takes the host's LE Set Default PHY (Core 5.4, Vol 4, Part E, §7.8.48) as this link's
    /// preferences, which its LL_PHY_REQ and LL_PHY_RSP carry: the PHYs named that this
    /// link layer supports, all of them for a direction without a preference (or none named).
    public mutating func adoptDefaultPHY(_ command: HCI.LESetDefaultPHY) {
        phyPreferences = phyPreferences(allPHYs: command.allPHYs, tx: command.txPHYs, rx: command.rxPHYs)
    }

    /// A host's PHY preferences limited to what this link layer supports.
    func phyPreferences(allPHYs: HCI.AllPHYsPreference, tx: HCI.LEPHYs, rx: HCI.LEPHYs) -> LL.PHYPreferences {
        let supported = supportedPHYBits
        let tx = allPHYs.contains(.noTransmitPreference) ? supported : tx.rawValue & supported
        let rx = allPHYs.contains(.noReceivePreference) ? supported : rx.rawValue & supported
        return LL.PHYPreferences(txPHYs: tx == 0 ? supported : tx, rxPHYs: rx == 0 ? supported : rx)
    }

    /// When the connection next needs a ``ConnectionInput/timer`` input; `nil` once closed.
    /// A new peripheral asks for one at `connectIndicationEnd`, to open its first receive
    /// window; a new central at its first anchor.
    public var nextDeadline: Microseconds? {
        Self.deadline(phase: phase, role: role, anchor: anchor, connectIndicationEnd: connectIndicationEnd,
                      supervision: supervisionDeadline, procedure: procedureDeadline)
    }

    /// Whether the connection is over.
    public var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// The PHY this side transmits on.
    public var transmitPHY: RadioPHY { txPHY }

    /// Whether packets this side sends are encrypted.
    public var isEncrypted: Bool { encryption.transmitEncrypted }

    /// The largest payload this side may send, per the data length update (§4.5.10).
    public var effectiveMaxTxOctets: UInt16 { min(localMaxTxOctets, remoteMaxRxOctets) }

    /// When the connection is lost for silence: connSupervisionTimeout after the last
    /// valid packet, or six intervals after the first anchor before any (§4.5.2).
    var supervisionDeadline: Microseconds {
        Self.supervisionDeadline(established: established, lastValidReception: lastValidReception,
                                 timeoutUnits: timeoutUnits, intervalUnits: intervalUnits)
    }

    /// Handles one input at virtual time `now` and returns what to do.
    public mutating func handle(_ input: ConnectionInput, at now: Microseconds) -> [ConnectionOutput] {
        if case .closed = phase { return [] }
        var outputs: [ConnectionOutput] = []
        switch input {
        case let .radio(reception): receive(reception, at: now, into: &outputs)
        case .timer: timerFired(at: now, into: &outputs)
        case let .hostData(packet): enqueueHostData(packet, at: now, into: &outputs)
        case let .command(command): perform(command, at: now, into: &outputs)
        case let .beginEvent(radioFreeUntil): beginEvent(radioFreeUntil: radioFreeUntil, at: now, into: &outputs)
        case .skipEvent: skipEvent(at: now, into: &outputs)
        }
        return outputs
    }

    /// Ends the connection: Disconnection Complete for the host, then `.closed`.
    mutating func close(reason: HCI.StatusCode, into outputs: inout [ConnectionOutput]) {
        if case .closed = phase { return }
        phase = .closed
        outputs.append(.radio(.stopListening))
        outputs.append(.event(.disconnectionComplete(.init(status: .success, connectionHandle: handleValue, reason: reason))))
        outputs.append(.closed(reason: reason))
    }
}
