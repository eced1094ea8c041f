import BLEWire

/// The Generic Access Profile's core (Core 5.4, Vol 3, Part C, and Vol 6, Part B,
/// §4.4–4.5): advertising, scanning, connecting and the link procedures, as a sans-IO
/// value on top of ``HCIDriver``.
///
/// Requests return ``GAPOutput``s: HCI commands for the caller to submit to the driver with
/// the given token, and events for the layer above. Everything the driver outputs goes to
/// ``handle(_:at:)``; outputs for tokens GAP did not make are ignored, so other layers may
/// share the driver. The caller arms a timer for ``nextDeadline`` and calls
/// ``timerFired(at:)``. No clocks, sockets or threads.
public struct GAPCore: Sendable {
    /// What a submitted command was for, so its answer can be routed.
    enum Purpose: Hashable, Sendable {
        case setRandomAddress(BluetoothAddress)
        case advertisingSetup
        /// LE Remove Advertising Set before set 0 becomes a legacy-PDU set; its answer is not awaited.
        case advertisingSetRemoval
        /// New data; `last` marks the command whose success completes the update.
        case advertisingData(last: Bool)
        case advertisingEnable(Bool)
        case scanParameters
        case scanEnable(Bool)
        case createConnection(BluetoothAddress)
        case createConnectionCancel
        case procedure(GAPProcedure)
        /// LE Enable Encryption.
        case enableEncryption(handle: UInt16)
        /// LE Long Term Key Request Reply or Negative Reply.
        case longTermKeyReply(handle: UInt16)
        /// Read Encryption Key Size after encryption with a key of `level`.
        case encryptionKeySize(handle: UInt16, level: LinkSecurityLevel, refreshed: Bool)
        /// LE Periodic Advertising Create Sync.
        case createSync
        /// LE Periodic Advertising Create Sync Cancel.
        case createSyncCancel
        /// LE Periodic Advertising Terminate Sync.
        case terminateSync(handle: UInt16)
    }

    /// Where advertising or scanning is.
    enum Activity: Hashable, Sendable {
        case off, starting, on, stopping
    }

    /// The connection being made in the controller.
    struct PendingConnection: Sendable {
        var request: GAPConnectRequest
        /// When to cancel; `nil` once the command was refused or a cancel was sent.
        var deadline: HostTime?
        /// Why the attempt is being cancelled, once LE Create Connection Cancel was sent.
        var cancelReason: GAPError?
    }

    var nextToken: UInt64
    var purposes: [HCICommandToken: Purpose] = [:]

