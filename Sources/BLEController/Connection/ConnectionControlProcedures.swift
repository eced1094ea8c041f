import BLEWire

/// The LL control procedures (Core 5.4, Vol 6, Part B, §5.1): connection update, channel
/// map update, termination, feature and version exchange, LE ping, data length update and
/// PHY update, and LL_UNKNOWN_RSP for anything else.
extension LinkLayerConnection {
    /// Whether some request of ours still waits for the peer's answer.
    var awaitingPeerResponse: Bool {
        featureRequestPending || lengthRequestPending || phyRequestPending
            || (versionSent && remoteVersion == nil) || encryption.awaitingPeer
    }

    /// Starts or stops the 40 s procedure response timer (§5.2).
    mutating func refreshProcedureTimer(at now: Microseconds) {
        if awaitingPeerResponse {
            if procedureDeadline == nil { procedureDeadline = now + Self.procedureResponseTimeout }
        } else {
            procedureDeadline = nil
        }
    }

    /// Runs a command the controller routed here.
    mutating func perform(_ command: ConnectionCommand, at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        switch command {
        case let .disconnect(reason):
            guard terminating == nil else { return }
            terminating = reason
            controlQueue.insert(.pdu(.terminateIndication(errorCode: reason)), at: 0)
        case let .updateParameters(update):
            let wanted = update.connectionParameters
            guard role == .central else {
                outputs.append(.event(.leMeta(.connectionUpdateComplete(.init(
                    status: .unsupportedRemoteFeature, connectionHandle: handleValue, connectionInterval: intervalUnits,
                    peripheralLatency: latency, supervisionTimeout: timeoutUnits)))))
                return
            }
            let interval = min(max(wanted.connectionIntervalMin, 6), 3200)
            controlQueue.append(.connectionUpdate(interval: interval, latency: wanted.maxLatency, timeout: max(wanted.supervisionTimeout, 10)))
        case let .updateChannelMap(map):
            // Only the central updates the map; at least two used channels (Vol 6, Part B, §4.5.8).
            guard role == .central, (map & 0x1F_FFFF_FFFF).nonzeroBitCount >= 2 else { return }
            controlQueue.append(.channelMapUpdate(map & 0x1F_FFFF_FFFF))
        case let .startEncryption(random, ediv, longTermKey):
            startEncryption(random: random, ediv: ediv, longTermKey: longTermKey, into: &outputs)
        case let .longTermKeyReply(key):
            longTermKeyReply(key, into: &outputs)
        case let .setDataLength(txOctets, txTime):
            localMaxTxOctets = min(max(txOctets, 27), 251)
            localMaxTxTime = min(max(txTime, 328), 17040)
            if !lengthRequestPending {
                lengthRequestPending = true
                controlQueue.append(.pdu(.lengthRequest(localLengthParameters)))
            }
        case let .setPHY(request):
            phyPreferences = phyPreferences(allPHYs: request.allPHYs, tx: request.txPHYs, rx: request.rxPHYs)
            codedCoding = request.phyOptions == .s2 ? .s2 : .s8
            phyRequestedByHost = true
            if !phyRequestPending {
                phyRequestPending = true
                controlQueue.append(.pdu(.phyRequest(phyPreferences)))
            }
        case .readRemoteFeatures:
            if let remoteFeatures {
                outputs.append(.event(.leMeta(.readRemoteFeaturesComplete(.init(status: .success, connectionHandle: handleValue, leFeatures: remoteFeatures)))))
            } else if !featureRequestPending {
                featureRequestPending = true
                controlQueue.append(.pdu(role == .central
                    ? .featureRequest(featureSet: localFeatures)
                    : .peripheralFeatureRequest(featureSet: localFeatures)))
            }
        case .readRemoteVersion:
            if let remoteVersion {
                outputs.append(.event(versionEvent(remoteVersion)))
            } else {
                versionRequestedByHost = true
                if !versionSent {
                    versionSent = true
                    controlQueue.append(.pdu(.versionIndication(Self.version)))
                }
            }
        }
        refreshProcedureTimer(at: now)
        wakeFromLatency(at: now, into: &outputs)
    }

    /// This side's LL_LENGTH_REQ/RSP parameters.
    var localLengthParameters: LL.LengthParameters {
        LL.LengthParameters(maxRxOctets: localMaxRxOctets, maxRxTime: localMaxRxTime, maxTxOctets: localMaxTxOctets, maxTxTime: localMaxTxTime)
    }

