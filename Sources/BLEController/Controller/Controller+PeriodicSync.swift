import BLEWire

// Synchronising to periodic trains (Core 5.4, Vol 4, Part E, §7.8.67–§7.8.69; Vol 6, Part B,
// §4.4.3.5): Create Sync, its cancel, Terminate Sync, finding the train through SyncInfo
// while extended scanning, and the events that follow it.

extension Controller {
    /// The most syncs this controller follows at once.
    static let maximumPeriodicSyncs = 4
    /// The largest Skip (§7.8.67).
    static let largestSyncSkip: UInt16 = 0x01F3
    /// Sync_Timeout's range, in units of 10 ms (§7.8.67).
    static let syncTimeoutRange: ClosedRange<UInt16> = 0x000A ... 0x4000

    /// The sync commands: Terminate Sync's and a refused Cancel's Command Complete return
    /// parameters; `nil` otherwise (Create Sync answers with Command Status on its own, and a
    /// Cancel that cancels sends its Command Complete before its event).
    mutating func handlePeriodicSyncCommand(_ command: any HCICommand, into outputs: inout [ControllerOutput]) -> [UInt8]? {
        switch command {
        case let command as HCI.LEPeriodicAdvertisingCreateSync:
            respond(HCI.LEPeriodicAdvertisingCreateSync.opcode, status: createSyncStatus(command), into: &outputs)
            return nil
        case is HCI.LEPeriodicAdvertisingCreateSyncCancel:
            guard let request = pendingPeriodicSync else { return [HCI.StatusCode.commandDisallowed.rawValue] }
            pendingPeriodicSync = nil
            respond(HCI.LEPeriodicAdvertisingCreateSyncCancel.opcode, complete: [HCI.StatusCode.success.rawValue], into: &outputs)
            emit(.leMeta(.periodicAdvertisingSyncEstablished(HCI.LEPeriodicAdvertisingSyncEstablished(
                status: .operationCancelledByHost, syncHandle: 0, advertisingSID: request.advertisingSID,
                advertiserAddressType: request.advertiserAddressType, advertiserAddress: request.advertiserAddress,
                advertiserPHY: .le1M, periodicAdvertisingInterval: 0, advertiserClockAccuracy: .ppm500))), into: &outputs)
            return nil
        case let command as HCI.LEPeriodicAdvertisingTerminateSync:
            guard let index = periodicSyncs.firstIndex(where: { $0.handle == command.syncHandle }) else {
                return [HCI.StatusCode.unknownAdvertisingIdentifier.rawValue]
            }
            periodicSyncs.remove(at: index)
            return [HCI.StatusCode.success.rawValue]
        default:
            return nil
        }
    }

    /// LE Periodic Advertising Create Sync (§7.8.67): one request pending at a time, for one
    /// advertiser named directly (this controller keeps no Periodic Advertiser List).
    private mutating func createSyncStatus(_ command: HCI.LEPeriodicAdvertisingCreateSync) -> HCI.StatusCode {
        if pendingPeriodicSync != nil { return .commandDisallowed }
        if command.options.contains(.usePeriodicAdvertiserList) { return .unsupportedFeatureOrParameterValue }
        guard command.advertisingSID <= 0x0F, command.skip <= Controller.largestSyncSkip,
              Controller.syncTimeoutRange.contains(command.syncTimeout)
        else { return .invalidHCICommandParameters }
        if periodicSyncs.contains(where: { $0.setID == command.advertisingSID && $0.advertiser == command.advertiserAddress }) {
            return .connectionAlreadyExists
        }
        if periodicSyncs.count >= Controller.maximumPeriodicSyncs { return .memoryCapacityExceeded }
        pendingPeriodicSync = command
        return .success
    }