    /// The random static address in use, once LE Set Random Address succeeded.
    public internal(set) var randomAddress: BluetoothAddress?
    var advertising = Activity.off
    var advertisingParameters: GAPAdvertisingParameters?
    /// Whether the advertising running (or last started) is extended set 0, so that it is
    /// stopped with the extended disable.
    var advertisingExtended = false
    /// Whether the controller claims the extended advertising commands (learnt at start-up).
    public internal(set) var supportsExtendedAdvertising = false
    /// The family of advertising, scanning and initiating commands every request uses,
    /// chosen at start-up from the controller's claims (GAPCore+CommandFamily.swift).
    public internal(set) var commandFamily = GAPCommandFamily.legacy
    /// Whether start-up may choose the extended family (``HCIDriverConfiguration/usesExtendedFamilyWhenClaimed``);
    /// `false` keeps ``commandFamily`` legacy whatever the controller claims.
    public var choosesExtendedFamilyWhenClaimed = true
    /// Whether the controller may be advertising although GAP counts advertising off
    /// (GAPCore+Doubt.swift).
    var advertisingInDoubt = false
    /// The connection made from advertising that should restart it when it ends.
    var restartAdvertisingAfter: UInt16?
    var scanning = Activity.off
    /// Whether the scan running (or last started) uses the extended commands, so that it is
    /// stopped with them and its reports are reassembled.
    var scanningExtended = false
    /// Whether the scan running was asked to hear extended advertisements (reassembled and
    /// reported as such); a plain scan in the extended family reports legacy PDUs only.
    var scanningHearsExtended = false
    /// Extended reports' fragments waiting for the rest of their data.
    var reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
    /// Whether the controller claims the extended scanning commands (learnt at start-up).
    public internal(set) var supportsExtendedScanning = false
    /// Whether the controller claims LE Extended Create Connection (learnt at start-up), so
    /// that a connection may ask for its initiating PHYs.
    public internal(set) var supportsExtendedConnection = false
    /// Whether the controller reports the LE Coded PHY feature (learnt at start-up), so
    /// that extended sets and scans may use it.
    public internal(set) var supportsCodedPHY = false
    /// Whether the controller claims LE Set Extended Advertising Parameters [v2] (learnt at
    /// start-up), which carries the coding of LE Coded.
    public internal(set) var supportsAdvertisingPHYOptions = false
    /// Whether the controller claims LE Set Periodic Advertising Parameters, Data and Enable
    /// (learnt at start-up), which an extended set's periodic train needs.
    public internal(set) var supportsPeriodicAdvertising = false
    /// Whether the controller reports the LE Periodic Advertising feature (LE features bit 13)
    /// and claims Create Sync, Create Sync Cancel and Terminate Sync (learnt at start-up).
    public internal(set) var supportsPeriodicSync = false
    /// The Create Sync sent and not yet ended (GAPCore+PeriodicSync.swift).
    var pendingSync: GAPPendingPeriodicSync?
    /// The requests waiting for the pending one to end, oldest first (GAPCore+PeriodicSyncQueue.swift).
    var queuedSyncs: [GAPPendingPeriodicSync] = []
    /// The syncs established, by handle, with their reports' fragments.
    var periodicSyncs: [UInt16: HCI.LEPeriodicAdvertisingReport.Reassembly] = [:]
    /// Whether the extended scan running was started by GAP for the pending sync, so that
    /// it is stopped when the request ends.
    var scanningForSync = false
    /// Whether the advertising running (or last started) has a periodic train to stop with it.
    var advertisingPeriodic = false
    /// Whether the controller may be scanning although GAP counts scanning off.
    var scanningInDoubt = false
    var scanFilter = GAPAdvertisementFilter(allowDuplicates: false, serviceUUIDs: [])
    var pending: PendingConnection?
    var queued: [GAPConnectRequest] = []
    var links: [UInt16: GAPConnection] = [:]
    /// Each link's encryption, by handle (GAPCore+Encryption.swift).
    var encryption: [UInt16: GAPLinkEncryptionState] = [:]
    /// Whether the controller claims Read Encryption Key Size (learnt at start-up).
    var readsEncryptionKeySize = true
    /// Whether the controller resolves addresses with a resolving list the host loaded: own
    /// address types become 0x02/0x03 (GAPCore+Privacy.swift).
    public var addressResolutionInController = false

    /// A core whose command tokens count up from `firstToken`; give every user of one
    /// driver its own range.
    public init(firstToken: UInt64 = 0x4741_5000_0000_0000) {
        nextToken = firstToken
    }

    /// Whether advertising is enabled (or being enabled).
    public var isAdvertising: Bool { advertising == .on || advertising == .starting }
    /// Whether scanning is enabled (or being enabled).
    public var isScanning: Bool { scanning == .on || scanning == .starting }
    /// The peer a connection is being made to now, if any.
    public var connecting: BluetoothAddress? { pending?.request.peer }
    /// Peers waiting for the pending connection attempt to end, in order.
    public var queuedConnections: [BluetoothAddress] { queued.map(\.peer) }
    /// The connections up, by ascending handle.
    public var connections: [GAPConnection] { links.keys.sorted().compactMap { links[$0] } }
    /// The connection with `handle`, if it is up.
    public func connection(_ handle: UInt16) -> GAPConnection? { links[handle] }

    /// When ``timerFired(at:)`` must be called next: the pending connection's timeout, or
    /// a pending or queued periodic sync's time to find its train.
    public var nextDeadline: HostTime? {
        ([pending?.deadline, pendingSync?.deadline] + queuedSyncs.map(\.deadline)).compactMap { $0 }.min()
    }

    // MARK: Own address

    /// Sets `address` as the controller's random address with LE Set Random Address
    /// (Vol 4, Part E, §7.8.4). Refused while advertising, scanning or connecting, as the
    /// controller refuses it then for legacy procedures.
    public mutating func setRandomStaticAddress(_ address: BluetoothAddress, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard GAPRandomStaticAddress.isValid(address) else { throw .invalidRandomStaticAddress(address) }
        guard advertising == .off, scanning == .off, pending == nil else { throw .randomAddressChangeWhileBusy }
        return [submit(HCI.LESetRandomAddress(randomAddress: address), for: .setRandomAddress(address))]
    }

    // MARK: Advertising

