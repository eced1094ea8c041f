import BLEWire

// Which family of advertising, scanning and initiating commands GAP speaks (Core 5.4, Vol 4,
// Part E, §3.1.1 "Legacy and extended advertising"). A controller takes one family from
// power-on or reset: once it saw one, the other is refused with Command Disallowed (0x0C).
// So GAP chooses once, at start-up, from what the controller claims, and then sends every
// plain request (legacy PDUs, one scan on LE 1M, a connection on LE 1M) in that family too:
// - advertising: a legacy-PDU advertising set (§7.8.53 Table 7.2) instead of LE Set
//   Advertising Parameters, Data, Scan Response Data and Enable;
// - scanning: LE Set Extended Scan Parameters and Enable on LE 1M, whose LE Extended
//   Advertising Reports of legacy PDUs are reported as a legacy scan's;
// - connecting: LE Extended Create Connection on LE 1M.

/// The family of advertising, scanning and initiating commands GAP sends (Core 5.4, Vol 4,
/// Part E, §3.1.1), chosen at start-up from the controller's claims; the two never mix.
public enum GAPCommandFamily: Hashable, Sendable {
    /// LE Set Advertising Parameters/Data/Enable, LE Set Scan Parameters/Enable and LE Create
    /// Connection: the controller does not claim the extended ones.
    case legacy
    /// Advertising sets, extended scanning and LE Extended Create Connection for every
    /// request, plain ones included: the controller reports the LE Extended Advertising
    /// feature and claims the commands.
    case extended
}

extension GAPCore {
    /// The commands a controller must claim for GAP to do everything with the extended family.
    static let extendedFamilyCommands: [HCI.SupportedCommands.Entry] = [
        .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedScanResponseData,
        .leSetExtendedAdvertisingEnable, .leSetAdvertisingSetRandomAddress, .leRemoveAdvertisingSet,
        .leSetExtendedScanParameters, .leSetExtendedScanEnable, .leExtendedCreateConnection,
    ]

    /// The family for a controller with `features` and `commands`: extended when it reports
    /// LE Extended Advertising (LE features bit 12) and claims every command GAP then sends,
    /// legacy otherwise.
    static func commandFamily(features: HCI.LEFeatures, commands: HCI.SupportedCommands?) -> GAPCommandFamily {
        guard features.contains(.leExtendedAdvertising), let commands,
              extendedFamilyCommands.allSatisfy({ commands.contains($0) }) else { return .legacy }
        return .extended
    }

    // MARK: Advertising

    /// Advertising_Event_Properties of the legacy-PDU set for `kind` (§7.8.53 Table 7.2).
    static func legacyEventProperties(_ kind: GAPAdvertisingParameters.Kind) -> HCI.AdvertisingEventProperties {
        switch kind {
        case .connectable: return [.legacy, .connectable, .scannable]
        case .scannable: return [.legacy, .scannable]
        case .nonConnectable: return [.legacy]
        case let .directed(_, highDutyCycle):
            return highDutyCycle ? [.legacy, .connectable, .directed, .highDutyCycleDirected] : [.legacy, .connectable, .directed]
        }
    }

    /// Whether a legacy-PDU set of `kind` carries advertising data (directed PDUs do not,
    /// and the controller refuses data for them, §7.8.54).
    static func legacySetTakesData(_ kind: GAPAdvertisingParameters.Kind) -> Bool {
        if case .directed = kind { return false }
        return true
    }

    /// Whether a legacy-PDU set of `kind` is scannable, so that it takes a scan response (§7.8.55).
    static func legacySetTakesScanResponse(_ kind: GAPAdvertisingParameters.Kind) -> Bool {
        kind == .connectable || kind == .scannable
    }