    /// An AUX_ADV_IND heard while a Create Sync is pending: when it is the requested set's
    /// and carries SyncInfo, the sync starts listening for the train.
    mutating func discoverPeriodicTrain(_ pdu: LL.AdvertisingPDU, _ reception: RadioReception) {
        guard let request = pendingPeriodicSync, reception.transmission.channel <= ExtendedScanner.highestSecondaryChannel,
              case let .extended(_, bytes) = pdu.payload,
              let payload = try? LL.ExtendedAdvertisingPayload(
                  decoding: bytes, txKind: pdu.reservedBits & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public, rxKind: .public),
              payload.advertiserAddress == request.advertiserAddress, payload.dataInfo?.setID == request.advertisingSID,
              let raw = payload.syncInfo, let info = try? LL.SyncInfo(decoding: raw)
        else { return }
        let handle = (0 ... HCI.maximumConnectionHandle).first { candidate in !periodicSyncs.contains { $0.handle == candidate } } ?? 0
        pendingPeriodicSync = nil
        periodicSyncs.append(PeriodicSync(
            handle: handle, request: request, advertiser: request.advertiserAddress, info: info,
            packetStart: reception.transmission.start, phy: reception.transmission.phy, now: now))
    }

    /// A packet with a sync's access address; `false` when no sync has that address.
    mutating func receivePeriodic(_ reception: RadioReception, into outputs: inout [ControllerOutput]) -> Bool {
        let transmission = reception.transmission
        guard let index = periodicSyncs.firstIndex(where: { $0.accessAddress == transmission.accessAddress }) else { return false }
        guard let pdu = try? LL.AdvertisingPDU(decoding: transmission.pdu), case let .extended(_, bytes) = pdu.payload,
              let payload = try? LL.ExtendedAdvertisingPayload(decoding: bytes, txKind: .public, rxKind: .public)
        else {
            counters.malformedAirPDUs += 1
            return true
        }
        let outcomes = periodicSyncs[index].receive(payload, transmission, at: now)
        tell(outcomes, sync: periodicSyncs[index], txPower: payload.txPower, rssi: reception.rssi, into: &outputs)
        return true
    }

    /// The syncs' timers: packets that did not come.
    mutating func periodicSyncTimer(into outputs: inout [ControllerOutput]) {
        var index = 0
        while index < periodicSyncs.count {
            guard periodicSyncs[index].nextDeadline(after: now) <= now else {
                index += 1
                continue
            }
            let outcomes = periodicSyncs[index].timer(at: now)
            let sync = periodicSyncs[index]
            if outcomes.contains(.lost) || outcomes.contains(.failedToEstablish) {
                periodicSyncs.remove(at: index)
            } else {
                index += 1
            }
            tell(outcomes, sync: sync, txPower: nil, rssi: 127, into: &outputs)
        }
    }

    /// The earliest deadline of the syncs.
    var periodicSyncDeadline: Microseconds? {
        periodicSyncs.map { $0.nextDeadline(after: now) }.min()
    }

    /// The window of a sync whose packet is due now, which takes the receiver from scanning.
    var periodicSyncWindow: ReceiverWindow? {
        for sync in periodicSyncs {
            if case let .busy(window) = sync.claim(at: now) { return window }
        }
        return nil
    }

    /// The HCI events for a sync's outcomes.
    private mutating func tell(
        _ outcomes: [PeriodicSync.Outcome], sync: PeriodicSync, txPower: Int8?, rssi: Int8, into outputs: inout [ControllerOutput]
    ) {
        for outcome in outcomes {
            switch outcome {
            case .established, .failedToEstablish:
                emit(.leMeta(.periodicAdvertisingSyncEstablished(HCI.LEPeriodicAdvertisingSyncEstablished(
                    status: outcome == .established ? .success : .connectionFailedToBeEstablished, syncHandle: sync.handle,
                    advertisingSID: sync.setID, advertiserAddressType: sync.advertiser.kind == .public ? .public : .random,
                    advertiserAddress: sync.advertiser, advertiserPHY: sync.phy.hciPHY,
                    periodicAdvertisingInterval: sync.intervalUnits, advertiserClockAccuracy: sync.clockAccuracy))), into: &outputs)
            case let .report(data, status):
                guard !sync.reportingDisabled else { continue }
                emit(.leMeta(.periodicAdvertisingReport(HCI.LEPeriodicAdvertisingReport(
                    syncHandle: sync.handle, txPower: txPower ?? 127, rssi: rssi, dataStatus: status, data: data))), into: &outputs)
            case .lost:
                emit(.leMeta(.periodicAdvertisingSyncLost(HCI.LEPeriodicAdvertisingSyncLost(syncHandle: sync.handle))), into: &outputs)
            }
        }
    }
}