    /// Sets the parameters, advertising data and scan response, then enables advertising
    /// (Vol 3, Part C, §9.1–9.3). ``GAPEvent/advertisingStarted`` follows when the
    /// controller accepted all of it.
    public mutating func startAdvertising(_ parameters: GAPAdvertisingParameters, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard advertising == .off else { throw .advertisingAlreadyEnabled }
        if let extended = parameters.extended { return try startExtendedAdvertising(parameters, extended) }
        let (data, response) = try Self.legacyBytes(parameters)
        if parameters.useRandomAddress, randomAddress == nil { throw .noRandomAddress }
        let resync = advertisingResync()
        let replacesExtendedSet = advertisingExtended && advertisingParameters?.extended != nil
        advertising = .starting
        advertisingExtended = commandFamily == .extended
        advertisingParameters = parameters
        restartAdvertisingAfter = nil
        if commandFamily == .extended {
            return resync + startLegacyPDUSet(parameters, data: data, response: response, replacingExtendedSet: replacesExtendedSet)
        }
        return resync + [
            submit(HCI.LESetAdvertisingParameters(
                advertisingIntervalMin: parameters.intervalMin, advertisingIntervalMax: parameters.intervalMax,
                advertisingType: parameters.advertisingType, ownAddressType: ownAddressType(random: parameters.useRandomAddress),
                peerAddress: parameters.peerAddress, advertisingChannelMap: parameters.channelMap), for: .advertisingSetup),
            submit(HCI.LESetAdvertisingData(advertisingData: data[...]), for: .advertisingSetup),
            submit(HCI.LESetScanResponseData(scanResponseData: response[...]), for: .advertisingSetup),
            submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), for: .advertisingEnable(true)),
        ]
    }

    /// Replaces the advertising data and scan response while advertising (legacy data may
    /// change while enabled, Vol 4, Part E, §7.8.7, and so may a legacy-PDU set's, complete and
    /// within 31 octets, §7.8.54–7.8.55); ``GAPEvent/advertisingDataUpdated`` follows.
    public mutating func updateAdvertisingData(
        _ data: AdvertisingData, scanResponse: AdvertisingData? = nil, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        guard var parameters = advertisingParameters, advertising != .off else { throw .advertisingNotEnabled }
        if parameters.extended != nil {
            throw .unsupportedExtendedSet("an extended set's data is not changed while it advertises; stop and start it again")
        }
        parameters.data = data
        if let scanResponse { parameters.scanResponse = scanResponse }
        let (bytes, response) = try Self.legacyBytes(parameters)
        advertisingParameters = parameters
        if advertisingExtended {
            return updateLegacyPDUSetData(parameters, data: bytes, response: response, withScanResponse: scanResponse != nil)
        }
        var outputs = [submit(HCI.LESetAdvertisingData(advertisingData: bytes[...]), for: .advertisingData(last: scanResponse == nil))]
        if scanResponse != nil {
            outputs.append(submit(HCI.LESetScanResponseData(scanResponseData: response[...]), for: .advertisingData(last: true)))
        }
        return outputs
    }

    /// Disables advertising; ``GAPEvent/advertisingStopped(connectionHandle:)`` follows. A
    /// connection made from it will no longer restart it.
    public mutating func stopAdvertising(at now: HostTime) throws(GAPError) -> [GAPOutput] {
        restartAdvertisingAfter = nil
        guard advertising == .on || advertising == .starting || (advertising == .off && advertisingInDoubt) else {
            throw .advertisingNotEnabled
        }
        advertising = .stopping
        // The train outlives its set's advertising in the controller (§7.8.63): stop it first.
        let periodic = advertisingPeriodic
            ? [submit(HCI.LESetPeriodicAdvertisingEnable(enable: false, advertisingHandle: GAPCore.extendedSet), for: .advertisingSetup)]
            : []
        advertisingPeriodic = false
        return periodic + [advertisingDisable(for: .advertisingEnable(false))]
    }

    /// The command that disables the advertising running (or last started), legacy or
    /// extended set 0: a controller takes only the kind of command it was started with.
    mutating func advertisingDisable(for purpose: Purpose) -> GAPOutput {
        advertisingExtended
            ? submit(HCI.LESetExtendedAdvertisingEnable(enable: false, sets: [.init(advertisingHandle: GAPCore.extendedSet)]), for: purpose)
            : submit(HCI.LESetAdvertisingEnable(advertisingEnable: false), for: purpose)
    }

    /// The encoded data and scan response, each checked against the 31-octet budget.
    static func legacyBytes(_ parameters: GAPAdvertisingParameters) throws(GAPError) -> ([UInt8], [UInt8]) {
        let maximum = AdvertisingData.legacyMaximumLength
        if case let .directed(peer, _) = parameters.kind, peer.value == 0 { throw .directedAdvertisingWithoutPeer }
        guard parameters.data.encodedLength <= maximum else {
            throw .advertisingDataTooLong(octets: parameters.data.encodedLength, maximum: maximum)
        }
        guard parameters.scanResponse.encodedLength <= maximum else {
            throw .scanResponseDataTooLong(octets: parameters.scanResponse.encodedLength, maximum: maximum)
        }
        do throws(WireError) {
            return (try parameters.data.encodedLegacy(), try parameters.scanResponse.encodedLegacy())
        } catch {
            throw .invalidAdvertisingData(error)
        }
    }

    // MARK: Scanning

    /// Sets the scan parameters and enables scanning with the controller's duplicate
    /// filter off (Vol 4, Part E, §7.8.10–7.8.11); the host filters duplicates itself.
    /// A plain scan on a controller that takes the extended family (``commandFamily``) uses
    /// the extended commands on LE 1M and reports the legacy PDUs it hears as a legacy scan.
    /// While GAP's own extended scan finds periodic trains, an extended scan takes it over
    /// (restarted with these parameters, and left running when the syncs end), and a legacy
    /// one is refused with ``GAPError/legacyScanWhileSynchronizing``.
    public mutating func startScanning(_ parameters: GAPScanParameters, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        // The scan GAP runs to find periodic trains is handed to the app (GAPCore+PeriodicSyncQueue.swift).
        let handover = isScanningForPeriodicSync
        guard scanning == .off || handover else { throw .scanningAlreadyEnabled }
        let usesExtended = parameters.extended || commandFamily == .extended
        if handover, !usesExtended { throw .legacyScanWhileSynchronizing }
        if parameters.useRandomAddress, randomAddress == nil { throw .noRandomAddress }
        if parameters.extended, !supportsExtendedScanning { throw .extendedScanningUnsupported }
        let phys = parameters.extendedPHYs
        if parameters.extended {
            // Scanning_PHYs has LE 1M (bit 0) and LE Coded (bit 2) only; one at least (§7.8.64).
            guard !phys.isEmpty, phys.isSubset(of: [.le1M, .leCoded]) else { throw .unsupportedScanPHYs(phys.rawValue) }
            if phys.contains(.leCoded), !supportsCodedPHY { throw .codedPHYUnsupported }
        }
        let resync = handover ? [handOverSyncScan()] : scanningResync()
        scanning = .starting
        scanningExtended = usesExtended
        scanningHearsExtended = parameters.extended
        reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
        scanFilter = GAPAdvertisementFilter(allowDuplicates: parameters.allowDuplicates, serviceUUIDs: parameters.serviceUUIDs)
        if usesExtended { return resync + extendedScanCommands(parameters, phys: parameters.extended ? phys : .le1M) }
        return resync + [
            submit(HCI.LESetScanParameters(
                leScanType: parameters.active ? .active : .passive, leScanInterval: parameters.interval,
                leScanWindow: parameters.window, ownAddressType: ownAddressType(random: parameters.useRandomAddress)),
                for: .scanParameters),
            submit(HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false), for: .scanEnable(true)),
        ]
    }

    /// Disables scanning; ``GAPEvent/scanningStopped`` follows.
    public mutating func stopScanning(at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard scanning == .on || scanning == .starting || (scanning == .off && scanningInDoubt) else { throw .scanningNotEnabled }
        scanning = .stopping
        return [scanDisable(for: .scanEnable(false))]
    }

    /// The command that disables the scan running (or last started), legacy or extended:
    /// a controller takes only the kind of command the scan was started with.
    mutating func scanDisable(for purpose: Purpose) -> GAPOutput {
        scanningExtended ? submit(HCI.LESetExtendedScanEnable(enable: false), for: purpose)
            : submit(HCI.LESetScanEnable(leScanEnable: false), for: purpose)
    }

    // MARK: Commands

    /// A command for the driver, remembered by a fresh token.
    mutating func submit(_ command: some HCICommand, for purpose: Purpose) -> GAPOutput {
        let token = HCICommandToken(nextToken)
        nextToken &+= 1
        purposes[token] = purpose
        return .submit(command, token: token)
    }
}
