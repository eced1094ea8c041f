import BLEWire

/// What a simulated controller is: its identity, its radio and its buffers. The defaults
/// describe a typical LE 5.x controller; scenarios override them per device.
public struct ControllerConfiguration: Hashable, Sendable {
    /// The public device address returned by HCI_Read_BD_ADDR.
    public var publicAddress: BluetoothAddress
    /// Seed of the controller's own random source (advDelay, access addresses, LE Rand),
    /// so a world replays exactly from its seed.
    public var seed: UInt64
    /// Transmit power at the antenna port in dBm (Core 5.4 allows −127 to +20).
    public var txPowerDBm: Double
    /// LE ACL data buffer size in octets, reported by LE Read Buffer Size (27 to 251).
    public var leACLBufferSize: Int
    /// Number of LE ACL data buffers, reported by LE Read Buffer Size.
    public var leACLBufferCount: Int
    /// The most simultaneous connections, in both roles together.
    public var maximumConnections: Int
    /// Entries of the filter accept list.
    public var filterAcceptListSize: Int
    /// Entries of the resolving list.
    public var resolvingListSize: Int
    /// Whether established connections hand host data straight to the peer's controller,
    /// with no airtime (an ideal link, as Bumble's LocalLink): see ``DirectLinkData``.
    public var airtimeFreeData: Bool
    /// Whether the controller claims the LE Extended Advertising feature (LE Supported
    /// Features bit 12) and LE Extended Create Connection, and with them the LE Coded PHY
    /// (bit 11) for advertising sets, extended scans and connections (by the PHY update).
    /// Off by default: hosts choose the extended commands from these two (Bumble connects with LE Extended Create Connection
    /// whenever it is claimed, even after scanning the legacy way, which the controller then
    /// refuses as the families may not mix), and our own host does not speak them yet. The
    /// other extended advertising and scanning commands are answered either way, on LE 1M
    /// and 2M (LE Coded is then Unsupported Feature or Parameter Value).
    public var claimsExtendedAdvertising: Bool
    /// Whether the controller claims Channel Selection Algorithm #2 (LE Supported Features
    /// bit 14; Core 5.4, Vol 6, Part B, §4.5.8.3): its ADV_IND and CONNECT_IND then set ChSel,
    /// and a legacy connection whose two sides set it hops with #2. Off by default, so that
    /// legacy connections hop as they always have. Connections made with AUX_CONNECT_REQ
    /// use #2 either way, as the specification requires.
    public var claimsChannelSelectionAlgorithm2: Bool
    /// Whether LE Advertising Reports (Core 5.4, Vol 4, Part E, §7.7.65.2) go to the host as
    /// values, ``ControllerOutput/advertisingReport(_:)``, instead of encoded HCI events: for a
    /// host inside the same process that would only decode them again (a scenario's observers,
    /// docs/world-benchmarks.md). Off by default; the world encodes such a report whenever
    /// something needs its bytes (an HCI capture, a host that reads packets), so what a
    /// host sees does not change.
    public var reportsAdvertisingAsValues = false

    /// A configuration with typical defaults: 0 dBm, 251-octet × 8 buffers, 16 connections.
    public init(
        publicAddress: BluetoothAddress,
        seed: UInt64,
        txPowerDBm: Double = 0,
        leACLBufferSize: Int = 251,
        leACLBufferCount: Int = 8,
        maximumConnections: Int = 16,
        filterAcceptListSize: Int = 16,
        resolvingListSize: Int = 16,
        airtimeFreeData: Bool = false,
        claimsExtendedAdvertising: Bool = false,
        claimsChannelSelectionAlgorithm2: Bool = false
    ) {
        self.publicAddress = publicAddress
        self.seed = seed
        self.txPowerDBm = txPowerDBm
        self.leACLBufferSize = leACLBufferSize
        self.leACLBufferCount = leACLBufferCount
        self.maximumConnections = maximumConnections
        self.filterAcceptListSize = filterAcceptListSize
        self.resolvingListSize = resolvingListSize
        self.airtimeFreeData = airtimeFreeData
        self.claimsExtendedAdvertising = claimsExtendedAdvertising
        self.claimsChannelSelectionAlgorithm2 = claimsChannelSelectionAlgorithm2
    }
}
