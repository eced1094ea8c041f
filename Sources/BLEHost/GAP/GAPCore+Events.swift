import BLEWire

extension GAPCore {
    /// Takes one output of ``HCIDriver``: answers to GAP's commands, LE Meta events, lost
    /// links and a controller (re)start. Outputs that are not GAP's are ignored.
    public mutating func handle(_ output: HCIDriverOutput, at now: HostTime) -> [GAPOutput] {
        switch output {
        case let .commandCompleted(token, result):
            guard let purpose = purposes.removeValue(forKey: token) else { return [] }
            return answered(purpose, result, at: now)
        case let .event(event):
            return handle(event, at: now)
        case let .linkLost(handle, reason):
            return linkLost(handle, reason: reason, at: now)
        case let .ready(info):
            readsEncryptionKeySize = info.mayAnswer(.readEncryptionKeySize)
            supportsExtendedAdvertising = info.supportedCommands.map {
                $0.contains(.leSetExtendedAdvertisingParameters) && $0.contains(.leSetExtendedAdvertisingData)
                    && $0.contains(.leSetExtendedAdvertisingEnable)
            } ?? false
            supportsExtendedScanning = info.supportedCommands.map {
                $0.contains(.leSetExtendedScanParameters) && $0.contains(.leSetExtendedScanEnable)
            } ?? false
            supportsCodedPHY = info.leFeatures.contains(.leCodedPHY)
            supportsExtendedConnection = info.supportedCommands?.contains(.leExtendedCreateConnection) ?? false
            supportsAdvertisingPHYOptions = info.supportedCommands?.contains(.leSetExtendedAdvertisingParametersV2) ?? false
            commandFamily = choosesExtendedFamilyWhenClaimed
                ? Self.commandFamily(features: info.leFeatures, commands: info.supportedCommands) : .legacy
            supportsPeriodicAdvertising = info.supportedCommands.map {
                $0.contains(.leSetPeriodicAdvertisingParameters) && $0.contains(.leSetPeriodicAdvertisingData)
                    && $0.contains(.leSetPeriodicAdvertisingEnable)
            } ?? false
            supportsPeriodicSync = info.leFeatures.contains(.lePeriodicAdvertising) && info.supportedCommands.map {
                $0.contains(.lePeriodicAdvertisingCreateSync) && $0.contains(.lePeriodicAdvertisingCreateSyncCancel)
                    && $0.contains(.lePeriodicAdvertisingTerminateSync)
            } ?? false
            pendingSync = nil
            queuedSyncs = []
            periodicSyncs = [:]
            scanningForSync = false
            advertisingPeriodic = false
            // A reset leaves the controller neither advertising nor scanning, with no
            // random address.
            advertising = .off
            scanning = .off
            scanningExtended = false
            scanningHearsExtended = false
            advertisingExtended = false
            reassembly = HCI.LEExtendedAdvertisingReport.Reassembly()
            advertisingInDoubt = false
            scanningInDoubt = false
            randomAddress = nil
            restartAdvertisingAfter = nil
            addressResolutionInController = false
            return []
        case .send, .l2capFrame, .failed:
            return []
        }
    }

    // MARK: Command answers

    /// The status of a command's answer, or why it has none.
    static func outcome(_ result: Result<HCI.Event, HCIDriverError>) -> GAPError? {
        switch result {
        case let .failure(error):
            return .driver(error)
        case let .success(.commandStatus(status)):
            return status.status == .success ? nil : .controller(status.status)
        case let .success(.commandComplete(complete)):
            guard let first = complete.returnParameters.first else {
                return .malformedAnswer(WireError(field: "HCI.CommandComplete.returnParameters", reason: .truncated(needed: 1, available: 0)))
            }
            let status = HCI.StatusCode(rawValue: first)
            return status == .success ? nil : .controller(status)
        case .success:
            return nil
        }
    }

