import BLEWire

/// How to advertise with legacy PDUs (Core 5.4, Vol 3, Part C, §9.1–9.3 and Vol 6, Part B,
/// §4.4.2): the PDU type, interval, channels, data and what to do after a connection.
public struct GAPAdvertisingParameters: Hashable, Sendable {
    /// The legacy advertising PDU to send (Vol 6, Part B, §2.3.1).
    public enum Kind: Hashable, Sendable {
        /// ADV_IND: connectable and scannable, to anyone.
        case connectable
        /// ADV_SCAN_IND: scannable, not connectable.
        case scannable
        /// ADV_NONCONN_IND: a beacon, neither scannable nor connectable.
        case nonConnectable
        /// ADV_DIRECT_IND to `peer`: connectable by that device only; high duty cycle
        /// lasts at most 1.28 s (Vol 6, Part B, §4.4.2.4.3).
        case directed(peer: BluetoothAddress, highDutyCycle: Bool)
    }

    /// The PDU type.
    public var kind: Kind
    /// Shortest advertising interval, units of 0.625 ms (0x0020–0x4000).
    public var intervalMin: UInt16
    /// Longest advertising interval, units of 0.625 ms.
    public var intervalMax: UInt16
    /// The primary channels used.
    public var channelMap: HCI.AdvertisingChannelMap
    /// The advertising data, at most 31 octets encoded.
    public var data: AdvertisingData
    /// The scan response data, at most 31 octets encoded; sent only by scannable kinds.
    public var scanResponse: AdvertisingData
    /// Whether the own address is the random static address set with
    /// ``GAPCore/setRandomStaticAddress(_:at:)`` rather than the public one.
    public var useRandomAddress: Bool
    /// Whether advertising starts again when a connection made from it ends.
    public var restartAfterDisconnection: Bool
    /// Advertise with an extended advertising set instead of legacy PDUs (Bluetooth 5; Core
    /// 5.4, Vol 4, Part E, §7.8.53–7.8.56): data up to 1,650 octets in a chain of AUX PDUs.
    /// Here such a set is non-connectable and non-scannable (`kind` ``Kind/nonConnectable``,
    /// no scan response), as the controller models them (docs/extended-advertising.md).
    public var extended: GAPExtendedAdvertising?

    /// Parameters with every value given; the interval defaults to 100 ms.
    public init(
        kind: Kind = .connectable, intervalMin: UInt16 = 160, intervalMax: UInt16 = 160,
        channelMap: HCI.AdvertisingChannelMap = .all, data: AdvertisingData = AdvertisingData(structures: []),
        scanResponse: AdvertisingData = AdvertisingData(structures: []), useRandomAddress: Bool = false,
        restartAfterDisconnection: Bool = false, extended: GAPExtendedAdvertising? = nil
    ) {
        self.extended = extended
        self.kind = kind
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.channelMap = channelMap
        self.data = data
        self.scanResponse = scanResponse
        self.useRandomAddress = useRandomAddress
        self.restartAfterDisconnection = restartAfterDisconnection
    }

    /// The HCI advertising type for `kind`.
    var advertisingType: HCI.LESetAdvertisingParameters.AdvertisingType {
        switch kind {
        case .connectable: return .connectableUndirected
        case .scannable: return .scannableUndirected
        case .nonConnectable: return .nonConnectableUndirected
        case let .directed(_, highDutyCycle):
            return highDutyCycle ? .connectableDirectedHighDutyCycle : .connectableDirectedLowDutyCycle
        }
    }

    /// The directed advertising target, or the all-zero public address.
    var peerAddress: BluetoothAddress {
        if case let .directed(peer, _) = kind { return peer }
        return BluetoothAddress(0)
    }
}

