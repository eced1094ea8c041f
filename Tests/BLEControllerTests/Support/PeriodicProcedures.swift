import BLEController
import BLEWire

/// Host procedures for periodic advertising, and what the tests read back.
extension TestAir {
    /// LE Set Periodic Advertising Parameters with one interval (1.25 ms units); returns the status.
    @discardableResult
    mutating func setPeriodicParameters(_ index: Int, handle: UInt8, interval: UInt16, properties: UInt16 = 0) -> UInt8? {
        command(index, HCI.LESetPeriodicAdvertisingParameters(
            advertisingHandle: handle, periodicAdvertisingIntervalMin: interval, periodicAdvertisingIntervalMax: interval,
            periodicAdvertisingProperties: properties)).first?.commandResult?.status
    }

    /// Sets a set's periodic data in fragments of at most 252 octets; returns each command's status.
    @discardableResult
    mutating func setPeriodicData(_ index: Int, handle: UInt8, _ data: [UInt8]) -> [UInt8?] {
        let size = HCI.maximumPeriodicAdvertisingDataFragmentLength
        let starts = Array(stride(from: 0, to: max(data.count, 1), by: size))
        return starts.enumerated().map { number, start in
            let operation: HCI.AdvertisingDataOperation = starts.count == 1 ? .complete
                : number == 0 ? .firstFragment : number == starts.count - 1 ? .lastFragment : .intermediateFragment
            return command(index, HCI.LESetPeriodicAdvertisingData(
                advertisingHandle: handle, operation: operation, advertisingData: data[start ..< min(start + size, data.count)]))
                .first?.commandResult?.status
        }
    }

    /// LE Set Periodic Advertising Enable; returns the status.
    @discardableResult
    mutating func enablePeriodic(_ index: Int, handle: UInt8, _ enable: Bool = true, includeADI: Bool = false) -> UInt8? {
        command(index, HCI.LESetPeriodicAdvertisingEnable(enable: enable, includeADI: includeADI, advertisingHandle: handle))
            .first?.commandResult?.status
    }

    /// The PDUs device `index` sent on a periodic train (an access address other than the
    /// advertising channels'), decoded.
    func periodicPDUs(from index: Int) -> [(transmission: RadioTransmission, payload: LL.ExtendedAdvertisingPayload)] {
        log.filter { $0.device == index && $0.transmission.accessAddress != RadioTransmission.advertisingAccessAddress }
            .compactMap { sent in
                guard let pdu = try? LL.AdvertisingPDU(decoding: sent.transmission.pdu),
                      case let .extended(_, bytes) = pdu.payload,
                      let payload = try? LL.ExtendedAdvertisingPayload(decoding: bytes, txKind: .public, rxKind: .public)
                else { return nil }
                return (sent.transmission, payload)
            }
    }
}

extension TestAir {
    /// Extended scanning with the periodic events unmasked, then LE Periodic Advertising
    /// Create Sync for set `sid` of device `advertiser`; returns Create Sync's status.
    @discardableResult
    mutating func startSync(
        _ index: Int, to advertiser: Int, sid: UInt8, skip: UInt16 = 0, syncTimeout: UInt16 = 100,
        options: HCI.LEPeriodicAdvertisingCreateSync.Options = []
    ) -> UInt8? {
        startExtendedScanning(index)
        command(index, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(
            [.extendedAdvertisingReport, .periodicAdvertisingSyncEstablished, .periodicAdvertisingReport, .periodicAdvertisingSyncLost])))
        return command(index, HCI.LEPeriodicAdvertisingCreateSync(
            options: options, advertisingSID: sid, advertiserAddressType: .public, advertiserAddress: address(advertiser),
            skip: skip, syncTimeout: syncTimeout)).first?.commandResult?.status
    }

    /// The Sync Established events device `index`'s host received.
    func syncEstablished(_ index: Int) -> [HCI.LEPeriodicAdvertisingSyncEstablished] {
        devices[index].events.compactMap {
            if case let .leMeta(.periodicAdvertisingSyncEstablished(event)) = $0.event { return event }
            return nil
        }
    }

    /// The Periodic Advertising Reports device `index`'s host received, with their times.
    func periodicReports(_ index: Int) -> [(at: Microseconds, report: HCI.LEPeriodicAdvertisingReport)] {
        devices[index].events.compactMap {
            if case let .leMeta(.periodicAdvertisingReport(event)) = $0.event { return ($0.at, event) }
            return nil
        }
    }

    /// The times device `index`'s host was told of a lost sync.
    func syncLost(_ index: Int) -> [Microseconds] {
        devices[index].events.compactMap {
            if case .leMeta(.periodicAdvertisingSyncLost) = $0.event { return $0.at }
            return nil
        }
    }
}
