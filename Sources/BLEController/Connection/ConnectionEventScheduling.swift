import BLEWire

/// Connection events (Core 5.4, Vol 6, Part B, §4.5.1–§4.5.7): anchors every connInterval,
/// the central first at each anchor, packets alternating T_IFS apart while either side
/// sets MD, peripheral latency, window widening and supervision.
extension LinkLayerConnection {
    /// The airtime of a data channel PDU carrying `payload` octets on `phy`.
    static func airtime(payload: Int, phy: RadioPHY) -> Microseconds {
        Airtime.duration(pduOctets: 2 + payload, phy: phy)
    }

    /// The longest packet the peer could send: a 251-octet payload with its MIC.
    var longestReception: Microseconds { Self.airtime(payload: LL.DataChannelPDU.maximumLength, phy: rxPHY) }

    /// The anchor of the event after the current one.
    var nextAnchor: Microseconds { anchor + interval }

    /// How much earlier (and later) than the anchor a peripheral listens (§4.5.7): the two
    /// sleep clock accuracies over the time since it last synchronised, plus 16 µs.
    var windowWidening: Microseconds {
        Self.windowWidening(anchor: anchor, lastSynchronisedAnchor: lastSynchronisedAnchor,
                            accuracyPPM: centralClockAccuracyPPM, intervalUnits: intervalUnits)
    }

    mutating func timerFired(at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        if now >= supervisionDeadline {
            close(reason: established ? .connectionTimeout : .connectionFailedToBeEstablished, into: &outputs)
            return
        }
        if let procedureDeadline, now >= procedureDeadline {
            close(reason: .lmpOrLLResponseTimeout, into: &outputs)
            return
        }
        switch phase {
        case .closed:
            return
        case .starting:
            scheduleWaiting(into: &outputs)
        case let .waitingForAnchor(missDeadline):
            if role == .central {
                guard now >= anchor else { return }
                // Woken late, the anchor is gone: wait for the next one instead of sending off-time.
                startCentralEvent(at: now, into: &outputs)
            } else if now >= missDeadline {
                closeEvent(at: now, into: &outputs)
            }
        case let .awaitingPeer(missDeadline):
            if now >= missDeadline { closeEvent(at: now, into: &outputs) }
        }
    }

    /// Sends the next packet at `start` and opens the receiver for the answer T_IFS after
    /// it. Returns `false` (sending nothing) when a central's exchange would not end before
    /// the next anchor with room for T_IFS and an empty PDU (§4.5.6), or when the packet (and
    /// for a central the peer's longest answer) would not end by ``radioFreeUntil``.
    @discardableResult
    mutating func transmit(at start: Microseconds, eventStart: Bool, into outputs: inout [ConnectionOutput]) -> Bool {
        let ifs = Airtime.interFrameSpace
        let limit = nextAnchor
        let emptyAnswer = Self.airtime(payload: 0, phy: rxPHY)
        let peerAnswer = Self.receiveWindowMargin + longestPeerPacket
        func leavesRadioInTime(_ payload: Int) -> Bool {
            guard let radioFreeUntil else { return true }
            let end = start + Self.airtime(payload: payload, phy: txPHY)
            return (role == .central ? end + ifs + peerAnswer : end) <= radioFreeUntil
        }
        func fits(_ payload: Int) -> Bool {
            guard leavesRadioInTime(payload) else { return false }
            let end = start + Self.airtime(payload: payload, phy: txPHY)
            if role == .central { return eventStart || end + ifs + emptyAnswer + ifs <= limit }
            return end + ifs <= limit
        }
        let packet: SentPDU
        if let pending = unacknowledged {
            let count = pending.airPayload.count
            guard role == .peripheral ? leavesRadioInTime(count) : fits(count) else { return false }
            packet = pending
        } else {
            let candidate = nextNewPayloadLength().map { $0 == 0 ? 0 : $0 + (encryption.transmitEncrypted ? 4 : 0) } ?? 0
            if fits(candidate) {
                packet = makeNewPDU(at: start)
            } else if (role == .peripheral && leavesRadioInTime(0)) || fits(0) {
                packet = SentPDU(llid: .continuationOrEmpty, airPayload: [], completesHostPackets: 0, control: nil)
            } else {
                return false
            }
            unacknowledged = packet
        }
        var moreData = nextNewPayloadLength() != nil
        if case .terminateIndication = packet.control { moreData = true }
        sendAir(packet, moreData: moreData, at: start, into: &outputs)
        let end = start + Self.airtime(payload: packet.airPayload.count, phy: txPHY)
        let closes = end + ifs + Self.receiveWindowMargin
        outputs.append(.radio(.listen(ReceiverWindow(channel: channel, phy: rxPHY, accessAddress: accessAddress, opens: end, closes: closes))))
        let latest = role == .central ? limit - 1 : limit - windowWidening - 1
        // Sharing the radio, the event ends as soon as the peer's longest packet has had its chance.
        let awaited = radioFreeUntil == nil ? longestReception : min(longestReception, longestPeerPacket + 1)
        phase = .awaitingPeer(missDeadline: max(min(closes + awaited, latest), closes))
        return true
    }

