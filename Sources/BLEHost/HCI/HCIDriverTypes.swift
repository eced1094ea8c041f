import BLEWire

/// Identifies one command a layer above submitted to ``HCIDriver``, so its Command Complete,
/// Command Status or timeout comes back to the submitter (Core 5.4, Vol 4, Part E, §4.4).
public struct HCICommandToken: Hashable, Sendable, CustomStringConvertible {
    /// The caller's number for the command; the driver never interprets it.
    public var rawValue: UInt64

    /// A token with the caller's number `rawValue`.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// `#7`-style text for logs.
    public var description: String { "#\(rawValue)" }
}

/// What ``HCIDriver`` is told to do: how long a command may go unanswered and which events
/// and data length to ask the controller for during start-up.
public struct HCIDriverConfiguration: Hashable, Sendable {
    /// How long a command may wait for its Command Complete or Command Status, in
    /// microseconds (2 s by default, the timeout most hosts use).
    public var commandTimeout: HostTime
    /// The Event_Mask set during start-up (Core 5.4, Vol 4, Part E, §7.3.1). Command
    /// Complete, Command Status and Number Of Completed Packets are not maskable.
    public var eventMask: HCI.EventMask
    /// The LE subevents the host wants (§7.8.1); start-up keeps only those the controller
    /// reports it can generate.
    public var leEventMask: HCI.LEEventMask
    /// Octets and microseconds for LE Write Suggested Default Data Length (§7.8.35), or
    /// `nil` to leave the controller's default.
    public var suggestedDataLength: SuggestedDataLength?
    /// The longest incoming L2CAP B-frame (header included) the driver reassembles; longer
    /// frames are dropped and counted. 65539 is the most the 16-bit L2CAP length allows.
    public var maximumIncomingFrameLength: Int
    /// Whether plain advertising, scanning and connecting go out in the extended family when
    /// the controller reports LE Extended Advertising and claims the commands (Core 5.4, Vol 4,
    /// Part E, §3.1.1; ``GAPCommandFamily``). `false` keeps them legacy, with the extended
    /// commands only where a request asks for them; the embedded world's hosts use `false`
    /// until every suite runs in the extended family too (docs/extended-advertising.md).
    public var usesExtendedFamilyWhenClaimed: Bool

    /// The events every host layer of SwiftBLE handles: disconnection, encryption change
    /// and key refresh, hardware error, data buffer overflow, remote version, LE Meta.
    public static let defaultEventMask: HCI.EventMask = [
        .disconnectionComplete, .encryptionChange, .readRemoteVersionInformationComplete, .hardwareError,
        .dataBufferOverflow, .encryptionKeyRefreshComplete, .leMeta,
    ]

    /// The LE subevents SwiftBLE's host handles: connections, advertising reports (legacy
    /// and extended), connection updates, remote features, LTK requests, parameter
    /// requests, data length and PHY changes, advertising set termination, scan timeout,
    /// channel selection, periodic sync establishment, reports and loss, and the P-256 key events.
    public static let defaultLEEventMask: HCI.LEEventMask = [
        .connectionComplete, .advertisingReport, .connectionUpdateComplete, .readRemoteFeaturesComplete,
        .longTermKeyRequest, .remoteConnectionParameterRequest, .dataLengthChange,
        .readLocalP256PublicKeyComplete, .generateDHKeyComplete, .enhancedConnectionComplete,
        .directedAdvertisingReport, .phyUpdateComplete, .extendedAdvertisingReport, .scanTimeout,
        .advertisingSetTerminated, .scanRequestReceived, .channelSelectionAlgorithm,
        .periodicAdvertisingSyncEstablished, .periodicAdvertisingReport, .periodicAdvertisingSyncLost,
    ]

    /// A configuration with every value given; the defaults suit a typical host.
    public init(
        commandTimeout: HostTime = 2_000_000,
        eventMask: HCI.EventMask = HCIDriverConfiguration.defaultEventMask,
        leEventMask: HCI.LEEventMask = HCIDriverConfiguration.defaultLEEventMask,
        suggestedDataLength: SuggestedDataLength? = SuggestedDataLength(),
        maximumIncomingFrameLength: Int = 65_539,
        usesExtendedFamilyWhenClaimed: Bool = true
    ) {
        self.usesExtendedFamilyWhenClaimed = usesExtendedFamilyWhenClaimed
        self.commandTimeout = commandTimeout
        self.eventMask = eventMask
        self.leEventMask = leEventMask
        self.suggestedDataLength = suggestedDataLength
        self.maximumIncomingFrameLength = maximumIncomingFrameLength
    }