    /// Read Remote Version Information Complete for `version`.
    func versionEvent(_ version: LL.VersionIndication) -> HCI.Event {
        .readRemoteVersionInformationComplete(.init(
            status: .success, connectionHandle: handleValue, version: version.version,
            companyIdentifier: version.companyIdentifier, subversion: version.subversion))
    }

    /// Turns a queued control item into its PDU; an instant is set to at least six events
    /// after the current one, beyond the peripheral's latency (§5.1.1), and recorded.
    mutating func buildControl(_ pending: PendingControl, at now: Microseconds) -> LL.ControlPDU {
        let instant = eventCounter &+ 6 &+ latency
        switch pending {
        case let .pdu(pdu):
            return pdu
        case let .connectionUpdate(interval, latency, timeout):
            let update = LL.ConnectionUpdateIndication(windowSize: 1, windowOffset: 0, interval: interval, latency: latency, timeout: timeout, instant: instant)
            pendingInstants.append(PendingInstant(instant: instant, change: .parameters(update, notifyHost: true)))
            return .connectionUpdateIndication(update)
        case let .phyUpdate(centralToPeripheral, peripheralToCentral):
            let update = LL.PHYUpdateIndication(centralToPeripheralPHY: centralToPeripheral, peripheralToCentralPHY: peripheralToCentral, instant: instant)
            pendingInstants.append(PendingInstant(instant: instant, change: .phy(
                txPHY: radioPHY(centralToPeripheral, transmitting: true), rxPHY: radioPHY(peripheralToCentral, transmitting: false),
                notifyHost: true)))
            return .phyUpdateIndication(update)
        case let .channelMapUpdate(map):
            let update = LL.ChannelMapIndication(channelMap: map, instant: instant)
            pendingInstants.append(PendingInstant(instant: instant, change: .channelMap(map)))
            return .channelMapIndication(update)
        }
    }

    /// The radio PHY for one PHY bit of LL_PHY_UPDATE_IND, `nil` for "unchanged". LE Coded
    /// sends with ``codedCoding``; a receiver takes either coding and plans its windows for
    /// the longer, S=8.
    func radioPHY(_ bit: UInt8, transmitting: Bool) -> RadioPHY? {
        switch bit {
        case 0x01: return .le1M
        case 0x02: return .le2M
        case 0x04: return .leCoded(transmitting ? codedCoding : .s8)
        default: return nil
        }
    }

    /// The PHY bit for a radio PHY.
    static func phyBit(_ phy: RadioPHY) -> UInt8 {
        switch phy {
        case .le1M: 0x01
        case .le2M: 0x02
        case .leCoded: 0x04
        }
    }

    /// Applies a change at its instant and tells the host (§5.1.1, §5.1.2, §5.1.10).
    mutating func apply(_ change: PendingInstant.Change, into outputs: inout [ConnectionOutput]) {
        switch change {
        case let .parameters(update, notifyHost):
            let changed = update.interval != intervalUnits || update.latency != latency || update.timeout != timeoutUnits
            anchor += Microseconds(update.windowOffset) * 1250
            transmitWindowExtra = Microseconds(max(update.windowSize, 1)) * 1250
            intervalUnits = max(update.interval, 1)
            latency = update.latency
            timeoutUnits = max(update.timeout, 1)
            if changed || notifyHost {
                outputs.append(.event(.leMeta(.connectionUpdateComplete(.init(
                    status: .success, connectionHandle: handleValue, connectionInterval: intervalUnits,
                    peripheralLatency: latency, supervisionTimeout: timeoutUnits)))))
            }
        case let .channelMap(map):
            channels.setChannelMap(map)
        case let .phy(tx, rx, _):
            let oldTx = txPHY, oldRx = rxPHY
            if let tx { txPHY = tx }
            if let rx { rxPHY = rx }
            if oldTx != txPHY || oldRx != rxPHY || phyRequestedByHost {
                phyRequestedByHost = false
                outputs.append(.event(.leMeta(.phyUpdateComplete(.init(
                    status: .success, connectionHandle: handleValue, txPHY: txPHY.hciPHY, rxPHY: rxPHY.hciPHY)))))
            }
        }
    }

    /// Whether an instant received in a PDU during the current event is still ahead (§5.5.1).
    func instantIsAhead(_ instant: UInt16) -> Bool {
        let distance = instant &- eventCounter
        return distance != 0 && distance < 32767
    }

