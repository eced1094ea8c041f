import BLEWire

// Scannable extended advertising sets (Core 5.4, Vol 4, Part E, §7.8.53–§7.8.56; Vol 6,
// Part B, §4.4.2.7): their scan response data and the AUX_SCAN_REQs they answer.

extension Controller {
    /// Whether `set` is a scannable extended set.
    static func isScannableExtended(_ set: AdvertisingSet) -> Bool {
        !set.usesLegacyPDUs && set.parameters.advertisingEventProperties.contains(.scannable)
    }

    /// LE Set Extended Scan Response Data (§7.8.55) for a scannable extended set: fragments
    /// (operations 0x00–0x03) joined up to 1,650 octets, as advertising data is; fragments
    /// while the set is enabled are Command Disallowed, more than 1,650 octets Memory Capacity
    /// Exceeded (the data is discarded).
    mutating func setScannableSetScanResponse(_ command: HCI.LESetExtendedScanResponseData, at index: Int) -> HCI.StatusCode {
        var set = advertisingSets[index]
        let fragment = Array(command.scanResponseData)
        switch command.operation {
        case .unchangedData:
            return .invalidHCICommandParameters
        case .firstFragment, .intermediateFragment, .lastFragment:
            if set.isEnabled { return .commandDisallowed }
            if command.operation != .firstFragment, !set.scanResponseIsPartial { return .invalidHCICommandParameters }
        case .complete:
            // While enabled, new data must be whole and not empty (the set must stay scannable).
            if set.isEnabled, fragment.isEmpty { return .commandDisallowed }
        }
        let starts = command.operation == .firstFragment || command.operation == .complete
        let combined = (starts ? [] : set.scanResponseData) + fragment
        guard combined.count <= Controller.maximumAdvertisingDataLength else {
            set.scanResponseData = []
            set.scanResponseIsPartial = false
            advertisingSets[index] = set
            return .memoryCapacityExceeded
        }
        set.scanResponseData = combined
        set.scanResponseIsPartial = command.operation == .firstFragment || command.operation == .intermediateFragment
        // New scan response data is a new DID (Vol 6, Part B, §4.4.2.11).
        if !set.scanResponseIsPartial { set.dataID = (set.dataID &+ 1) & 0x0FFF }
        advertisingSets[index] = set
        return .success
    }

    /// An AUX_SCAN_REQ from the air (a SCAN_REQ-type PDU on a secondary channel): the
    /// scannable set whose AUX_ADV_IND it answers sends its scan response.
    mutating func receiveAuxiliaryScanRequest(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, filterAcceptList: [FilterAcceptListEntry],
        into outputs: inout [ControllerOutput]
    ) {
        for index in advertisingSets.indices {
            guard var active = advertisingSets[index].advertiser, active.isScannable else { continue }
            let set = advertisingSets[index]
            let effects = active.receiveScanRequest(
                pdu, reception, at: now, filterAcceptList: filterAcceptList, scanResponse: set.scanResponseData,
                dataID: set.dataID, random: &random)
            advertisingSets[index].advertiser = active
            if !effects.isEmpty {
                apply(effects, into: &outputs)
                return
            }
        }
    }
}