    /// Puts `packet` on the air with the current sequence bits.
    mutating func sendAir(_ packet: SentPDU, moreData: Bool, at start: Microseconds, into outputs: inout [ConnectionOutput]) {
        let pdu = LL.DataChannelPDU(
            llid: packet.llid, nextExpectedSequenceNumber: nextExpectedSequenceNumber,
            sequenceNumber: transmitSequenceNumber, moreData: moreData, payload: packet.airPayload[...])
        lastSentMoreData = moreData
        outputs.append(.radio(.transmit(RadioTransmission(
            channel: channel, phy: txPHY, accessAddress: accessAddress, pdu: pdu.encoded(),
            start: start, txPowerDBm: configuration.txPowerDBm))))
    }

    /// Ends the current connection event and prepares the next one: the central waits for
    /// its anchor, the peripheral opens its receiver around it, skipping up to
    /// connPeripheralLatency events when it has nothing to send (§4.5.1).
    mutating func closeEvent(at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        if case .closed = phase { return }
        radioFreeUntil = nil
        let appliedInstant = advanceOneEvent(into: &outputs)
        firstSkippableEvent = nil
        // An unacknowledged empty PDU holds nothing back: the next packet acknowledges it.
        let holdsData = unacknowledged.map { !$0.airPayload.isEmpty } ?? false
        if role == .peripheral, established, latency > 0, !appliedInstant, !holdsData, nextNewPayloadLength() == nil {
            firstSkippableEvent = (eventCounter, eventIndex, anchor)
            var skip = latency
            while skip > 0, !pendingInstants.contains(where: { $0.instant == eventCounter &+ 1 }) {
                _ = advanceOneEvent(into: &outputs)
                skip -= 1
            }
        }
        catchUp(to: now, into: &outputs)
        scheduleWaiting(into: &outputs)
    }

    /// Moves past events whose anchor (or a peripheral's window) has already gone.
    mutating func catchUp(to now: Microseconds, into outputs: inout [ConnectionOutput]) {
        var guardCount = 0
        while guardCount < 100_000 {
            let opens = role == .central ? anchor : anchor - windowWidening
            if opens >= now { break }
            _ = advanceOneEvent(into: &outputs)
            guardCount += 1
        }
    }

    /// Waits for the current event's anchor; a peripheral opens its receive window.
    mutating func scheduleWaiting(into outputs: inout [ConnectionOutput]) {
        if role == .central {
            outputs.append(.radio(.stopListening))
            phase = .waitingForAnchor(missDeadline: anchor)
            return
        }
        let widening = windowWidening
        let opens = anchor - widening
        let closes = anchor + transmitWindowExtra + widening
        outputs.append(.radio(.listen(ReceiverWindow(channel: channel, phy: rxPHY, accessAddress: accessAddress, opens: opens, closes: closes))))
        phase = .waitingForAnchor(missDeadline: closes + longestReception + 1)
    }

    /// Advances the event counter by one, applying any change whose instant it reaches.
    /// Returns whether one did.
    mutating func advanceOneEvent(into outputs: inout [ConnectionOutput]) -> Bool {
        eventCounter &+= 1
        eventIndex += 1
        anchor += interval
        transmitWindowExtra = 0
        var applied = false
        var remaining: [PendingInstant] = []
        for pending in pendingInstants {
            if pending.instant == eventCounter {
                apply(pending.change, into: &outputs)
                applied = true
            } else {
                remaining.append(pending)
            }
        }
        pendingInstants = remaining
        channel = channels.channel(eventIndex: eventIndex)
        return applied
    }

    /// A peripheral that skipped events for latency and now has something to send listens
    /// again at the first event it can still reach.
    mutating func wakeFromLatency(at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        guard role == .peripheral, case .waitingForAnchor = phase, let first = firstSkippableEvent,
              first.counter != eventCounter else { return }
        eventCounter = first.counter
        eventIndex = first.index
        anchor = first.anchor
        channel = channels.channel(eventIndex: eventIndex)
        firstSkippableEvent = nil
        catchUp(to: now, into: &outputs)
        scheduleWaiting(into: &outputs)
    }