    /// The LE Write Suggested Default Data Length parameters (Core 5.4, Vol 4, Part E,
    /// §7.8.35): what the controller proposes for new connections.
    public struct SuggestedDataLength: Hashable, Sendable {
        /// SuggestedMaxTxOctets, 27–251.
        public var maxTxOctets: UInt16
        /// SuggestedMaxTxTime in microseconds, 328–17040.
        public var maxTxTime: UInt16

        /// The largest LE 1M data PDU by default: 251 octets in 2120 µs.
        public init(maxTxOctets: UInt16 = 251, maxTxTime: UInt16 = 2120) {
            self.maxTxOctets = maxTxOctets
            self.maxTxTime = maxTxTime
        }
    }
}

/// What start-up learned about the controller (Core 5.4, Vol 4, Part E, §7.4 and §7.8):
/// the facts every other host layer adapts to.
public struct ControllerInfo: Hashable, Sendable {
    /// HCI_Version (0x0D = Core 5.4), or `nil` if the controller did not answer Read Local
    /// Version Information.
    public var hciVersion: UInt8?
    /// LMP/LL version, same numbering as ``hciVersion``.
    public var lmpVersion: UInt8?
    /// Company identifier (0xFFFF: none).
    public var companyIdentifier: UInt16?
    /// The public address from Read BD_ADDR, or `nil` if the command is not supported.
    public var address: BluetoothAddress?
    /// LMP features page 0; zero if unknown.
    public var lmpFeatures: UInt64
    /// The link layer features; empty if unknown.
    public var leFeatures: HCI.LEFeatures
    /// The Supported Commands field, or `nil` if the controller does not report one.
    public var supportedCommands: HCI.SupportedCommands?
    /// The largest ACL data payload the controller takes for LE, in octets: what outgoing
    /// B-frames are fragmented to.
    public var leACLDataPacketLength: Int
    /// How many LE ACL packets the controller buffers: the driver's ACL credits.
    public var totalNumLEACLDataPackets: Int
    /// The LE event mask start-up set (the wanted bits the controller can generate), or
    /// `nil` if LE Set Event Mask was not sent or refused.
    public var leEventMask: HCI.LEEventMask?
    /// Whether LE Write Suggested Default Data Length was accepted.
    public var wroteSuggestedDataLength: Bool

    /// Information with every field given.
    public init(
        hciVersion: UInt8? = nil, lmpVersion: UInt8? = nil, companyIdentifier: UInt16? = nil,
        address: BluetoothAddress? = nil, lmpFeatures: UInt64 = 0, leFeatures: HCI.LEFeatures = [],
        supportedCommands: HCI.SupportedCommands? = nil, leACLDataPacketLength: Int = 0,
        totalNumLEACLDataPackets: Int = 0, leEventMask: HCI.LEEventMask? = nil, wroteSuggestedDataLength: Bool = false
    ) {
        self.hciVersion = hciVersion
        self.lmpVersion = lmpVersion
        self.companyIdentifier = companyIdentifier
        self.address = address
        self.lmpFeatures = lmpFeatures
        self.leFeatures = leFeatures
        self.supportedCommands = supportedCommands
        self.leACLDataPacketLength = leACLDataPacketLength
        self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        self.leEventMask = leEventMask
        self.wroteSuggestedDataLength = wroteSuggestedDataLength
    }

    /// Whether the controller claims `entry`; `true` when it reported no Supported Commands
    /// field, so an optional command is tried and an Unknown HCI Command answer tolerated.
    public func mayAnswer(_ entry: HCI.SupportedCommands.Entry) -> Bool {
        supportedCommands?.contains(entry) ?? true
    }
}

