import BLEWire

extension GAPCore {
    /// The advertising handle GAP's one extended set uses.
    static let extendedSet: UInt8 = 0
    /// The most data of a connectable extended set: what its one AUX_ADV_IND holds beside
    /// AdvA and ADI (255 − 10 octets; Core 5.4, Vol 6, Part B, §2.3.4), since a connectable
    /// AUX_ADV_IND points to no chain. A controller refuses more with Packet Too Long.
    public static let connectableExtendedDataLength = 245

    /// Starts `parameters` as extended set 0 (Core 5.4, Vol 4, Part E, §7.8.53–7.8.56),
    /// non-connectable or connectable (non-scannable, undirected; a connection made from it
    /// ends it, as it ends legacy advertising): its
    /// parameters, its random address when it uses one, its data in fragments of at most 251
    /// octets, then the enable. ``GAPEvent/advertisingStarted`` follows, as for legacy PDUs.
    mutating func startExtendedAdvertising(_ parameters: GAPAdvertisingParameters,
                                           _ extended: GAPExtendedAdvertising) throws(GAPError) -> [GAPOutput] {
        guard supportsExtendedAdvertising else { throw .extendedAdvertisingUnsupported }
        guard parameters.kind == .nonConnectable || parameters.kind == .connectable else {
            throw .unsupportedExtendedSet("it must be non-connectable or connectable undirected (scannable and directed extended sets are not made here)")
        }
        let connectable = parameters.kind == .connectable
        if connectable, parameters.data.encodedLength > Self.connectableExtendedDataLength {
            throw .unsupportedExtendedSet("a connectable set carries its data in its one AUX_ADV_IND: at most "
                                          + "\(Self.connectableExtendedDataLength) octets, not \(parameters.data.encodedLength)")
        }
        guard parameters.scanResponse.structures.isEmpty else {
            throw .unsupportedExtendedSet("a non-scannable set has no scan response")
        }
        guard extended.sid <= 0x0F else { throw .unsupportedExtendedSet("SID \(extended.sid) is above 0x0F") }
        guard extended.primaryPHY != .le2M else {
            throw .unsupportedExtendedSet("the primary PHY must be LE 1M or LE Coded (LE 2M is not used on the primary advertising channels)")
        }
        let coded = extended.primaryPHY == .leCoded || extended.secondaryPHY == .leCoded
        if coded, !supportsCodedPHY { throw .codedPHYUnsupported }
        // A coding is carried only by [v2]'s PHY options (§7.8.53).
        let options = coded ? extended.codedPHYOptions : .noPreference
        if options != .noPreference, !supportsAdvertisingPHYOptions {
            throw .unsupportedExtendedSet("choosing the LE Coded coding needs LE Set Extended Advertising Parameters [v2], which the controller does not claim")
        }
        if let periodic = extended.periodic {
            guard supportsPeriodicAdvertising else {
                throw .unsupportedExtendedSet("a periodic train needs LE Set Periodic Advertising Parameters, Data and Enable, which the controller does not claim")
            }
            guard !connectable else { throw .unsupportedExtendedSet("only a non-connectable set carries a periodic train") }
            guard periodic.interval >= 0x0006 else {
                throw .unsupportedExtendedSet("the periodic interval must be at least 7.5 ms (0x0006 units of 1.25 ms)")
            }
            guard periodic.data.count <= AdvertisingData.extendedMaximumLength else {
                throw .advertisingDataTooLong(octets: periodic.data.count, maximum: AdvertisingData.extendedMaximumLength)
            }
        }
        if parameters.useRandomAddress, randomAddress == nil { throw .noRandomAddress }
        do throws(WireError) {
            try parameters.data.validateExtended()
        } catch {
            throw .advertisingDataTooLong(octets: parameters.data.encodedLength, maximum: AdvertisingData.extendedMaximumLength)
        }
        let resync = advertisingResync()
        advertising = .starting
        advertisingExtended = true
        advertisingParameters = parameters
        restartAdvertisingAfter = nil
        var outputs = resync
        let setParameters = HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: Self.extendedSet, advertisingEventProperties: connectable ? [.connectable] : [],
            primaryAdvertisingIntervalMin: UInt32(parameters.intervalMin), primaryAdvertisingIntervalMax: UInt32(parameters.intervalMax),
            primaryAdvertisingChannelMap: parameters.channelMap, ownAddressType: ownAddressType(random: parameters.useRandomAddress),
            primaryAdvertisingPHY: extended.primaryPHY, secondaryAdvertisingPHY: extended.secondaryPHY, advertisingSID: extended.sid)
        if options == .noPreference {
            outputs.append(submit(setParameters, for: .advertisingSetup))
        } else {
            outputs.append(submit(HCI.LESetExtendedAdvertisingParametersV2(
                setParameters, primaryAdvertisingPHYOptions: extended.primaryPHY == .leCoded ? options : .noPreference,
                secondaryAdvertisingPHYOptions: extended.secondaryPHY == .leCoded ? options : .noPreference), for: .advertisingSetup))
        }
        if parameters.useRandomAddress, let randomAddress {
            outputs.append(submit(HCI.LESetAdvertisingSetRandomAddress(advertisingHandle: Self.extendedSet, randomAddress: randomAddress),
                                  for: .advertisingSetup))
        }
        for (operation, fragment) in Self.fragments(parameters.data) {
            outputs.append(submit(HCI.LESetExtendedAdvertisingData(advertisingHandle: Self.extendedSet, operation: operation,
                                                                   advertisingData: fragment), for: .advertisingSetup))
        }
        advertisingPeriodic = extended.periodic != nil
        if let periodic = extended.periodic {
            // The train's parameters, data and enable; it goes on the air with the set (§7.8.63).
            outputs.append(submit(HCI.LESetPeriodicAdvertisingParameters(
                advertisingHandle: Self.extendedSet, periodicAdvertisingIntervalMin: periodic.interval,
                periodicAdvertisingIntervalMax: periodic.interval), for: .advertisingSetup))
            for (operation, fragment) in periodic.fragments {
                outputs.append(submit(HCI.LESetPeriodicAdvertisingData(
                    advertisingHandle: Self.extendedSet, operation: operation, advertisingData: fragment), for: .advertisingSetup))
            }
            outputs.append(submit(HCI.LESetPeriodicAdvertisingEnable(enable: true, advertisingHandle: Self.extendedSet),
                                  for: .advertisingSetup))
        }
        outputs.append(submit(HCI.LESetExtendedAdvertisingEnable(enable: true, sets: [.init(advertisingHandle: Self.extendedSet)]),
                              for: .advertisingEnable(true)))
        return outputs
    }

    /// `data` cut into LE Set Extended Advertising Data's fragments (at most 251 octets
    /// each), with their operations: one complete fragment, or first, intermediate…, last.
    /// When every AD structure fits a fragment, cuts fall between structures (any cut is
    /// valid, but Wireshark dissects each fragment as whole structures and flags one that cuts
    /// a structure as malformed); otherwise every 251 octets.
    static func fragments(_ data: AdvertisingData) -> [(HCI.AdvertisingDataOperation, ArraySlice<UInt8>)] {
        let size = HCI.maximumExtendedAdvertisingDataFragmentLength
        let bytes = data.encoded()
        var bounds = [0]
        if data.structures.allSatisfy({ $0.encodedLength <= size }) {
            var end = 0
            for structure in data.structures {
                if end + structure.encodedLength - bounds[bounds.count - 1] > size { bounds.append(end) }
                end += structure.encodedLength
            }
        } else {
            bounds += Array(stride(from: size, to: bytes.count, by: size))
        }
        bounds.append(bytes.count)
        let pieces = zip(bounds, bounds.dropFirst()).map { bytes[$0 ..< $1] }
        return pieces.enumerated().map { number, piece in
            let operation: HCI.AdvertisingDataOperation = pieces.count == 1 ? .complete
                : number == 0 ? .firstFragment : number == pieces.count - 1 ? .lastFragment : .intermediateFragment
            return (operation, piece)
        }
    }
}
