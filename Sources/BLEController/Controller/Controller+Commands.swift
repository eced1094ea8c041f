import BLECrypto
import BLEWire

extension Controller {
    /// LE Set Advertising Parameters after reset (Core 5.4, Vol 4, Part E, §7.8.5): 1.28 s,
    /// ADV_IND, public address, all three channels, no filter.
    static let defaultAdvertisingParameters = HCI.LESetAdvertisingParameters(
        advertisingIntervalMin: 0x0800, advertisingIntervalMax: 0x0800, advertisingType: .connectableUndirected,
        ownAddressType: .public)
    /// LE Set Scan Parameters after reset (§7.8.10): passive, 10 ms interval and window.
    static let defaultScanParameters = HCI.LESetScanParameters(
        leScanType: .passive, leScanInterval: 0x0010, leScanWindow: 0x0010, ownAddressType: .public)

    /// Answers one command packet (Core 5.4, Vol 4, Part E, §4.4): always with Command
    /// Complete or Command Status (except Host Number Of Completed Packets, which the
    /// specification answers only on error), Num_HCI_Command_Packets = 1.
    mutating func handleCommand(_ packet: HCI.CommandPacket, into outputs: inout [ControllerOutput]) {
        let opcode = packet.opcode
        guard let type = HCI.commandType(for: opcode), supports(opcode) else {
            respond(opcode, complete: [HCI.StatusCode.unknownHCICommand.rawValue], into: &outputs)
            return
        }
        // Legacy and extended advertising, scanning and initiating commands do not mix (§3.1.1).
        guard admitCommandFamily(of: opcode) else {
            reject(opcode, completion: type.completion, .commandDisallowed, into: &outputs)
            return
        }
        let command: any HCICommand
        do {
            command = try HCI.decodeCommand(packet)
        } catch {
            reject(opcode, completion: type.completion, .invalidHCICommandParameters, into: &outputs)
            return
        }
        if let handle = Controller.connectionHandle(of: command) {
            routeConnectionCommand(command, handle: handle, into: &outputs)
            return
        }
        if let returnParameters = handleExtendedAdvertisingCommand(command, into: &outputs) {
            respond(opcode, complete: returnParameters, into: &outputs)
            return
        }
        if let status = handleAdvertisingCommand(command, into: &outputs) {
            respond(opcode, complete: [status.rawValue], into: &outputs)
            return
        }
        if let returnParameters = handleControllerCommand(command) {
            respond(opcode, complete: returnParameters, into: &outputs)
            // A new host channel classification reaches every link this device is central of
            // through the channel map update procedure (Core 5.4, Vol 6, Part B, §5.1.2).
            if command is HCI.LESetHostChannelClassification, returnParameters == [HCI.StatusCode.success.rawValue] {
                let map = hostChannelClassification
                for index in connections.indices where connections[index].link.role == .central {
                    feed(connectionAt: index, .command(.updateChannelMap(map)), into: &outputs)
                }
            }
            return
        }
        // Commands that answer on their own (Reset, Create Connection, Host Number Of
        // Completed Packets) have done so above; nothing else reaches here.
    }

    /// Command Complete with `returnParameters`.
    func respond(_ opcode: HCI.Opcode, complete returnParameters: [UInt8], into outputs: inout [ControllerOutput]) {
        let event = HCI.CommandComplete(numHCICommandPackets: 1, opcode: opcode, returnParameters: returnParameters[...])
        outputs.append(.hci(.event(HCI.Event.commandComplete(event).packet)))
    }

    /// Command Status with `status`.
    func respond(_ opcode: HCI.Opcode, status: HCI.StatusCode, into outputs: inout [ControllerOutput]) {
        let event = HCI.CommandStatus(status: status, numHCICommandPackets: 1, opcode: opcode)
        outputs.append(.hci(.event(HCI.Event.commandStatus(event).packet)))
    }