    /// Starts `parameters` (legacy PDUs) as legacy-PDU set 0 (§7.8.53–7.8.56): its parameters,
    /// after removing set 0 when it last was an extended set (`replacingExtendedSet`), which
    /// may hold more data than a legacy PDU; its
    /// random address when it uses one, its data and scan response as complete operations, then
    /// the enable (with the 1.28 s duration high duty cycle directed advertising must have).
    /// `data` and `response` are the encoded bytes, already checked against 31 octets.
    mutating func startLegacyPDUSet(_ parameters: GAPAdvertisingParameters, data: [UInt8], response: [UInt8],
                                    replacingExtendedSet: Bool) -> [GAPOutput] {
        var outputs: [GAPOutput] = []
        // A set holding extended data over 31 octets cannot become a legacy one (§7.8.53).
        if replacingExtendedSet {
            outputs.append(submit(HCI.LERemoveAdvertisingSet(advertisingHandle: Self.extendedSet), for: .advertisingSetRemoval))
        }
        outputs.append(submit(HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: Self.extendedSet, advertisingEventProperties: Self.legacyEventProperties(parameters.kind),
            primaryAdvertisingIntervalMin: UInt32(parameters.intervalMin), primaryAdvertisingIntervalMax: UInt32(parameters.intervalMax),
            primaryAdvertisingChannelMap: parameters.channelMap, ownAddressType: ownAddressType(random: parameters.useRandomAddress),
            peerAddress: parameters.peerAddress), for: .advertisingSetup))
        if parameters.useRandomAddress, let randomAddress {
            outputs.append(submit(HCI.LESetAdvertisingSetRandomAddress(advertisingHandle: Self.extendedSet, randomAddress: randomAddress),
                                  for: .advertisingSetup))
        }
        if Self.legacySetTakesData(parameters.kind) {
            outputs.append(submit(HCI.LESetExtendedAdvertisingData(advertisingHandle: Self.extendedSet, advertisingData: data[...]),
                                  for: .advertisingSetup))
        }
        if Self.legacySetTakesScanResponse(parameters.kind) {
            outputs.append(submit(HCI.LESetExtendedScanResponseData(advertisingHandle: Self.extendedSet, scanResponseData: response[...]),
                                  for: .advertisingSetup))
        }
        outputs.append(legacyPDUSetEnable(parameters))
        return outputs
    }

    /// LE Set Extended Advertising Enable for legacy-PDU set 0: no duration, except for high
    /// duty cycle directed advertising, which must stop within 1.28 s (§7.8.56).
    mutating func legacyPDUSetEnable(_ parameters: GAPAdvertisingParameters?) -> GAPOutput {
        var duration: UInt16 = 0
        if case .directed(_, highDutyCycle: true)? = parameters?.kind { duration = 128 }
        return submit(HCI.LESetExtendedAdvertisingEnable(
            enable: true, sets: [.init(advertisingHandle: Self.extendedSet, duration: duration)]), for: .advertisingEnable(true))
    }

    /// New data (and scan response) for the running legacy-PDU set: complete operations of
    /// at most 31 octets may replace an enabled legacy set's data (§7.8.54, §7.8.55).
    mutating func updateLegacyPDUSetData(_ parameters: GAPAdvertisingParameters, data: [UInt8], response: [UInt8],
                                         withScanResponse: Bool) -> [GAPOutput] {
        let sendsData = Self.legacySetTakesData(parameters.kind)
        let sendsResponse = withScanResponse && Self.legacySetTakesScanResponse(parameters.kind)
        var outputs: [GAPOutput] = []
        if sendsData {
            outputs.append(submit(HCI.LESetExtendedAdvertisingData(advertisingHandle: Self.extendedSet, advertisingData: data[...]),
                                  for: .advertisingData(last: !sendsResponse)))
        }
        if sendsResponse {
            outputs.append(submit(HCI.LESetExtendedScanResponseData(advertisingHandle: Self.extendedSet, scanResponseData: response[...]),
                                  for: .advertisingData(last: true)))
        }
        // A directed set carries neither: nothing for the controller, the update is done.
        if outputs.isEmpty { outputs.append(.event(.advertisingDataUpdated)) }
        return outputs
    }

    /// LE Advertising Set Terminated for GAP's set (§7.7.65.18): a legacy-PDU set's high duty
    /// cycle directed advertising ran its 1.28 s, or another limit ended it. A connection's end
    /// of the set comes with the connection and is handled there.
    mutating func advertisingSetTerminated(_ terminated: HCI.LEAdvertisingSetTerminated) -> [GAPOutput] {
        guard terminated.status != .success, terminated.advertisingHandle == Self.extendedSet, advertisingExtended,
              advertising == .on || advertising == .starting else { return [] }
        advertising = .off
        return [.event(.advertisingStopped(connectionHandle: nil)), .event(.procedureFailed(.advertising, .controller(terminated.status)))]
    }

    // MARK: Scanning and connecting

    /// LE Set Extended Scan Parameters and Enable for `parameters` on `phys` (§7.8.64–7.8.65),
    /// with the controller's duplicate filter off.
    mutating func extendedScanCommands(_ parameters: GAPScanParameters, phys: HCI.LEPHYs) -> [GAPOutput] {
        let phy = HCI.LESetExtendedScanParameters.PHYParameters(
            scanType: parameters.active ? .active : .passive, scanInterval: parameters.interval, scanWindow: parameters.window)
        return [
            submit(HCI.LESetExtendedScanParameters(
                ownAddressType: ownAddressType(random: parameters.useRandomAddress),
                le1M: phys.contains(.le1M) ? phy : nil, leCoded: phys.contains(.leCoded) ? phy : nil), for: .scanParameters),
            submit(HCI.LESetExtendedScanEnable(enable: true, filterDuplicates: .disabled), for: .scanEnable(true)),
        ]
    }

    /// The initiating PHYs for `request`: its own, or LE 1M alone for a plain request when
    /// the controller takes the extended family; `nil` for LE Create Connection.
    func initiatingPHYs(_ request: GAPConnectRequest) -> HCI.LEPHYs? {
        request.initiatingPHYs ?? (commandFamily == .extended ? .le1M : nil)
    }

    /// An LE Extended Advertising Report's entry heard by a plain scan in the extended family:
    /// a legacy PDU (event type bit 4) becomes the legacy report a legacy scan would have
    /// given; an extended PDU, which a legacy scan never hears, is left out.
    static func plainScanReport(_ entry: HCI.LEExtendedAdvertisingReport.Report) -> HCI.LEAdvertisingReport.Report? {
        guard entry.eventType.isLegacy else { return nil }
        return GAPAdvertisementFilter.legacyReport(entry)
    }
}