    /// Handles a packet from the air: checks it, acknowledges, delivers, and answers.
    mutating func receive(_ reception: RadioReception, at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        let air = reception.transmission
        guard air.accessAddress == accessAddress, air.channel == channel, rxPHY.decodes(air.phy) else { return }
        let startsEvent: Bool
        switch phase {
        case .closed, .starting: return
        case .waitingForAnchor:
            guard role == .peripheral else { return }
            startsEvent = true
        case .awaitingPeer:
            startsEvent = false
        }
        // A PDU that does not decode is as if its CRC failed: ignored and not acknowledged.
        guard let pdu = try? LL.DataChannelPDU(decoding: air.pdu), pdu.cteInfo == nil else {
            refusals.countUndecodable(air.pdu)
            return
        }
        let isNew = pdu.sequenceNumber == nextExpectedSequenceNumber
        var payload = pdu.payload
        var control: LL.ControlPDU?
        if isNew, !payload.isEmpty {
            if encryption.receiveEncrypted {
                guard let plain = decrypt(pdu) else {
                    micFailure(acknowledging: pdu, at: now, into: &outputs)
                    return
                }
                payload = plain[...]
            }
            // connEffectiveMaxRxOctets (§4.5.10): what we take and what the peer said it
            // sends, 27 until a data length update raises both.
            guard payload.count <= Int(min(localMaxRxOctets, remoteMaxTxOctets)) else {
                refusals.payloadOverMaximum += 1
                return
            }
        }
        if isNew, pdu.llid == .control {
            guard let decoded = try? LL.ControlPDU(decoding: payload) else {
                refusals.malformedControl += 1
                return
            }
            control = decoded
        }
        lastValidReception = now
        established = true
        lastRSSI = reception.rssi
        if startsEvent {
            anchor = air.start
            lastSynchronisedAnchor = air.start
            transmitWindowExtra = 0
        }
        if pdu.nextExpectedSequenceNumber != transmitSequenceNumber, let acknowledged = unacknowledged {
            unacknowledged = nil
            transmitSequenceNumber.toggle()
            acknowledge(acknowledged, into: &outputs)
            if isClosed { return }
        }
        var terminateReason: HCI.StatusCode?
        if isNew {
            nextExpectedSequenceNumber.toggle()
            if encryption.receiveEncrypted, !pdu.payload.isEmpty { encryption.receiveCounter += 1 }
            if let control {
                if case let .terminateIndication(reason) = control { terminateReason = reason }
                handleControl(control, at: now, into: &outputs)
                if isClosed { return }
            } else if !payload.isEmpty {
                deliverToHost(payload, startsMessage: pdu.llid == .start, into: &outputs)
            }
        }
        let answerAt = now + Airtime.interFrameSpace
        if let terminateReason {
            // Acknowledge the LL_TERMINATE_IND, then leave (§5.1.6).
            transmit(at: answerAt, eventStart: true, into: &outputs)
            close(reason: terminateReason, into: &outputs)
            return
        }
        if role == .central {
            if lastSentMoreData || pdu.moreData, transmit(at: answerAt, eventStart: false, into: &outputs) { return }
            closeEvent(at: now, into: &outputs)
        } else {
            let peerMoreData = pdu.moreData
            let answered = transmit(at: answerAt, eventStart: false, into: &outputs)
            var continues = answered && (peerMoreData || lastSentMoreData)
            if continues, let radioFreeUntil {
                // Another link needs the radio: stop listening unless the central's longest
                // next packet would still end in time (the central then closes the event too).
                let answerEnd = answerAt + Self.airtime(payload: unacknowledged?.airPayload.count ?? 0, phy: txPHY)
                continues = answerEnd + Airtime.interFrameSpace + longestPeerPacket <= radioFreeUntil
            }
            if !continues { closeEvent(at: now, into: &outputs) }
        }
    }

    /// What the peer's acknowledgement of `packet` completes.
    mutating func acknowledge(_ packet: SentPDU, into outputs: inout [ConnectionOutput]) {
        if packet.completesHostPackets > 0 { outputs.append(.completedPackets(packet.completesHostPackets)) }
        if case let .terminateIndication(reason) = packet.control {
            // The host's HCI_Disconnect ends as terminated by the local host; a termination
            // the Link Layer chose itself reports the reason it sent (Vol 4, Part E, §7.7.5).
            close(reason: terminatedByLinkLayer ? reason : .connectionTerminatedByLocalHost, into: &outputs)
        }
    }
}