    /// Rejects a command with `status` in the form its completion calls for.
    func reject(
        _ opcode: HCI.Opcode, completion: HCI.CommandCompletion, _ status: HCI.StatusCode,
        into outputs: inout [ControllerOutput]
    ) {
        switch completion {
        case .commandStatus: respond(opcode, status: status, into: &outputs)
        case .commandComplete: respond(opcode, complete: [status.rawValue], into: &outputs)
        }
    }

    /// Sends `event` to the host unless the event masks exclude it.
    mutating func emit(_ event: HCI.Event, into outputs: inout [ControllerOutput]) {
        guard isUnmasked(event) else { return }
        if configuration.reportsAdvertisingAsValues, case let .leMeta(.advertisingReport(report)) = event {
            outputs.append(.advertisingReport(report))
            return
        }
        outputs.append(.hci(.event(event.packet)))
    }

    /// Whether the host wants `event` (Set Event Mask §7.3.1, Page 2 §7.3.69, LE Set Event
    /// Mask §7.8.1). Command Complete, Command Status and Number Of Completed Packets cannot
    /// be masked.
    func isUnmasked(_ event: HCI.Event) -> Bool {
        switch event {
        case .commandComplete, .commandStatus, .numberOfCompletedPackets: return true
        case .disconnectionComplete: return eventMask.contains(.disconnectionComplete)
        case .encryptionChange: return eventMask.contains(.encryptionChange)
        case .readRemoteVersionInformationComplete: return eventMask.contains(.readRemoteVersionInformationComplete)
        case .hardwareError: return eventMask.contains(.hardwareError)
        case .dataBufferOverflow: return eventMask.contains(.dataBufferOverflow)
        case .encryptionKeyRefreshComplete: return eventMask.contains(.encryptionKeyRefreshComplete)
        case .authenticatedPayloadTimeoutExpired: return eventMaskPage2 & (1 << 23) != 0
        case .encryptionChangeV2: return eventMaskPage2 & (1 << 25) != 0
        case let .leMeta(meta):
            let bit = UInt64(meta.subeventCode.rawValue) &- 1
            return eventMask.contains(.leMeta) && bit < 64 && leEventMask.rawValue & (1 << bit) != 0
        case let .unknownLEMeta(subevent, _):
            let bit = UInt64(subevent.rawValue) &- 1
            return eventMask.contains(.leMeta) && bit < 64 && leEventMask.rawValue & (1 << bit) != 0
        case let .unknown(packet):
            let bit = UInt64(packet.eventCode.rawValue) &- 1
            return bit < 64 && eventMask.rawValue & (1 << bit) != 0
        }
    }

    /// The address a role uses for `ownAddressType`, or `nil` when it needs a random address
    /// the host has not set. Types 0x02 and 0x03 give the public and random address here;
    /// with address resolution on, `ownAddress(for:peer:)` (Controller+Privacy.swift) first
    /// looks for a resolvable private address in the resolving list.
    func ownAddress(for type: HCI.OwnAddressType) -> BluetoothAddress? {
        switch type {
        case .public, .resolvableOrPublic: return configuration.publicAddress
        case .random, .resolvableOrRandom: return randomAddress
        }
    }

    /// Whether the filter accept list is in use and may not change (§7.8.16).
    var filterAcceptListInUse: Bool {
        let advertisingUses = advertiser.map { $0.parameters.advertisingFilterPolicy != .acceptAll } ?? false
        let scanningUses = (scanner?.parameters ?? extendedScanner?.parameters).map {
            $0.scanningFilterPolicy == .basicFiltered || $0.scanningFilterPolicy == .extendedFiltered
        } ?? false
        let initiatingUses = initiator.map { $0.command.initiatorFilterPolicy == .useFilterAcceptList } ?? false
        return advertisingUses || scanningUses || initiatingUses
    }