    private mutating func answered(_ purpose: Purpose, _ result: Result<HCI.Event, HCIDriverError>, at now: HostTime) -> [GAPOutput] {
        let failure = Self.outcome(result)
        switch purpose {
        case let .setRandomAddress(address):
            if let failure { return [.event(.procedureFailed(.setRandomAddress, failure))] }
            randomAddress = address
            return [.event(.randomAddressSet(address))]
        case .advertisingSetup:
            guard let failure, advertising == .starting else { return [] }
            return abandonAdvertisingStart(failure)
        case .advertisingSetRemoval:
            // Unknown Advertising Identifier when the set was never made: nothing to remove.
            return []
        case let .advertisingData(last):
            if let failure { return [.event(.procedureFailed(.advertising, failure))] }
            return last ? [.event(.advertisingDataUpdated)] : []
        case .advertisingEnable(true):
            guard advertising == .starting else { return [] }
            if let failure {
                if Self.unanswered(failure) { return abandonAdvertisingStart(failure) }
                advertising = .off
                return [.event(.procedureFailed(.advertising, failure))]
            }
            advertising = .on
            advertisingInDoubt = false
            return [.event(.advertisingStarted)]
        case .advertisingEnable(false):
            // A disable answered while GAP counts advertising off settles a doubt.
            if failure == nil, advertising == .off { advertisingInDoubt = false }
            guard advertising == .stopping else { return [] }
            if let failure {
                advertising = Self.unanswered(failure) ? .off : .on
                if advertising == .off { advertisingInDoubt = true }
                return [.event(.procedureFailed(.advertising, failure))]
            }
            advertisingInDoubt = false
            advertising = .off
            return [.event(.advertisingStopped(connectionHandle: nil))]
        case .scanParameters:
            guard let failure, scanning == .starting else { return [] }
            return abandonScanningStart(failure)
        case .scanEnable(true):
            guard scanning == .starting else { return [] }
            if let failure {
                if Self.unanswered(failure) { return abandonScanningStart(failure) }
                scanning = .off
                return [.event(.procedureFailed(.scanning, failure))]
            }
            scanning = .on
            scanningInDoubt = false
            return [.event(.scanningStarted)]
        case .scanEnable(false):
            if failure == nil, scanning == .off { scanningInDoubt = false }
            guard scanning == .stopping else { return [] }
            if let failure {
                scanning = Self.unanswered(failure) ? .off : .on
                if scanning == .off { scanningInDoubt = true }
                return [.event(.procedureFailed(.scanning, failure))]
            }
            scanningInDoubt = false
            scanning = .off
            return [.event(.scanningStopped)]
        case let .createConnection(peer):
            guard let failure, let attempt = pending, attempt.request.peer.value == peer.value else { return [] }
            return finishPending(failure: attempt.cancelReason ?? failure, at: now)
        case .createConnectionCancel:
            // Refused when the attempt already ended; its LE Connection Complete says how.
            return []
        case .enableEncryption, .longTermKeyReply, .encryptionKeySize:
            return answeredEncryption(purpose, failure: failure, result: result)
        case .createSync, .createSyncCancel, .terminateSync:
            return answeredPeriodicSync(purpose, failure: failure, at: now)
        case let .procedure(procedure):
            if let failure { return [.event(.procedureFailed(procedure, failure))] }
            guard case let .success(.commandComplete(complete)) = result else { return [] }
            do throws(WireError) {
                switch procedure {
                case let .readRSSI(handle):
                    let answer = try complete.returnParameters(for: HCI.ReadRSSI.self)
                    return [.event(.rssi(handle: handle, answer.rssi))]
                case let .readPHY(handle):
                    let answer = try complete.returnParameters(for: HCI.LEReadPHY.self)
                    links[handle]?.txPHY = answer.txPHY
                    links[handle]?.rxPHY = answer.rxPHY
                    return [.event(.phyRead(handle: handle, tx: answer.txPHY, rx: answer.rxPHY))]
                case .readSimulatedLocation:
                    return [.event(.simulatedLocation(try complete.returnParameters(for: HCI.ReadSimulatedLocation.self)))]
                default:
                    return []
                }
            } catch {
                return [.event(.procedureFailed(procedure, .malformedAnswer(error)))]
            }
        }
    }

    // MARK: Events

