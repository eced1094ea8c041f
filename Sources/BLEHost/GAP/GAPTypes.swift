import BLEWire

/// What ``GAPCore`` asks of the layer around it, in order (DESIGN.md, "Principles": a
/// sans-IO core returns its effects).
public enum GAPOutput: Sendable {
    /// An HCI command to hand to ``HCIDriver/submit(_:token:at:)`` with `token`; its result
    /// comes back to ``GAPCore/handle(_:at:)`` as ``HCIDriverOutput/commandCompleted(_:_:)``.
    case submit(any HCICommand, token: HCICommandToken)
    /// Something the layer above should know about.
    case event(GAPEvent)
}

/// The procedures of the Generic Access Profile (Core 5.4, Vol 3, Part C, §9) and the link
/// procedures GAP drives, used to say which one failed.
public enum GAPProcedure: Hashable, Sendable {
    /// Setting the random static address (Vol 6, Part B, §1.3.2.1).
    case setRandomAddress
    /// Starting, changing or stopping legacy advertising (Vol 3, Part C, §9.1–9.3).
    case advertising
    /// Starting or stopping scanning (Vol 3, Part C, §9.2.5–9.2.6).
    case scanning
    /// Terminating a connection (Vol 3, Part C, §9.3.10).
    case disconnect(handle: UInt16)
    /// The connection parameter update procedure (Vol 3, Part C, §9.3.9).
    case connectionParameterUpdate(handle: UInt16)
    /// The data length update procedure (Vol 6, Part B, §5.1.9).
    case dataLengthUpdate(handle: UInt16)
    /// The PHY update procedure (Vol 6, Part B, §5.1.10).
    case phyUpdate(handle: UInt16)
    /// Reading the RSSI of a connection (Vol 4, Part E, §7.5.4).
    case readRSSI(handle: UInt16)
    /// Reading the PHYs a connection is on (Vol 4, Part E, §7.8.47).
    case readPHY(handle: UInt16)
    /// The feature exchange with the peer (Vol 6, Part B, §5.1.4), started by HCI LE Read
    /// Remote Features (Vol 4, Part E, §7.8.21).
    case readRemoteFeatures(handle: UInt16)
    /// Asking a simulated controller where its device is (SwiftBLE's vendor command,
    /// ``HCI/ReadSimulatedLocation``).
    case readSimulatedLocation
    /// Ending a periodic sync (Vol 4, Part E, §7.8.69).
    case terminatePeriodicSync(handle: UInt16)
}