/// An extended advertising set's own settings (Core 5.4, Vol 4, Part E, §7.8.53).
///
/// On LE Coded, the coding is the controller's choice unless ``codedPHYOptions`` names one:
/// GAP then sends LE Set Extended Advertising Parameters [v2], whose PHY options carry it,
/// instead of [v1] (ours sends S=8, the coding of the longest reach, when not told).
public struct GAPExtendedAdvertising: Hashable, Sendable {
    /// The PHY of the ADV_EXT_INDs on the primary channels: ``HCI/PHY/le1M`` or
    /// ``HCI/PHY/leCoded`` (LE 2M is not allowed there).
    public var primaryPHY: HCI.PHY
    /// The PHY of the AUX PDUs: ``HCI/PHY/le1M``, ``HCI/PHY/le2M`` or ``HCI/PHY/leCoded``.
    public var secondaryPHY: HCI.PHY
    /// The set's Advertising SID (0x00–0x0F), which scanners report to tell sets apart.
    public var sid: UInt8
    /// The coding wanted on whichever channels use LE Coded (S=2 or S=8, preferred or
    /// required), or ``HCI/AdvertisingPHYOptions/noPreference`` to leave it to the controller.
    /// Anything else needs a controller that claims the [v2] command.
    public var codedPHYOptions: HCI.AdvertisingPHYOptions
    /// The periodic train the set carries too, or `nil`; only a non-connectable set carries
    /// one, and only on a controller that claims the periodic advertising commands.
    public var periodic: GAPPeriodicAdvertising?

    /// A set on `primaryPHY` and `secondaryPHY` with SID `sid`, on LE Coded the coding
    /// `codedPHYOptions` asks for, and the periodic train `periodic`, if any.
    public init(primaryPHY: HCI.PHY = .le1M, secondaryPHY: HCI.PHY = .le1M, sid: UInt8 = 0,
                codedPHYOptions: HCI.AdvertisingPHYOptions = .noPreference, periodic: GAPPeriodicAdvertising? = nil) {
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.codedPHYOptions = codedPHYOptions
        self.periodic = periodic
    }

    /// A set wholly on LE Coded, primary and secondary, with SID `sid` and the coding
    /// `codedPHYOptions` asks for: the longest reach.
    public static func coded(sid: UInt8 = 0, codedPHYOptions: HCI.AdvertisingPHYOptions = .noPreference) -> GAPExtendedAdvertising {
        GAPExtendedAdvertising(primaryPHY: .leCoded, secondaryPHY: .leCoded, sid: sid, codedPHYOptions: codedPHYOptions)
    }
}

/// How to scan (Core 5.4, Vol 3, Part C, §9.2.5–9.2.6 and Vol 6, Part B, §4.4.3).
public struct GAPScanParameters: Hashable, Sendable {
    /// Active scanning sends SCAN_REQ to scannable advertisers for their scan response.
    public var active: Bool
    /// Scan interval, units of 0.625 ms (0x0004–0x4000).
    public var interval: UInt16
    /// Scan window, units of 0.625 ms, at most the interval.
    public var window: UInt16
    /// Report every advertisement, not only new devices and changed data (Core Bluetooth's
    /// allow-duplicates option). The controller's own duplicate filter is always off, so
    /// the host sees data changes.
    public var allowDuplicates: Bool
    /// Report only devices whose merged data lists one of these services; empty: every
    /// device.
    public var serviceUUIDs: [BluetoothUUID]
    /// Whether the own address is the random static address.
    public var useRandomAddress: Bool
    /// Scan with the extended commands (Core 5.4, Vol 4, Part E, §7.8.64–7.8.65) on the PHYs of
    /// ``extendedPHYs``: extended advertisements are heard too, their data (up to 1,650 octets, in AUX
    /// chains) reassembled from the controller's fragments. Needs a controller that claims
    /// the commands (``GAPError/extendedScanningUnsupported`` otherwise). A plain scan (`false`)
    /// also goes out as an extended scan on LE 1M when GAP uses the extended family
    /// (``GAPCommandFamily``), and then reports only legacy PDUs, as a legacy scan does.
    public var extended: Bool
    /// The primary PHYs an extended scan listens on (Scanning_PHYs, §7.8.64): LE 1M, LE
    /// Coded, or both, which the controller scans in turn, each with ``interval`` and
    /// ``window``. LE Coded needs the controller's LE Coded PHY feature
    /// (``GAPError/codedPHYUnsupported`` otherwise). Ignored by a legacy scan.
    public var extendedPHYs: HCI.LEPHYs