    private mutating func handle(_ event: HCI.Event, at now: HostTime) -> [GAPOutput] {
        switch event {
        case let .leMeta(.advertisingReport(report)):
            guard scanning != .off else { return [] }
            var outputs: [GAPOutput] = []
            for entry in report.reports {
                if let advertisement = scanFilter.add(entry, at: now) { outputs.append(.event(.advertisement(advertisement))) }
            }
            return outputs
        case let .leMeta(.extendedAdvertisingReport(report)):
            guard scanning != .off else { return [] }
            var outputs: [GAPOutput] = []
            for entry in report.reports {
                if scanningHearsExtended {
                    // An extended scan: fragments joined, then reported whatever their length.
                    guard let whole = reassembly.add(entry), let report = GAPAdvertisementFilter.report(whole.entry) else { continue }
                    let heard = GAPExtendedHearing(entry: whole.entry, truncated: whole.truncated)
                    if let advertisement = scanFilter.add(report, extended: heard, at: now) { outputs.append(.event(.advertisement(advertisement))) }
                } else {
                    // A plain scan in the extended family (GAPCore+CommandFamily.swift), or a legacy
                    // scan of a controller that reports this way (GAPExtendedReports.swift).
                    let legacy = scanningExtended ? Self.plainScanReport(entry) : GAPAdvertisementFilter.legacyReport(entry)
                    guard let legacy else { continue }
                    if let advertisement = scanFilter.add(legacy, at: now) { outputs.append(.event(.advertisement(advertisement))) }
                }
            }
            return outputs
        case let .leMeta(.advertisingSetTerminated(terminated)):
            return advertisingSetTerminated(terminated)
        case let .leMeta(sync) where sync.isPeriodicSyncEvent:
            return periodicSyncEvent(sync, at: now)
        case let .leMeta(.connectionComplete(done)):
            return connectionComplete(
                status: done.status, handle: done.connectionHandle, role: done.role, peer: done.peerAddress,
                peerType: done.peerAddressType, parameters: GAPConnectionParameters(
                    interval: done.connectionInterval, latency: done.peripheralLatency, supervisionTimeout: done.supervisionTimeout),
                at: now)
        case let .leMeta(.enhancedConnectionComplete(done)):
            return enhancedConnectionComplete(done, at: now)
        case let .leMeta(.enhancedConnectionCompleteV2(done)):
            return enhancedConnectionComplete(done.connection, at: now)
        case let .leMeta(.connectionUpdateComplete(done)):
            guard done.status == .success else {
                return [.event(.procedureFailed(.connectionParameterUpdate(handle: done.connectionHandle), .controller(done.status)))]
            }
            let parameters = GAPConnectionParameters(
                interval: done.connectionInterval, latency: done.peripheralLatency, supervisionTimeout: done.supervisionTimeout)
            links[done.connectionHandle]?.parameters = parameters
            return [.event(.connectionParametersUpdated(handle: done.connectionHandle, parameters))]
        case let .leMeta(.dataLengthChange(change)):
            let length = GAPDataLength(
                maxTxOctets: change.maxTxOctets, maxTxTime: change.maxTxTime, maxRxOctets: change.maxRxOctets, maxRxTime: change.maxRxTime)
            links[change.connectionHandle]?.dataLength = length
            return [.event(.dataLengthChanged(handle: change.connectionHandle, length))]
        case let .leMeta(.readRemoteFeaturesComplete(done)):
            guard done.status == .success else {
                return [.event(.procedureFailed(.readRemoteFeatures(handle: done.connectionHandle), .controller(done.status)))]
            }
            return [.event(.remoteFeatures(handle: done.connectionHandle, done.leFeatures))]
        case let .leMeta(.phyUpdateComplete(done)):
            guard done.status == .success else {
                return [.event(.procedureFailed(.phyUpdate(handle: done.connectionHandle), .controller(done.status)))]
            }
            links[done.connectionHandle]?.txPHY = done.txPHY
            links[done.connectionHandle]?.rxPHY = done.rxPHY
            return [.event(.phyUpdated(handle: done.connectionHandle, tx: done.txPHY, rx: done.rxPHY))]
        default:
            return encryptionEvent(event)
        }
    }

