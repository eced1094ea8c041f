import BLEWire

// Initiating towards connectable extended advertising (Core 5.4, Vol 6, Part B, §4.4.2.8,
// §4.4.4 and §4.5): a connectable ADV_EXT_IND heard in the scan window is followed through
// its AuxPtr; the AUX_ADV_IND of the peer is answered T_IFS later with AUX_CONNECT_REQ on its
// channel and PHY, and the connection is made when the AUX_CONNECT_RSP comes back.

extension Initiator {
    /// What the initiator waits for on a secondary channel.
    struct AuxiliaryFollow: Sendable {
        /// Where the next packet (the AUX_ADV_IND, or the AUX_CONNECT_RSP) must start.
        var window: ReceiverWindow
        /// When to give up and go back to scanning.
        var giveUpAt: Microseconds
        /// The ADI of the ADV_EXT_IND followed, which its AUX_ADV_IND repeats.
        var dataInfo: LL.ExtendedAdvertisingPayload.AdvertisingDataInfo?
        /// After the AUX_CONNECT_REQ: the connection its AUX_CONNECT_RSP makes.
        var connection: NewConnection?
    }

    /// A PDU of type 0b0111 that ended at `now`: a connectable ADV_EXT_IND in the scan window
    /// is followed; the AUX_ADV_IND it points to, from the peer (or a device on the filter
    /// accept list) and, if directed, to us, is answered with AUX_CONNECT_REQ on the secondary
    /// PHY, with the connection parameters the host gave for that PHY (an AUX_ADV_IND on a PHY
    /// the host gave none for is not answered). The request is not sent if its exchange would
    /// not end by `radioFreeUntil`. Returns the AUX_CONNECT_REQ's `.transmit`, or nothing.
    mutating func receiveExtended(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds,
        filterAcceptList: [FilterAcceptListEntry], radioFreeUntil: Microseconds?,
        existingLinks: [LinkSchedule], random: inout ControllerRandom
    ) -> [LinkEffect] {
        guard let parametersByPHY, case let .extended(_, bytes) = pdu.payload,
              let payload = try? LL.ExtendedAdvertisingPayload(
                  decoding: bytes, txKind: pdu.reservedBits & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public,
                  rxKind: pdu.reservedBits & LL.AdvertisingPDU.rxAddBit != 0 ? .random : .public),
              payload.mode == .connectable
        else { return [] }
        let transmission = reception.transmission
        guard let pending = following else {
            // An ADV_EXT_IND on a primary channel, heard in the window, with an AuxPtr to follow.
            guard schedule.heard(transmission), transmission.channel >= 37, let pointer = payload.auxiliaryPointer,
                  pointer.channelIndex <= ExtendedScanner.highestSecondaryChannel
            else { return [] }
            let start = transmission.start + pointer.offsetMicroseconds
            let phy = RadioPHY(pointer.phy)
            following = AuxiliaryFollow(
                window: ReceiverWindow(
                    channel: pointer.channelIndex, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
                    opens: start, closes: start + pointer.offsetUnit.microseconds),
                giveUpAt: start + pointer.offsetUnit.microseconds
                    + Airtime.duration(pduOctets: ExtendedAdvertisingTiming.longestPDUOctets, phy: phy),
                dataInfo: payload.dataInfo)
            return []
        }
        // The AUX_ADV_IND the ADV_EXT_IND pointed to.
        let window = pending.window
        guard pending.connection == nil, transmission.channel == window.channel, transmission.start >= window.opens,
              transmission.start <= window.closes ?? transmission.start, payload.dataInfo == pending.dataInfo
        else { return [] }
        following = nil
        guard let advertiser = payload.advertiserAddress, isTarget(advertiser, filterAcceptList: filterAcceptList),
              payload.targetAddress.map({ $0 == ownAddress }) ?? true,
              let parameters = parametersByPHY[transmission.phy.hciPHY]
        else { return [] }
        let phy = transmission.phy
        let requestStart = now + LinkTiming.interFrameSpace
        let requestEnd = requestStart + Airtime.duration(pduOctets: AuxiliaryConnectTiming.connectRequestOctets, phy: phy)
        let delay = AuxiliaryConnectTiming.transmitWindowDelay(on: phy)
        let request = connectionRequest(parameters, firstWindow: requestEnd + delay, existingLinks: existingLinks, random: &random)
        let connectRequest = LL.AdvertisingPDU(payload: .connectInd(
            initiatorAddress: ownAddress, advertiserAddress: advertiser, linkLayerData: request))
        let sent = RadioTransmission(
            channel: transmission.channel, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: connectRequest.encoded(), start: requestStart, txPowerDBm: txPowerDBm)
        let responseWindow = LinkTiming.responseWindow(after: sent.end, channel: sent.channel, phy: phy)
        let responseEnd = (responseWindow.closes ?? sent.end)
            + Airtime.duration(pduOctets: AuxiliaryConnectTiming.connectResponseOctets, phy: phy)
        if let free = radioFreeUntil, responseEnd > free { return [] }
        following = AuxiliaryFollow(
            window: responseWindow, giveUpAt: responseEnd + 1, dataInfo: nil,
            connection: NewConnection(
                role: .central, request: request, connectIndicationEnd: sent.end, localAddress: ownAddress,
                peerAddress: advertiser, phy: phy, channelSelectionAlgorithm2: true, transmitWindowDelay: delay))
        return [.transmit(sent)]
    }

    /// An AUX_CONNECT_RSP that ended: from the advertiser we sent AUX_CONNECT_REQ to, to us,
    /// T_IFS after it. Returns the connection (`.connected`), or nothing.
    mutating func receiveConnectResponse(_ pdu: LL.AdvertisingPDU, _ reception: RadioReception) -> [LinkEffect] {
        let transmission = reception.transmission
        guard let pending = following, let connection = pending.connection, case let .extended(_, bytes) = pdu.payload,
              transmission.channel == pending.window.channel, transmission.start >= pending.window.opens,
              transmission.start <= pending.window.closes ?? transmission.start,
              let payload = try? LL.ExtendedAdvertisingPayload(
                  decoding: bytes, txKind: pdu.reservedBits & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public,
                  rxKind: pdu.reservedBits & LL.AdvertisingPDU.rxAddBit != 0 ? .random : .public),
              payload.advertiserAddress == connection.peerAddress, payload.targetAddress == ownAddress
        else { return [] }
        following = nil
        return [.connected(connection)]
    }
}