    /// The central's choice of PHYs from both sides' preferences (§5.1.10): LE 2M when
    /// both allow it, else LE 1M, else LE Coded (so a link moves to Coded only when a host
    /// asks for it alone: it buys range with time on air); a PDU bit of 0 where nothing changes.
    mutating func queuePHYUpdate(peer: LL.PHYPreferences, into outputs: inout [ConnectionOutput]) {
        func choose(_ mask: UInt8) -> UInt8? {
            if mask & 0b010 != 0 { return 0x02 }
            if mask & 0b001 != 0 { return 0x01 }
            if mask & 0b100 != 0 { return 0x04 }
            return nil
        }
        let toPeripheral = choose(phyPreferences.txPHYs & peer.rxPHYs) ?? Self.phyBit(txPHY)
        let toCentral = choose(peer.txPHYs & phyPreferences.rxPHYs) ?? Self.phyBit(rxPHY)
        let c2p = toPeripheral == Self.phyBit(txPHY) ? 0 : toPeripheral
        let p2c = toCentral == Self.phyBit(rxPHY) ? 0 : toCentral
        phyRequestPending = false
        if c2p == 0, p2c == 0 {
            controlQueue.append(.pdu(.phyUpdateIndication(.init(centralToPeripheralPHY: 0, peripheralToCentralPHY: 0, instant: 0))))
            if phyRequestedByHost { apply(.phy(txPHY: nil, rxPHY: nil, notifyHost: true), into: &outputs) }
        } else {
            controlQueue.append(.phyUpdate(centralToPeripheral: c2p, peripheralToCentral: p2c))
        }
    }

    /// Recomputes the effective data lengths and reports a change (§4.5.10, §5.1.9).
    mutating func updateLengths(from peer: LL.LengthParameters, into outputs: inout [ConnectionOutput]) {
        remoteMaxRxOctets = max(peer.maxRxOctets, 27)
        remoteMaxRxTime = max(peer.maxRxTime, 328)
        remoteMaxTxOctets = max(peer.maxTxOctets, 27)
        remoteMaxTxTime = max(peer.maxTxTime, 328)
        let after = [min(localMaxTxOctets, remoteMaxRxOctets), min(localMaxTxTime, remoteMaxRxTime),
                     min(localMaxRxOctets, remoteMaxTxOctets), min(localMaxRxTime, remoteMaxTxTime)]
        if after != reportedLengths {
            reportedLengths = after
            outputs.append(.event(.leMeta(.dataLengthChange(.init(
                connectionHandle: handleValue, maxTxOctets: after[0], maxTxTime: after[1], maxRxOctets: after[2], maxRxTime: after[3])))))
        }
    }