    /// Advertising, scanning and initiating commands; returns the status for a Command
    /// Complete whose only return parameter is the status, or `nil` if not such a command.
    mutating func handleAdvertisingCommand(
        _ command: any HCICommand, into outputs: inout [ControllerOutput]
    ) -> HCI.StatusCode? {
        switch command {
        case let command as HCI.LESetRandomAddress:
            // §7.8.4: disallowed while legacy advertising, scanning or initiating is enabled.
            if advertiser != nil || scanner != nil || extendedScanner != nil || initiator != nil { return .commandDisallowed }
            randomAddress = command.randomAddress
            return .success
        case let command as HCI.LESetAdvertisingParameters:
            if advertiser != nil { return .commandDisallowed }
            let directedHigh = command.advertisingType == .connectableDirectedHighDutyCycle
            if !directedHigh {
                let range: ClosedRange<UInt16> = 0x0020 ... 0x4000
                guard range.contains(command.advertisingIntervalMin), range.contains(command.advertisingIntervalMax),
                      command.advertisingIntervalMin <= command.advertisingIntervalMax
                else { return .invalidHCICommandParameters }
            }
            guard !command.advertisingChannelMap.intersection(.all).isEmpty else { return .invalidHCICommandParameters }
            advertisingParameters = command
            return .success
        case let command as HCI.LESetAdvertisingData:
            advertisingData = Array(command.advertisingData)
            advertiser?.update(advertisingData: advertisingData)
            return .success
        case let command as HCI.LESetScanResponseData:
            scanResponseData = Array(command.scanResponseData)
            advertiser?.update(scanResponseData: scanResponseData)
            return .success
        case let command as HCI.LESetAdvertisingEnable:
            guard command.advertisingEnable else {
                advertiser = nil
                return .success
            }
            if advertiser != nil { return .success }
            let peer = advertisingParameters.peerAddress
            guard let address = ownAddress(for: advertisingParameters.ownAddressType, peer: peer) else {
                return .invalidHCICommandParameters
            }
            if advertisingParameters.advertisingType != .nonConnectableUndirected,
               advertisingParameters.advertisingType != .scannableUndirected,
               connections.count >= configuration.maximumConnections {
                return .connectionLimitExceeded
            }
            advertiser = LegacyAdvertiser(
                parameters: advertisingParameters, ownAddress: address, advertisingData: advertisingData,
                scanResponseData: scanResponseData, txPowerDBm: configuration.txPowerDBm, now: now,
                supportsChannelSelection2: configuration.claimsChannelSelectionAlgorithm2)
            return .success
        case let command as HCI.LESetScanParameters:
            if scanner != nil { return .commandDisallowed }
            let range: ClosedRange<UInt16> = 0x0004 ... 0x4000
            guard range.contains(command.leScanInterval), range.contains(command.leScanWindow),
                  command.leScanWindow <= command.leScanInterval
            else { return .invalidHCICommandParameters }
            scanParameters = command
            return .success
        case let command as HCI.LESetScanEnable:
            guard command.leScanEnable else {
                scanner = nil
                return .success
            }
            if scanner != nil {
                scanner?.filterDuplicates = command.filterDuplicates
                return .success
            }
            guard let address = ownAddress(for: scanParameters.ownAddressType, peer: nil) else {
                return .invalidHCICommandParameters
            }
            scanner = LegacyScanner(
                parameters: scanParameters, ownAddress: address, filterDuplicates: command.filterDuplicates,
                txPowerDBm: configuration.txPowerDBm, now: now)
            return .success
        case let command as HCI.LECreateConnection:
            createConnection(command, into: &outputs)
            return nil
        case is HCI.LECreateConnectionCancel:
            guard let pending = initiator else { return .commandDisallowed }
            initiator = nil
            respond(HCI.LECreateConnectionCancel.opcode, complete: [HCI.StatusCode.success.rawValue], into: &outputs)
            emit(connectionCompleteEvent(
                status: .unknownConnectionIdentifier, handle: 0, role: .central, peer: pending.command.peerAddress,
                interval: 0, latency: 0, timeout: 0, clockAccuracy: .ppm500), into: &outputs)
            return nil
        case is HCI.LEClearFilterAcceptList:
            if filterAcceptListInUse { return .commandDisallowed }
            filterAcceptList = []
            return .success
        case let command as HCI.LEAddDeviceToFilterAcceptList:
            if filterAcceptListInUse { return .commandDisallowed }
            let entry = FilterAcceptListEntry(addressType: command.addressType, address: command.address)
            if filterAcceptList.contains(entry) { return .success }
            guard filterAcceptList.count < configuration.filterAcceptListSize else { return .memoryCapacityExceeded }
            filterAcceptList.append(entry)
            return .success
        case let command as HCI.LERemoveDeviceFromFilterAcceptList:
            if filterAcceptListInUse { return .commandDisallowed }
            filterAcceptList.removeAll { $0 == FilterAcceptListEntry(addressType: command.addressType, address: command.address) }
            return .success
        default:
            return nil
        }
    }