/// Why the driver could not do something (Core 5.4, Vol 4, Part E, §4.4 and §7.7.16).
public enum HCIDriverError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command got neither Command Complete nor Command Status within the timeout.
    case timeout(HCI.Opcode)
    /// A start-up command the host cannot do without was refused with this status.
    case startupCommandFailed(HCI.Opcode, HCI.StatusCode)
    /// A start-up command's return parameters could not be decoded.
    case malformedReturnParameters(HCI.Opcode, WireError)
    /// The controller reports no usable ACL buffers for LE (length or count zero).
    case noACLBuffers
    /// The controller sent a Hardware Error event with this hardware code (§7.7.16).
    case hardwareError(code: UInt8)
    /// The command was sent or queued before the controller was reset after a hardware
    /// error; it will never be answered.
    case controllerReset
    /// The command's parameters cannot be framed (more than 255 octets).
    case invalidCommand(HCI.Opcode, WireError)

    /// A sentence naming the command by its specification name where known.
    public var description: String {
        switch self {
        case let .timeout(opcode):
            return "HCI command \(Self.name(opcode)) got no Command Complete or Command Status before its timeout"
        case let .startupCommandFailed(opcode, status):
            return "start-up command \(Self.name(opcode)) failed with status \(status)"
        case let .malformedReturnParameters(opcode, error):
            return "start-up command \(Self.name(opcode)) returned malformed parameters: \(error)"
        case .noACLBuffers:
            return "the controller reports no ACL data buffers for LE"
        case let .hardwareError(code):
            return "the controller reported hardware error 0x\(String(code, radix: 16, uppercase: true)); it is being reset"
        case .controllerReset:
            return "the command was abandoned because the controller was reset"
        case let .invalidCommand(opcode, error):
            return "HCI command \(Self.name(opcode)) cannot be sent: \(error)"
        }
    }

    private static func name(_ opcode: HCI.Opcode) -> String {
        if let name = opcode.name { return "\(name) (\(opcode))" }
        return "\(opcode)"
    }
}

/// What ``HCIDriver`` asks of the layer around it, in order.
public enum HCIDriverOutput: Sendable {
    /// A packet for the transport to send to the controller.
    case send(H4.Packet)
    /// Start-up finished; the controller is ready with this information.
    case ready(ControllerInfo)
    /// A submitted command's Command Complete or Command Status, or why it got none.
    case commandCompleted(HCICommandToken, Result<HCI.Event, HCIDriverError>)
    /// Every event the driver does not consume itself (Command Complete, Command Status and
    /// Number Of Completed Packets are consumed): LE Meta, disconnection, encryption, ...
    case event(HCI.Event)
    /// A reassembled incoming L2CAP B-frame, header included.
    case l2capFrame(handle: UInt16, frame: [UInt8])
    /// The link is gone: Disconnection Complete, or the controller was reset.
    case linkLost(handle: UInt16, reason: HCI.StatusCode)
    /// Start-up failed or the controller reported a hardware error.
    case failed(HCIDriverError)
}

/// Packets the driver dropped and why: nothing is lost silently (DESIGN.md, "Bad input is
/// a normal input").
public struct HCIDriverCounters: Hashable, Sendable {
    /// Incoming ACL continuation fragments with no frame in progress on their handle.
    public var continuationWithoutStart: Int = 0
    /// Incoming frames dropped because they ran past their L2CAP length or the maximum.
    public var overlongFrames: Int = 0
    /// Incoming ACL packets for a handle with no connection.
    public var unknownHandlePackets: Int = 0
    /// Incoming frames left incomplete when a new start fragment arrived on their handle.
    public var incompleteFrames: Int = 0
    /// Incoming ACL packets that are not point-to-point (broadcast flags are not LE).
    public var broadcastPackets: Int = 0
    /// Outgoing ACL fragments dropped because their link disconnected before they were sent.
    public var outgoingFragmentsDropped: Int = 0
    /// Outgoing frames refused because their handle has no connection.
    public var outgoingUnknownHandle: Int = 0
    /// Event packets whose parameters could not be decoded.
    public var undecodableEvents: Int = 0
    /// Command Complete or Command Status for a command nobody is waiting for.
    public var unexpectedCommandEvents: Int = 0
    /// Command, synchronous and ISO packets from the controller, which an LE host never expects.
    public var unexpectedPackets: Int = 0
    /// Commands the controller answered with neither Command Complete nor Command Status
    /// within ``HCIDriverConfiguration/commandTimeout`` (each failed with
    /// ``HCIDriverError/timeout(_:)``).
    public var commandTimeouts: Int = 0

    /// All counters zero.
    public init() {}
}