/// Why GAP refused a request or a procedure failed; the controller's status codes are kept
/// by name (Core 5.4, Vol 1, Part F).
public enum GAPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Legacy advertising data or scan response data is longer than the 31 octets a legacy
    /// PDU carries (Vol 3, Part C, §11).
    case advertisingDataTooLong(octets: Int, maximum: Int)
    /// Scan response data is longer than 31 octets.
    case scanResponseDataTooLong(octets: Int, maximum: Int)
    /// The advertising data cannot be encoded (a structure longer than 254 octets).
    case invalidAdvertisingData(WireError)
    /// Directed advertising needs the peer's address.
    case directedAdvertisingWithoutPeer
    /// A legacy advertising interval must be 20 ms to 10.24 s (Vol 4, Part E, §7.8.5).
    case invalidAdvertisingInterval(milliseconds: Double)
    /// Advertising is already enabled; stop it before starting it again.
    case advertisingAlreadyEnabled
    /// Stopping or changing advertising that is not running.
    case advertisingNotEnabled
    /// Scanning is already running.
    case scanningAlreadyEnabled
    /// Stopping scanning that is not running.
    case scanningNotEnabled
    /// Extended advertising was asked of a controller that does not claim LE Set Extended
    /// Advertising Parameters, Data and Enable.
    case extendedAdvertisingUnsupported
    /// The extended set asked for is not one the controller models: it must be
    /// non-connectable and non-scannable, with no scan response, SID at most 0x0F, its
    /// primary PHY LE 1M or LE Coded and its secondary PHY any of the three.
    case unsupportedExtendedSet(String)
    /// LE Coded was asked of a controller that does not report the LE Coded PHY feature
    /// (LE Supported Features bit 11; Core 5.4, Vol 6, Part B, §4.6.12).
    case codedPHYUnsupported
    /// An extended scan's PHYs (its Scanning_PHYs bits) are none, or include one other than
    /// LE 1M and LE Coded, the only primary advertising PHYs (Vol 4, Part E, §7.8.64).
    case unsupportedScanPHYs(UInt8)
    /// An extended scan was asked of a controller that does not claim LE Set Extended Scan
    /// Parameters and Enable in its Supported Commands (Core 5.4, Vol 4, Part E, §6.27).
    case extendedScanningUnsupported
    /// A connection on chosen PHYs was asked of a controller that does not claim LE Extended
    /// Create Connection in its Supported Commands (Core 5.4, Vol 4, Part E, §6.27).
    case extendedConnectionUnsupported
    /// A connection's initiating PHYs include neither LE 1M nor LE Coded, the only PHYs
    /// scanned for advertising, or a PHY beyond those three (Vol 4, Part E, §7.8.66).
    case unsupportedInitiatingPHYs(UInt8)
    /// The random address may not change while advertising, scanning or initiating
    /// (Vol 4, Part E, §7.8.4).
    case randomAddressChangeWhileBusy
    /// Not a random static address: the two top bits must be 11 and the other 46 bits
    /// neither all zeros nor all ones (Vol 6, Part B, §1.3.2.1).
    case invalidRandomStaticAddress(BluetoothAddress)
    /// Not a resolvable private address: a random address whose two top bits are 01
    /// (Vol 6, Part B, §1.3.2.2).
    case invalidResolvablePrivateAddress(BluetoothAddress)
    /// A random own address was asked for before one was set.
    case noRandomAddress
    /// A connection to this peer is already being made or waiting.
    case alreadyConnecting(BluetoothAddress)
    /// This peer is already connected.
    case alreadyConnected(BluetoothAddress)
    /// No pending or queued connection to this peer to cancel.
    case notConnecting(BluetoothAddress)
    /// No connection with this handle.
    case unknownConnection(handle: UInt16)
    /// Only the central may start this procedure on the link (Vol 6, Part B, §5.1.1).
    case notCentral(handle: UInt16)
    /// The connection was not made within the requested time; creation was cancelled.
    case timeout
    /// The host cancelled the connection attempt.
    case cancelled
    /// Encryption is already being started on this link; wait for its outcome.
    case encryptionInProgress(handle: UInt16)
    /// The controller does not report the LE Periodic Advertising feature (LE features bit
    /// 13) or does not claim LE Periodic Advertising Create Sync, Create Sync Cancel and
    /// Terminate Sync (Vol 4, Part E, §7.8.67–§7.8.69).
    case periodicSyncUnsupported
    /// The periodic sync request cannot be sent as it is; the text says why.
    case invalidPeriodicSync(String)
    /// A sync to the same train (advertiser and SID) is already pending or queued (the
    /// controller refuses a second, §7.8.67).
    case periodicSyncPending
    /// No periodic sync is being established.
    case periodicSyncNotPending
    /// A legacy scan was asked for while GAP's extended scan finds periodic trains: the
    /// controller takes one family of commands (Core 5.4, Vol 4, Part E, §3.1.1). Only on a
    /// controller GAP drives with the legacy family: in the extended family every scan is extended.
    case legacyScanWhileSynchronizing
    /// No established periodic sync has this handle.
    case unknownPeriodicSync(handle: UInt16)
    /// The extended scan did not hear the set's AUX_ADV_IND with SyncInfo in the time given.
    case periodicTrainNotFound
    /// The controller received nothing of the train for the sync timeout and ended the sync
    /// (LE Periodic Advertising Sync Lost, §7.7.65.16).
    case periodicSyncLost(handle: UInt16)
    /// The controller refused or ended the procedure with this status.
    case controller(HCI.StatusCode)
    /// The HCI driver could not get the command answered.
    case driver(HCIDriverError)
    /// The controller answered with return parameters that could not be decoded.
    case malformedAnswer(WireError)

    /// A sentence for logs and command-line output.
    public var description: String {
        switch self {
        case let .advertisingDataTooLong(octets, maximum):
            return "advertising data is \(octets) octets; a legacy advertisement carries at most \(maximum)"
        case let .scanResponseDataTooLong(octets, maximum):
            return "scan response data is \(octets) octets; a legacy scan response carries at most \(maximum)"
        case let .invalidAdvertisingData(error): return "advertising data cannot be encoded: \(error)"
        case .directedAdvertisingWithoutPeer: return "directed advertising needs a peer address"
        case let .invalidAdvertisingInterval(milliseconds):
            return "an advertising interval of \(milliseconds) ms is outside 20 ms to 10240 ms"
        case .advertisingAlreadyEnabled: return "advertising is already enabled"
        case .advertisingNotEnabled: return "advertising is not enabled"
        case .scanningAlreadyEnabled: return "scanning is already enabled"
        case .extendedAdvertisingUnsupported:
            return "the controller does not support extended advertising (LE Set Extended Advertising Parameters, Data and Enable are not in its Supported Commands)"
        case let .unsupportedExtendedSet(reason):
            return "this extended advertising set cannot be made: \(reason)"
        case .extendedScanningUnsupported:
            return "the controller does not support extended scanning (LE Set Extended Scan Parameters and Enable are not in its Supported Commands)"
        case .extendedConnectionUnsupported:
            return "the controller does not support connecting on a chosen PHY (LE Extended Create Connection is not in its Supported Commands)"
        case let .unsupportedInitiatingPHYs(bits):
            return "a connection is initiated on LE 1M, LE Coded or both (with LE 2M beside them), not on Initiating_PHYs 0x\(String(bits, radix: 16))"
        case .codedPHYUnsupported:
            return "the controller does not support the LE Coded PHY (bit 11 of its LE Supported Features is clear)"
        case let .unsupportedScanPHYs(bits):
            return "an extended scan listens on LE 1M, LE Coded or both, not on Scanning_PHYs 0x\(String(bits, radix: 16))"
        case .scanningNotEnabled: return "scanning is not enabled"
        case .randomAddressChangeWhileBusy:
            return "the random address cannot change while advertising, scanning or connecting"
        case let .invalidRandomStaticAddress(address): return "\(address) is not a random static address"
        case let .invalidResolvablePrivateAddress(address): return "\(address) is not a resolvable private address"
        case .noRandomAddress: return "no random address has been set"
        case let .alreadyConnecting(peer): return "a connection to \(peer) is already being made"
        case let .alreadyConnected(peer): return "\(peer) is already connected"
        case let .notConnecting(peer): return "no connection to \(peer) is being made"
        case let .unknownConnection(handle): return "no connection with handle 0x\(String(handle, radix: 16))"
        case let .notCentral(handle): return "only the central of connection 0x\(String(handle, radix: 16)) can do that"
        case .timeout: return "the connection was not made in time"
        case .cancelled: return "the connection attempt was cancelled"
        case let .encryptionInProgress(handle):
            return "encryption of connection 0x\(String(handle, radix: 16)) is already being started"
        case .periodicSyncUnsupported:
            return "the controller does not support periodic advertising synchronisation (the LE Periodic Advertising feature, "
                + "LE features bit 13, and LE Periodic Advertising Create Sync, Create Sync Cancel and Terminate Sync)"
        case let .invalidPeriodicSync(why): return "cannot synchronise: \(why)"
        case .periodicSyncPending: return "a sync to this advertiser's set is already being established"
        case .periodicSyncNotPending: return "no periodic advertising sync is being established"
        case .legacyScanWhileSynchronizing:
            return "a periodic sync is being established on an extended scan; scan with the extended commands to run beside it"
        case let .unknownPeriodicSync(handle): return "no periodic advertising sync has handle 0x\(String(handle, radix: 16))"
        case .periodicTrainNotFound:
            return "the periodic train was not found: no AUX_ADV_IND with SyncInfo from that address and SID was heard in time"
        case let .periodicSyncLost(handle):
            return "periodic advertising sync 0x\(String(handle, radix: 16)) was lost: nothing of the train arrived for the sync timeout"
        case let .controller(status): return "the controller answered \(status)"
        case let .driver(error): return "\(error)"
        case let .malformedAnswer(error): return "the controller's answer is malformed: \(error)"
        }
    }
}