    /// Handles a received control PDU.
    mutating func handleControl(_ pdu: LL.ControlPDU, at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        switch pdu {
        case let .connectionUpdateIndication(update):
            guard role == .peripheral else { return }
            guard instantIsAhead(update.instant) else { return close(reason: .instantPassed, into: &outputs) }
            pendingInstants.append(PendingInstant(instant: update.instant, change: .parameters(update, notifyHost: false)))
        case let .channelMapIndication(update):
            guard role == .peripheral else { return }
            guard (update.channelMap & 0x1F_FFFF_FFFF).nonzeroBitCount >= 2 else {
                // §5.1.2: a map shall use at least two channels. One with fewer cannot be
                // followed in step with the central, so the link ends with the reason the
                // spec gives a peer's invalid LL parameters (Vol 1, Part F, §2.30).
                refusals.invalidChannelMap += 1
                return terminateForInvalidParameters()
            }
            guard instantIsAhead(update.instant) else { return close(reason: .instantPassed, into: &outputs) }
            pendingInstants.append(PendingInstant(instant: update.instant, change: .channelMap(update.channelMap)))
        case .terminateIndication:
            break // acknowledged and closed by the receive path
        case let .encryptionRequest(request):
            receivedEncryptionRequest(request, into: &outputs)
        case let .encryptionResponse(response):
            receivedEncryptionResponse(response)
        case .startEncryptionRequest:
            receivedStartEncryptionRequest()
        case .startEncryptionResponse:
            receivedStartEncryptionResponse(into: &outputs)
        case .pauseEncryptionRequest:
            receivedPauseEncryptionRequest()
        case .pauseEncryptionResponse:
            receivedPauseEncryptionResponse()
        case let .unknownResponse(unknownType):
            peerRejected(opcode: unknownType, status: .unsupportedRemoteFeature, into: &outputs)
        case let .featureRequest(features), let .peripheralFeatureRequest(features):
            remoteFeatures = features
            controlQueue.append(.pdu(.featureResponse(featureSet: localFeatures)))
        case let .featureResponse(features):
            remoteFeatures = features
            if featureRequestPending {
                featureRequestPending = false
                outputs.append(.event(.leMeta(.readRemoteFeaturesComplete(.init(status: .success, connectionHandle: handleValue, leFeatures: features)))))
            }
        case let .versionIndication(version):
            guard remoteVersion == nil else { return }
            remoteVersion = version
            if !versionSent {
                versionSent = true
                controlQueue.append(.pdu(.versionIndication(Self.version)))
            }
            if versionRequestedByHost {
                versionRequestedByHost = false
                outputs.append(.event(versionEvent(version)))
            }
        case let .rejectIndication(code):
            peerRejected(opcode: LL.ControlOpcode.encryptionRequest.rawValue, status: code, into: &outputs)
        case let .rejectExtendedIndication(opcode, code):
            peerRejected(opcode: opcode, status: code, into: &outputs)
        case .pingRequest:
            controlQueue.append(.pdu(.pingResponse))
        case .pingResponse:
            break
        case let .lengthRequest(parameters):
            controlQueue.append(.pdu(.lengthResponse(localLengthParameters)))
            updateLengths(from: parameters, into: &outputs)
        case let .lengthResponse(parameters):
            lengthRequestPending = false
            updateLengths(from: parameters, into: &outputs)
        case let .phyRequest(preferences):
            if role == .central {
                queuePHYUpdate(peer: preferences, into: &outputs)
            } else {
                controlQueue.append(.pdu(.phyResponse(phyPreferences)))
                phyRequestPending = true
            }
        case let .phyResponse(preferences):
            if role == .central { queuePHYUpdate(peer: preferences, into: &outputs) }
        case let .phyUpdateIndication(update):
            guard role == .peripheral else { return }
            phyRequestPending = false
            if update.centralToPeripheralPHY == 0, update.peripheralToCentralPHY == 0 {
                if phyRequestedByHost { apply(.phy(txPHY: nil, rxPHY: nil, notifyHost: true), into: &outputs) }
            } else {
                guard instantIsAhead(update.instant) else { return close(reason: .instantPassed, into: &outputs) }
                pendingInstants.append(PendingInstant(instant: update.instant, change: .phy(
                    txPHY: radioPHY(update.peripheralToCentralPHY, transmitting: true),
                    rxPHY: radioPHY(update.centralToPeripheralPHY, transmitting: false), notifyHost: false)))
            }
        case let .unknown(opcode, _):
            controlQueue.append(.pdu(.unknownResponse(unknownType: opcode)))
        }
        refreshProcedureTimer(at: now)
    }

    /// Starts the termination procedure (§5.1.6) on the Link Layer's own account, with
    /// Invalid LL Parameters (0x1E): LL_TERMINATE_IND goes first, before anything queued.
    mutating func terminateForInvalidParameters() {
        guard terminating == nil else { return }
        terminating = .invalidLMPOrLLParameters
        terminatedByLinkLayer = true
        controlQueue.insert(.pdu(.terminateIndication(errorCode: .invalidLMPOrLLParameters)), at: 0)
    }

    /// The peer answered our request with LL_UNKNOWN_RSP or a reject: complete it with `status`.
    mutating func peerRejected(opcode: UInt8, status: HCI.StatusCode, into outputs: inout [ConnectionOutput]) {
        switch LL.ControlOpcode(rawValue: opcode) {
        case .featureRequest?, .peripheralFeatureRequest?:
            if featureRequestPending {
                featureRequestPending = false
                outputs.append(.event(.leMeta(.readRemoteFeaturesComplete(.init(status: status, connectionHandle: handleValue, leFeatures: 0)))))
            }
        case .lengthRequest?:
            lengthRequestPending = false
        case .phyRequest?:
            phyRequestPending = false
            if phyRequestedByHost {
                phyRequestedByHost = false
                outputs.append(.event(.leMeta(.phyUpdateComplete(.init(
                    status: status, connectionHandle: handleValue, txPHY: txPHY.hciPHY, rxPHY: rxPHY.hciPHY)))))
            }
        case .encryptionRequest?, .pauseEncryptionRequest?:
            encryptionRejected(status: status, into: &outputs)
        case .versionIndication?:
            versionRequestedByHost = false
            remoteVersion = LL.VersionIndication(version: 0, companyIdentifier: 0, subversion: 0)
        default:
            break
        }
    }
}
