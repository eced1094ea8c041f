import BLEWire

// What the controller does with a packet the air delivers to its open receiver.

extension Controller {
    /// A packet from the air: a connection's, or an advertising-channel PDU for the
    /// advertiser, the initiator and the scanners.
    mutating func handleReception(_ reception: RadioReception, into outputs: inout [ControllerOutput]) {
        let transmission = reception.transmission
        guard transmission.accessAddress == RadioTransmission.advertisingAccessAddress else {
            if receivePeriodic(reception, into: &outputs) { return }
            // Only the link whose event holds the radio listens; anything else is a leftover.
            guard let index = connections.firstIndex(where: { $0.request.accessAddress == transmission.accessAddress }),
                  connections[index].link.handleValue == radioOwner
            else { return }
            feed(connectionAt: index, .radio(reception), into: &outputs)
            return
        }
        guard let pdu = try? LL.AdvertisingPDU(decoding: transmission.pdu) else {
            counters.malformedAirPDUs += 1
            return
        }
        // Address resolution (Controller+Privacy.swift): the sender's identity, if any.
        let sender = pdu.payload.senderAddress
        let resolved = sender.map { resolveSender($0) } ?? ResolvedSender(filterAcceptList: filterAcceptList)
        if resolved.ignored { return }
        switch pdu.pduType {
        case .connectInd where transmission.channel <= ExtendedScanner.highestSecondaryChannel:
            // AUX_CONNECT_REQ, for a connectable extended set.
            receiveAuxiliaryConnectRequest(pdu, reception, filterAcceptList: resolved.filterAcceptList, into: &outputs)
        case .scanReq where transmission.channel <= ExtendedScanner.highestSecondaryChannel:
            // AUX_SCAN_REQ, for a scannable extended set.
            receiveAuxiliaryScanRequest(pdu, reception, filterAcceptList: resolved.filterAcceptList, into: &outputs)
        case .scanReq, .connectInd:
            guard var active = advertiser else { return }
            let refusedBefore = active.refusedConnectIndications
            let (effects, finished) = active.receive(pdu, reception, at: now, filterAcceptList: resolved.filterAcceptList)
            counters.invalidConnectIndications += active.refusedConnectIndications - refusedBefore
            if finished { legacyAdvertisingSet?.eventsAtEnd = active.eventCount }
            advertiser = finished ? nil : active
            apply(effects, into: &outputs)
        case .advInd, .advDirectInd, .advNonconnInd, .advScanInd, .scanRsp:
            var radioFreeUntil = higherPriorityStart(than: .initiating)
            if let running = initiator, pdu.pduType != .scanRsp, let sender {
                let active = Controller.initiator(running, seeing: sender, as: resolved.identity)
                let effects = active.receive(
                    pdu, reception, at: now, filterAcceptList: resolved.filterAcceptList,
                    radioFreeUntil: radioFreeUntil, existingLinks: linkSchedules, random: &random)
                if !effects.isEmpty {
                    initiator = nil
                    apply(effects, into: &outputs)
                    radioFreeUntil = now
                }
            }
            // Changed in place, not copied out and stored back (see handleTimer(into:)).
            if scanner != nil {
                let free = Self.earlier(radioFreeUntil, higherPriorityStart(than: .scanning))
                let effects = scanner?.receive(
                    pdu, reception, at: now, filterAcceptList: resolved.filterAcceptList, radioFreeUntil: free) ?? []
                apply(sender.map { Controller.reportingIdentity(effects, sender: $0, identity: resolved.identity) } ?? effects,
                      into: &outputs)
            }
            if extendedScanner != nil {
                let free = Self.earlier(radioFreeUntil, higherPriorityStart(than: .scanning))
                let effects = extendedScanner?.receiveLegacy(
                    pdu, reception, at: now, filterAcceptList: resolved.filterAcceptList, radioFreeUntil: free) ?? []
                let reported = sender.map { Controller.reportingIdentity(effects, sender: $0, identity: resolved.identity) } ?? effects
                apply(reported.map(ExtendedScanner.extendedForm), into: &outputs)
            }
        case .advExtInd:
            // ADV_EXT_IND, AUX_ADV_IND and AUX_CHAIN_IND share the type; the initiator and the
            // extended scanner tell them apart.
            if let running = initiator {
                // An AUX_ADV_IND's AdvA resolved (Controller+ExtendedPrivacy.swift): the
                // initiator sees it as its identity's, for this PDU only.
                let (view, filterAcceptList, ignored) = initiatorView(running, extendedPDU: pdu)
                if !ignored {
                    var active = view
                    let effects = active.receiveExtended(
                        pdu, reception, at: now, filterAcceptList: filterAcceptList,
                        radioFreeUntil: higherPriorityStart(than: .initiating), existingLinks: linkSchedules, random: &random)
                    active.command = running.command
                    initiator = active
                    apply(effects, into: &outputs)
                }
            }
            guard var active = extendedScanner else { return }
            let malformedBefore = active.malformedPDUs
            let effects = active.receiveExtended(pdu, reception, at: now, radioFreeUntil: higherPriorityStart(than: .scanning))
            counters.malformedAirPDUs += active.malformedPDUs - malformedBefore
            extendedScanner = active
            apply(resolvingExtendedReports(effects), into: &outputs)
            if pendingPeriodicSync != nil { discoverPeriodicTrain(pdu, reception) }
        case .auxConnectRsp:
            guard var active = initiator else { return }
            let effects = active.receiveConnectResponse(pdu, reception)
            initiator = effects.isEmpty ? active : nil
            apply(effects, into: &outputs)
        }
    }
}