/// What ``GAPCore`` tells the layer above.
public enum GAPEvent: Hashable, Sendable {
    /// LE Set Random Address succeeded; the address is now the own random address.
    case randomAddressSet(BluetoothAddress)
    /// Advertising is enabled.
    case advertisingStarted
    /// Advertising stopped: asked for, or a connection was made from it (Vol 6, Part B, §4.4.2).
    case advertisingStopped(connectionHandle: UInt16?)
    /// New advertising or scan response data is in use.
    case advertisingDataUpdated
    /// Scanning is enabled.
    case scanningStarted
    /// Scanning stopped as asked.
    case scanningStopped
    /// A device seen for the first time, or whose data changed (or every report when
    /// duplicates are allowed).
    case advertisement(GAPAdvertisement)
    /// A connection is up in either role.
    case connected(GAPConnection)
    /// A connection attempt to `peer` ended without a connection.
    case connectionFailed(peer: BluetoothAddress, GAPError)
    /// A connection ended: terminated by either side, supervision timeout, or reset
    /// (Vol 3, Part C, §9.3.10).
    case disconnected(handle: UInt16, reason: HCI.StatusCode)
    /// The link's connection parameters changed (LE Connection Update Complete).
    case connectionParametersUpdated(handle: UInt16, GAPConnectionParameters)
    /// The link's maximum data lengths changed (LE Data Length Change).
    case dataLengthChanged(handle: UInt16, GAPDataLength)
    /// The link's PHYs changed (LE PHY Update Complete).
    case phyUpdated(handle: UInt16, tx: HCI.PHY, rx: HCI.PHY)
    /// The RSSI of a connection, in dBm (127: not available).
    case rssi(handle: UInt16, Int8)
    /// The PHYs a connection is on, as LE Read PHY answered (Vol 4, Part E, §7.8.47): a
    /// connection made over extended advertising starts on the PHY of its AUX_CONNECT_REQ.
    case phyRead(handle: UInt16, tx: HCI.PHY, rx: HCI.PHY)
    /// Where the device is in its simulated world (``HCI/ReadSimulatedLocation``).
    case simulatedLocation(HCI.ReadSimulatedLocation.ReturnParameters)
    /// The peer's LE feature bits (Vol 6, Part B, §4.6), from LE Read Remote Features
    /// Complete (Vol 4, Part E, §7.7.65.4): the peer answered on the link.
    case remoteFeatures(handle: UInt16, UInt64)
    /// A procedure failed.
    case procedureFailed(GAPProcedure, GAPError)
    /// The controller follows a periodic train (LE Periodic Advertising Sync Established, Vol 4,
    /// Part E, §7.7.65.14).
    case periodicSyncEstablished(GAPPeriodicSync)
    /// A periodic sync request ended without a sync: the controller's refusal or status,
    /// ``GAPError/periodicTrainNotFound``, or ``GAPError/cancelled``.
    case periodicSyncFailed(advertiser: BluetoothAddress, sid: UInt8, GAPError)
    /// One periodic event's data, whole (§7.7.65.15).
    case periodicReport(GAPPeriodicReport)
    /// The controller lost the sync (§7.7.65.16).
    case periodicSyncLost(handle: UInt16)
    /// The sync ended as asked (§7.8.69).
    case periodicSyncTerminated(handle: UInt16)
    /// The peripheral's controller asks for the LTK the central named; answer with
    /// ``GAPCore/replyLongTermKey(_:key:at:)`` (Core 5.4, Vol 4, Part E, §7.7.65.5).
    case longTermKeyRequested(LongTermKeyRequest)
    /// Encryption of a link went on (or off) with this key (Encryption Change, §7.7.8).
    case encryptionChanged(handle: UInt16, LinkEncryption)
    /// An encrypted link now uses a new key (Encryption Key Refresh Complete, §7.7.39).
    case encryptionKeyRefreshed(handle: UInt16, LinkEncryption)
    /// Starting or refreshing encryption failed: the controller's status, e.g. PIN or Key
    /// Missing (0x06) when the peripheral had no key (Vol 6, Part B, §5.1.3.1).
    case encryptionFailed(handle: UInt16, GAPError)
}