    private mutating func enhancedConnectionComplete(_ done: HCI.LEEnhancedConnectionComplete, at now: HostTime) -> [GAPOutput] {
        connectionComplete(
            status: done.status, handle: done.connectionHandle, role: done.role, peer: done.peerAddress,
            peerType: done.peerAddressType, parameters: GAPConnectionParameters(
                interval: done.connectionInterval, latency: done.peripheralLatency, supervisionTimeout: done.supervisionTimeout),
            privateAddresses: (done.localResolvablePrivateAddress, done.peerResolvablePrivateAddress), at: now)
    }

    /// LE Connection Complete in any of its forms (Vol 4, Part E, §7.7.65.1, §7.7.65.10).
    private mutating func connectionComplete(
        status: HCI.StatusCode, handle: UInt16, role: HCI.Role, peer: BluetoothAddress, peerType: HCI.AddressType,
        parameters: GAPConnectionParameters, privateAddresses: (local: BluetoothAddress, peer: BluetoothAddress)? = nil,
        at now: HostTime
    ) -> [GAPOutput] {
        guard status == .success else {
            if status == .advertisingTimeout, advertising != .off {
                // High duty cycle directed advertising ended unanswered (Vol 6, Part B, §4.4.2.4.3).
                advertising = .off
                return [.event(.advertisingStopped(connectionHandle: nil)), .event(.procedureFailed(.advertising, .controller(status)))]
            }
            guard let attempt = pending else { return [] }
            return finishPending(failure: attempt.cancelReason ?? .controller(status), at: now)
        }
        var link = GAPConnection(handle: handle, role: role, peer: peer, peerAddressType: peerType, parameters: parameters)
        // All zeros when no private address was used (§7.7.65.10).
        link.localPrivateAddress = privateAddresses.flatMap { $0.local.value == 0 ? nil : $0.local }
        link.peerPrivateAddress = privateAddresses.flatMap { $0.peer.value == 0 ? nil : $0.peer }
        links[handle] = link
        var outputs: [GAPOutput] = []
        switch role {
        case .central:
            outputs.append(.event(.connected(link)))
            if pending?.request.peer.value == peer.value { outputs += finishPending(failure: nil, at: now) }
        case .peripheral:
            // Legacy advertising stops when a connection is made from it (Vol 6, Part B, §4.4.2).
            // A connection made before the enable's Command Complete arrived shows that
            // advertising did start: say so first, or the start would wait for ever (the
            // late Command Complete finds advertising off and is ignored).
            if advertising == .starting { outputs.append(.event(.advertisingStarted)) }
            if advertising != .off {
                advertising = .off
                if advertisingParameters?.restartAfterDisconnection == true { restartAdvertisingAfter = handle }
                outputs.append(.event(.advertisingStopped(connectionHandle: handle)))
            }
            outputs.append(.event(.connected(link)))
        }
        return outputs
    }

    /// Disconnection Complete or a reset: the link is gone; advertising restarts if a
    /// connection made from it ended and that was asked for.
    private mutating func linkLost(_ handle: UInt16, reason: HCI.StatusCode, at now: HostTime) -> [GAPOutput] {
        guard links.removeValue(forKey: handle) != nil else { return [] }
        encryption[handle] = nil
        var outputs: [GAPOutput] = [.event(.disconnected(handle: handle, reason: reason))]
        if restartAdvertisingAfter == handle {
            restartAdvertisingAfter = nil
            if advertising == .off, advertisingParameters != nil {
                advertising = .starting
                // A set is enabled again with the extended command (the families do not mix, §3.1.1).
                if !advertisingExtended {
                    outputs.append(submit(HCI.LESetAdvertisingEnable(advertisingEnable: true), for: .advertisingEnable(true)))
                } else if advertisingParameters?.extended == nil {
                    outputs.append(legacyPDUSetEnable(advertisingParameters))
                } else {
                    outputs.append(submit(HCI.LESetExtendedAdvertisingEnable(enable: true, sets: [.init(advertisingHandle: Self.extendedSet)]),
                                          for: .advertisingEnable(true)))
                }
            }
        }
        return outputs
    }
}
