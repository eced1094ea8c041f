import BLEWire

// A scannable extended advertising set answering AUX_SCAN_REQ (Core 5.4, Vol 6, Part B,
// §2.3.2.1, §2.3.2.3 and §4.4.2.7): AUX_SCAN_RSP T_IFS after the request, on its channel and
// PHY, and AUX_CHAIN_INDs for scan response data that does not fit, each T_MAFS after the one
// before, as an event's chain.

extension ExtendedAdvertiser {
    /// The octets of an AUX_SCAN_REQ: a 2-octet header, ScanA and AdvA (§2.3.2.1).
    static let scanRequestOctets = 2 + 6 + 6

    /// How long a scannable set keeps the radio after its AUX_ADV_IND: T_IFS, an AUX_SCAN_REQ,
    /// T_IFS and the whole scan response chain, on the secondary PHY.
    func scanExchangeDuration(scanResponse: [UInt8], dataID: UInt16) -> Microseconds {
        let requestEnd = 2 * Airtime.interFrameSpace + Airtime.duration(pduOctets: Self.scanRequestOctets, phy: secondaryPHY)
        let lengths = ExtendedAdvertisingTiming.fragmentLengths(dataLength: scanResponse.count, includesTxPower: false)
        let packets = scanResponsePackets(
            start: requestEnd, data: scanResponse, dataID: dataID, channels: lengths.map { _ in 0 })
        return packets.last?.end ?? requestEnd
    }

    /// The AUX_SCAN_RSP (AdvA, ADI, the first fragment) and AUX_CHAIN_INDs of `data`, from
    /// `start`, on `channels` (one per packet), each pointing exactly to the next.
    func scanResponsePackets(start: Microseconds, data: [UInt8], dataID: UInt16, channels: [UInt8]) -> [RadioTransmission] {
        typealias Payload = LL.ExtendedAdvertisingPayload
        let adi = Payload.AdvertisingDataInfo(dataID: dataID, setID: setID)
        let lengths = ExtendedAdvertisingTiming.fragmentLengths(dataLength: data.count, includesTxPower: false)
        var payloads: [Payload] = []
        var offset = 0
        for (index, length) in lengths.enumerated() {
            let placeholder = index == lengths.count - 1 ? nil : ExtendedAdvertisingTiming.pointer(channel: 0, offset: 0, phy: secondaryPHY)
            payloads.append(Payload(
                advertiserAddress: index == 0 ? ownAddress : nil, dataInfo: adi, auxiliaryPointer: placeholder,
                data: data[offset ..< offset + length]))
            offset += length
        }
        var starts = [start]
        for payload in payloads.dropLast() {
            let airtime = Airtime.duration(pduOctets: 2 + payload.encodedCount, phy: secondaryPHY)
            starts.append(starts[starts.count - 1] + ExtendedAdvertisingTiming.minimumAuxiliaryOffset(after: airtime))
        }
        return payloads.indices.map { index in
            var payload = payloads[index]
            if payload.auxiliaryPointer != nil {
                payload.auxiliaryPointer = ExtendedAdvertisingTiming.pointer(
                    channel: channels[index + 1], offset: starts[index + 1] - starts[index], phy: secondaryPHY)
            }
            return RadioTransmission(
                channel: channels[index], phy: secondaryPHY, accessAddress: RadioTransmission.advertisingAccessAddress,
                pdu: payload.pdu.encoded(), start: starts[index], txPowerDBm: txPowerDBm)
        }
    }

    /// An AUX_SCAN_REQ (a PDU of SCAN_REQ's type on a secondary channel) that ended at `now`:
    /// if it started T_IFS after this scannable set's AUX_ADV_IND, names this set's address and
    /// comes from a scanner the filter policy accepts, the scan response follows T_IFS later on
    /// that channel, its AUX_CHAIN_INDs on channels drawn from `random`.
    mutating func receiveScanRequest(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds, filterAcceptList: [FilterAcceptListEntry],
        scanResponse: [UInt8], dataID: UInt16, random: inout ControllerRandom
    ) -> [LinkEffect] {
        let transmission = reception.transmission
        guard isScannable, let window = connectRequestWindow, transmission.channel == window.channel,
              transmission.start >= window.opens, transmission.start <= window.closes ?? transmission.start,
              secondaryPHY.decodes(transmission.phy),
              case let .scanReq(scanner, advertiser) = pdu.payload, advertiser == ownAddress
        else { return [] }
        let filtered = filterPolicy == .scanFromFilterAcceptList || filterPolicy == .scanAndConnectFromFilterAcceptList
        guard !filtered || filterAcceptList.contains(device: scanner) else { return [] }
        connectRequestWindow = nil
        let count = ExtendedAdvertisingTiming.fragmentLengths(dataLength: scanResponse.count, includesTxPower: false).count
        let channels = [transmission.channel] + (1 ..< max(count, 1)).map { _ in UInt8.random(in: 0 ... 36, using: &random) }
        return scanResponsePackets(start: now + LinkTiming.interFrameSpace, data: scanResponse, dataID: dataID, channels: channels)
            .map(LinkEffect.transmit)
    }
}