/// The parameters a connection runs with (Core 5.4, Vol 6, Part B, §4.5.1–4.5.2), in the
/// controller's units.
public struct GAPConnectionParameters: Hashable, Sendable {
    /// Connection interval in units of 1.25 ms.
    public var interval: UInt16
    /// Peripheral latency in connection events.
    public var latency: UInt16
    /// Supervision timeout in units of 10 ms.
    public var supervisionTimeout: UInt16

    /// Parameters with every value given.
    public init(interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }
}

/// The maximum data PDU lengths of a link (Core 5.4, Vol 6, Part B, §4.5.10).
public struct GAPDataLength: Hashable, Sendable {
    /// connMaxTxOctets.
    public var maxTxOctets: UInt16
    /// connMaxTxTime in microseconds.
    public var maxTxTime: UInt16
    /// connMaxRxOctets.
    public var maxRxOctets: UInt16
    /// connMaxRxTime in microseconds.
    public var maxRxTime: UInt16

    /// Lengths with every value given.
    public init(maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }
}

/// One LE connection as GAP tracks it (Core 5.4, Vol 3, Part C, §9.3).
public struct GAPConnection: Hashable, Sendable {
    /// The controller's Connection_Handle.
    public var handle: UInt16
    /// Whether the local device is central (it connected) or peripheral (it advertised).
    public var role: HCI.Role
    /// The peer's address.
    public var peer: BluetoothAddress
    /// The peer's address type as the controller reported it.
    public var peerAddressType: HCI.AddressType
    /// The parameters the link runs with now.
    public var parameters: GAPConnectionParameters
    /// The data lengths, once the controller reported a change.
    public var dataLength: GAPDataLength?
    /// The transmitter and receiver PHYs (LE 1M until an update).
    public var txPHY: HCI.PHY
    /// The receiver PHY.
    public var rxPHY: HCI.PHY
    /// Our resolvable private address on the link when the controller made it (LE Enhanced
    /// Connection Complete, Vol 4, Part E, §7.7.65.10); pairing uses it as our address.
    public var localPrivateAddress: BluetoothAddress?
    /// The peer's resolvable private address when the controller resolved it to ``peer``.
    public var peerPrivateAddress: BluetoothAddress?

    /// A connection with every value given.
    public init(
        handle: UInt16, role: HCI.Role, peer: BluetoothAddress, peerAddressType: HCI.AddressType,
        parameters: GAPConnectionParameters, dataLength: GAPDataLength? = nil, txPHY: HCI.PHY = .le1M, rxPHY: HCI.PHY = .le1M
    ) {
        self.handle = handle
        self.role = role
        self.peer = peer
        self.peerAddressType = peerAddressType
        self.parameters = parameters
        self.dataLength = dataLength
        self.txPHY = txPHY
        self.rxPHY = rxPHY
    }
}
