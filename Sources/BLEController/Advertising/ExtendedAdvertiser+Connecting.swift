import BLEWire

// A connectable extended advertising set answering AUX_CONNECT_REQ (Core 5.4, Vol 6, Part B,
// §4.4.2.8 and §4.5).

extension ExtendedAdvertiser {
    /// How long a connectable set keeps the radio after its AUX_ADV_IND: T_IFS, an
    /// AUX_CONNECT_REQ, T_IFS and the AUX_CONNECT_RSP, on the secondary PHY.
    var connectExchangeDuration: Microseconds { AuxiliaryConnectTiming.exchangeDuration(on: secondaryPHY) }

    /// An AUX_CONNECT_REQ (a PDU of CONNECT_IND's type on a secondary channel) that ended at
    /// `now`. If it started T_IFS after this set's AUX_ADV_IND, names this set's address and
    /// comes from an initiator the set accepts (TargetA of a directed set, the filter accept
    /// list when the policy says so), the set answers T_IFS later with AUX_CONNECT_RSP and the
    /// connection starts on the secondary PHY with Channel Selection Algorithm #2 (§4.5.8.3).
    /// LLData out of range is refused as CONNECT_IND's is (counted; advertising goes on).
    mutating func receiveConnectRequest(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds, filterAcceptList: [FilterAcceptListEntry]
    ) -> [LinkEffect] {
        let transmission = reception.transmission
        guard isConnectable, let window = connectRequestWindow, transmission.channel == window.channel,
              transmission.start >= window.opens, transmission.start <= window.closes ?? transmission.start,
              secondaryPHY.decodes(transmission.phy),
              case let .connectInd(initiator, advertiser, data) = pdu.payload, advertiser == ownAddress
        else { return [] }
        if let targetAddress {
            guard initiator == targetAddress else { return [] }
        } else {
            let filtered = filterPolicy == .connectFromFilterAcceptList || filterPolicy == .scanAndConnectFromFilterAcceptList
            guard !filtered || filterAcceptList.contains(device: initiator) else { return [] }
        }
        guard data.invalidity == nil else {
            refusedConnectRequests += 1
            return []
        }
        connectRequestWindow = nil
        let response = RadioTransmission(
            channel: transmission.channel, phy: secondaryPHY, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: AuxiliaryConnectTiming.connectResponse(advertiser: ownAddress, initiator: initiator).encoded(),
            start: now + LinkTiming.interFrameSpace, txPowerDBm: txPowerDBm)
        let connection = NewConnection(
            role: .peripheral, request: data, connectIndicationEnd: transmission.end, localAddress: ownAddress,
            peerAddress: initiator, phy: secondaryPHY, channelSelectionAlgorithm2: true,
            transmitWindowDelay: AuxiliaryConnectTiming.transmitWindowDelay(on: secondaryPHY), advertisingHandle: handle)
        return [.transmit(response), .connected(connection)]
    }
}