    /// LE Create Connection (§7.8.12): Command Status, then initiating until a connectable
    /// advertisement from the peer arrives or the host cancels. LE Extended Create Connection
    /// comes here too, answered under its own `opcode`, with the primary PHYs it scans
    /// (`legs`) and its connection parameters for each PHY.
    mutating func createConnection(
        _ command: HCI.LECreateConnection, answering opcode: HCI.Opcode = HCI.LECreateConnection.opcode,
        legs: [ScanSchedule.Leg] = [], parametersByPHY: [HCI.PHY: HCI.LEConnectionParameters]? = nil,
        into outputs: inout [ControllerOutput]
    ) {
        if initiator != nil {
            respond(opcode, status: .commandDisallowed, into: &outputs)
            return
        }
        let valid = Controller.areValidInitiatingParameters(
            scanInterval: command.leScanInterval, scanWindow: command.leScanWindow, command.connectionParameters)
        guard valid else {
            respond(opcode, status: .invalidHCICommandParameters, into: &outputs)
            return
        }
        guard let address = ownAddress(for: command.ownAddressType, peer: Controller.initiatingPeer(command)) else {
            respond(opcode, status: .invalidHCICommandParameters, into: &outputs)
            return
        }
        guard connections.count < configuration.maximumConnections else {
            respond(opcode, status: .connectionLimitExceeded, into: &outputs)
            return
        }
        initiator = Initiator(
            command: command, ownAddress: address, channelMap: hostChannelClassification,
            txPowerDBm: configuration.txPowerDBm, now: now, legs: legs, parametersByPHY: parametersByPHY,
            supportsChannelSelection2: configuration.claimsChannelSelectionAlgorithm2)
        respond(opcode, status: .success, into: &outputs)
    }

    /// Whether a scan interval and window and connection parameters are within the ranges of
    /// LE Create Connection (§7.8.12): the timeout must exceed (1 + latency) × interval × 2.
    static func areValidInitiatingParameters(
        scanInterval: UInt16, scanWindow: UInt16, _ parameters: HCI.LEConnectionParameters
    ) -> Bool {
        let scanRange: ClosedRange<UInt16> = 0x0004 ... 0x4000
        let intervalRange: ClosedRange<UInt16> = 0x0006 ... 0x0C80
        return scanRange.contains(scanInterval) && scanRange.contains(scanWindow) && scanWindow <= scanInterval
            && intervalRange.contains(parameters.connectionIntervalMin)
            && intervalRange.contains(parameters.connectionIntervalMax)
            && parameters.connectionIntervalMin <= parameters.connectionIntervalMax
            && parameters.maxLatency <= 0x01F3
            && (0x000A ... 0x0C80).contains(parameters.supervisionTimeout)
            && Int(parameters.supervisionTimeout) * 4
                > (1 + Int(parameters.maxLatency)) * Int(parameters.connectionIntervalMax) * 2
    }
}