    /// Parameters with every value given; the default scans continuously and actively.
    public init(
        active: Bool = true, interval: UInt16 = 0x0010, window: UInt16 = 0x0010, allowDuplicates: Bool = false,
        serviceUUIDs: [BluetoothUUID] = [], useRandomAddress: Bool = false, extended: Bool = false,
        extendedPHYs: HCI.LEPHYs = .le1M
    ) {
        self.extended = extended
        self.extendedPHYs = extendedPHYs
        self.active = active
        self.interval = interval
        self.window = window
        self.allowDuplicates = allowDuplicates
        self.serviceUUIDs = serviceUUIDs
        self.useRandomAddress = useRandomAddress
    }
}

/// One request to connect to a peer (Core 5.4, Vol 3, Part C, §9.3.6 direct connection
/// establishment; Vol 4, Part E, §7.8.12).
public struct GAPConnectRequest: Hashable, Sendable {
    /// The peer's address.
    public var peer: BluetoothAddress
    /// The peer's address type.
    public var peerAddressType: HCI.AddressType
    /// The connection parameters to ask for.
    public var parameters: HCI.LEConnectionParameters
    /// Scan interval while initiating, units of 0.625 ms.
    public var scanInterval: UInt16
    /// Scan window while initiating, units of 0.625 ms.
    public var scanWindow: UInt16
    /// How long the attempt may take once it reaches the controller, in microseconds;
    /// then it is cancelled and fails with ``GAPError/timeout``.
    public var timeout: HostTime
    /// Whether the own address is the random static address.
    public var useRandomAddress: Bool
    /// The PHYs the connection may start on (Initiating_PHYs of LE Extended Create
    /// Connection, Core 5.4, Vol 4, Part E, §7.8.66), or `nil` for a plain connection on LE 1M:
    /// LE Create Connection, or LE Extended Create Connection on LE 1M when GAP uses the
    /// extended family (``GAPCommandFamily``). LE 1M and LE Coded are scanned on their primary channels; LE
    /// 2M, never a primary PHY, is taken when a connectable extended set's AUX_ADV_IND comes
    /// on it (a connection starts on the PHY of the AUX_CONNECT_REQ, Vol 6, Part B, §4.5).
    /// Each PHY gets ``parameters``, ``scanInterval`` and ``scanWindow``. Needs a controller
    /// that claims the command (``GAPError/extendedConnectionUnsupported``), and the LE
    /// Coded PHY feature for LE Coded (``GAPError/codedPHYUnsupported``).
    public var initiatingPHYs: HCI.LEPHYs?

    /// A request with every value given; the defaults ask for a 30 ms interval and a 5 s
    /// timeout, as a plain connection on LE 1M.
    public init(
        peer: BluetoothAddress, peerAddressType: HCI.AddressType = .public,
        parameters: HCI.LEConnectionParameters = HCI.LEConnectionParameters(
            connectionIntervalMin: 24, connectionIntervalMax: 24, maxLatency: 0, supervisionTimeout: 200),
        scanInterval: UInt16 = 0x0010, scanWindow: UInt16 = 0x0010, timeout: HostTime = 5_000_000,
        useRandomAddress: Bool = false, initiatingPHYs: HCI.LEPHYs? = nil
    ) {
        self.initiatingPHYs = initiatingPHYs
        self.peer = peer
        self.peerAddressType = peerAddressType
        self.parameters = parameters
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.timeout = timeout
        self.useRandomAddress = useRandomAddress
    }
}
