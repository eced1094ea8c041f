import BLEController
import BLEWire

/// Host procedures for extended advertising and scanning, and what the tests read back.
extension TestAir {
    typealias ExtendedReport = HCI.LEExtendedAdvertisingReport.Report

    /// LE Set Extended Advertising Parameters for a non-connectable, non-scannable set; returns its status.
    @discardableResult
    mutating func createSet(
        _ index: Int, handle: UInt8, sid: UInt8 = 0, interval: UInt32 = 0x00A0, primaryPHY: HCI.PHY = .le1M,
        secondaryPHY: HCI.PHY = .le1M, ownAddressType: HCI.OwnAddressType = .public, properties: HCI.AdvertisingEventProperties = []
    ) -> UInt8? {
        command(index, HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: handle, advertisingEventProperties: properties, primaryAdvertisingIntervalMin: interval,
            primaryAdvertisingIntervalMax: interval, ownAddressType: ownAddressType, primaryAdvertisingPHY: primaryPHY,
            secondaryAdvertisingPHY: secondaryPHY, advertisingSID: sid)).first?.commandResult?.status
    }

    /// Sets a set's data in fragments of at most 251 octets; returns each command's status.
    @discardableResult
    mutating func setExtendedData(_ index: Int, handle: UInt8, _ data: [UInt8]) -> [UInt8?] {
        let size = HCI.maximumExtendedAdvertisingDataFragmentLength
        let starts = Array(stride(from: 0, to: max(data.count, 1), by: size))
        return starts.enumerated().map { number, start in
            let operation: HCI.AdvertisingDataOperation = starts.count == 1 ? .complete
                : number == 0 ? .firstFragment : number == starts.count - 1 ? .lastFragment : .intermediateFragment
            let fragment = data[start ..< min(start + size, data.count)]
            return command(index, HCI.LESetExtendedAdvertisingData(
                advertisingHandle: handle, operation: operation, advertisingData: fragment)).first?.commandResult?.status
        }
    }

    /// Enables sets with their duration (10 ms units) and event limits; returns the status.
    @discardableResult
    mutating func enableSets(_ index: Int, _ sets: [HCI.LESetExtendedAdvertisingEnable.AdvertisingSet]) -> UInt8? {
        command(index, HCI.LESetExtendedAdvertisingEnable(enable: true, sets: sets)).first?.commandResult?.status
    }

    /// Extended scanning with a 100 ms window and interval, on LE 1M unless `coded` (then on
    /// LE Coded, or on both in turn when `oneMegabit` too).
    mutating func startExtendedScanning(
        _ index: Int, active: Bool = false, filterDuplicates: Bool = false, duration: UInt16 = 0,
        oneMegabit: Bool = true, coded: Bool = false
    ) {
        command(index, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(
            [.extendedAdvertisingReport, .scanTimeout, .advertisingSetTerminated])))
        let parameters = HCI.LESetExtendedScanParameters.PHYParameters(
            scanType: active ? .active : .passive, scanInterval: 0x00A0, scanWindow: 0x00A0)
        command(index, HCI.LESetExtendedScanParameters(
            ownAddressType: .public, le1M: oneMegabit || !coded ? parameters : nil, leCoded: coded ? parameters : nil))
        command(index, HCI.LESetExtendedScanEnable(
            enable: true, filterDuplicates: filterDuplicates ? .enabled : .disabled, duration: duration))
    }

    /// The LE Extended Advertising Report entries device `index`'s host received.
    func extendedReports(_ index: Int) -> [ExtendedReport] {
        devices[index].events.flatMap { item -> [ExtendedReport] in
            if case let .leMeta(.extendedAdvertisingReport(event)) = item.event { return event.reports }
            return []
        }
    }

    /// The extended advertising PDUs (type 0b0111) device `index` sent, decoded.
    func extendedPDUs(from index: Int) -> [(transmission: RadioTransmission, payload: LL.ExtendedAdvertisingPayload)] {
        advertisingPDUs(from: index).compactMap { sent in
            guard case let .extended(_, bytes) = sent.pdu.payload,
                  let payload = try? LL.ExtendedAdvertisingPayload(
                      decoding: bytes, txKind: sent.pdu.reservedBits & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public,
                      rxKind: .public)
            else { return nil }
            return (sent.transmission, payload)
        }
    }

    /// The advertising events' data as the host would join it: one entry per complete or
    /// truncated report sequence, with its final status.
    func reassembled(_ index: Int) -> [(data: [UInt8], status: HCI.LEExtendedAdvertisingReport.EventType.DataStatus, sid: UInt8)] {
        var result: [(data: [UInt8], status: HCI.LEExtendedAdvertisingReport.EventType.DataStatus, sid: UInt8)] = []
        var pending: [UInt8] = []
        for report in extendedReports(index) where !report.eventType.isLegacy {
            pending += report.data
            guard let status = report.eventType.dataStatus, status != .incompleteMoreToCome else { continue }
            result.append((pending, status, report.advertisingSID))
            pending = []
        }
        return result
    }
}
