import BLEWire

// An active extended scan asking a scannable extended set for its scan response (Core 5.4,
// Vol 6, Part B, §4.4.3.2): AUX_SCAN_REQ T_IFS after the AUX_ADV_IND, on its channel and PHY;
// the AUX_SCAN_RSP and its AUX_CHAIN_INDs are followed as an advertisement's chain and
// reported with the scan response bit (Vol 4, Part E, §7.7.65.13).

extension ExtendedScanner {
    /// Sends AUX_SCAN_REQ T_IFS after the scannable AUX_ADV_IND that `reception` carried and
    /// waits for the AUX_SCAN_RSP, unless the request would not end by `radioFreeUntil` or,
    /// with duplicate filtering, this set's scan response was already reported whole.
    mutating func requestScanResponse(
        _ advertisement: Chain, reception: RadioReception, at now: Microseconds, radioFreeUntil: Microseconds?
    ) -> [LinkEffect] {
        let transmission = reception.transmission
        guard let address = advertisement.advertiser else { return [] }
        if legacy.filterDuplicates, let adi = advertisement.dataInfo,
           reportedScanResponse(DuplicateKey(address: address, setID: adi.setID, dataID: adi.dataID, scanResponse: true)) {
            return []
        }
        let request = RadioTransmission(
            channel: transmission.channel, phy: transmission.phy, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: LL.AdvertisingPDU(payload: .scanReq(scannerAddress: legacy.ownAddress, advertiserAddress: address)).encoded(),
            start: now + LinkTiming.interFrameSpace, txPowerDBm: legacy.txPowerDBm)
        if let radioFreeUntil, request.end > radioFreeUntil { return [] }
        var response = advertisement
        response.scanResponse = true
        response.reportedAny = false
        response.receivedOctets = 0
        response.window = LinkTiming.responseWindow(after: request.end, channel: transmission.channel, phy: transmission.phy)
        response.giveUpAt = (response.window.closes ?? request.end)
            + Airtime.duration(pduOctets: ExtendedAdvertisingTiming.longestPDUOctets, phy: transmission.phy)
        startFollowing(response)
        return [.transmit(request)]
    }
}
