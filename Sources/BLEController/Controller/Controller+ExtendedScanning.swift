import BLEWire

// The extended scanning commands (Core 5.4, Vol 4, Part E, §7.8.64–§7.8.65); the scanner
// itself is ExtendedScanner.swift.

extension Controller {
    /// LE Set Extended Scan Parameters (§7.8.64): LE 1M, LE Coded (on a controller that has
    /// the LE Coded PHY feature, else Unsupported Feature or Parameter Value) or both, each
    /// PHY with its interval and window; the scan takes them in turn (``ScanSchedule``).
    /// Reserved Scanning_PHYs bits do not decode (the codec refuses them), which answers
    /// Invalid HCI Command Parameters as any undecodable command does.
    mutating func setExtendedScanParameters(_ command: HCI.LESetExtendedScanParameters) -> HCI.StatusCode {
        if extendedScanner != nil { return .commandDisallowed }
        if command.leCoded != nil, !reportedLEFeatures.contains(.leCodedPHY) { return .unsupportedFeatureOrParameterValue }
        let phys = [(RadioPHY.le1M, command.le1M), (RadioPHY.leCoded(.s8), command.leCoded)]
            .compactMap { phy, parameters in parameters.map { (phy, $0) } }
        guard let first = phys.first?.1,
              phys.allSatisfy({ $0.1.scanInterval >= 0x0004 && $0.1.scanWindow >= 0x0004 && $0.1.scanWindow <= $0.1.scanInterval })
        else { return .invalidHCICommandParameters }
        extendedScanParameters = HCI.LESetScanParameters(
            leScanType: first.scanType, leScanInterval: first.scanInterval, leScanWindow: first.scanWindow,
            ownAddressType: command.ownAddressType, scanningFilterPolicy: command.scanningFilterPolicy)
        // LE 1M alone keeps the schedule of the legacy form; Coded, alone or with 1M, has legs.
        extendedScanLegs = command.leCoded == nil ? nil
            : phys.map { ScanSchedule.Leg(phy: $0.0, interval: $0.1.scanInterval, window: $0.1.scanWindow) }
        return .success
    }

    /// LE Set Extended Scan Enable (§7.8.65): a duration ends the scan with LE Scan Timeout;
    /// periodic scanning (a non-zero Period) is not modelled and is refused as unsupported.
    mutating func setExtendedScanEnable(_ command: HCI.LESetExtendedScanEnable) -> HCI.StatusCode {
        guard command.enable else {
            extendedScanner = nil
            return .success
        }
        if command.period != 0 { return .unsupportedFeatureOrParameterValue }
        let parameters = extendedScanParameters
        guard let address = ownAddress(for: parameters.ownAddressType, peer: nil) else { return .invalidHCICommandParameters }
        extendedScanner = ExtendedScanner(
            parameters: parameters, ownAddress: address, filterDuplicates: command.filterDuplicates != .disabled,
            duration: command.duration, txPowerDBm: configuration.txPowerDBm, now: now, legs: extendedScanLegs)
        return .success
    }

    /// LE Extended Create Connection (§7.8.66): initiating on the primary channels of LE 1M,
    /// LE Coded or both in turn (each with its scan interval and window), towards legacy
    /// connectable advertising (on LE 1M) and connectable extended advertising, whose
    /// AUX_ADV_IND is answered on its secondary PHY (LE 1M, 2M or Coded) with the connection
    /// parameters given for that PHY. LE Coded needs the LE Coded PHY feature (Unsupported
    /// Feature or Parameter Value); without LE 1M or LE Coded nothing can be scanned (Invalid
    /// HCI Command Parameters), and each PHY's parameters are checked as LE Create
    /// Connection's are.
    mutating func extendedCreateConnection(_ command: HCI.LEExtendedCreateConnection, into outputs: inout [ControllerOutput]) {
        let opcode = HCI.LEExtendedCreateConnection.opcode
        if command.leCoded != nil, !reportedLEFeatures.contains(.leCodedPHY) {
            respond(opcode, status: .unsupportedFeatureOrParameterValue, into: &outputs)
            return
        }
        let scanned = [(RadioPHY.le1M, command.le1M), (RadioPHY.leCoded(.s8), command.leCoded)]
            .compactMap { phy, parameters in parameters.map { (phy, $0) } }
        guard let first = scanned.first?.1 else {
            respond(opcode, status: .invalidHCICommandParameters, into: &outputs)
            return
        }
        var byPHY: [HCI.PHY: HCI.LEConnectionParameters] = [:]
        for (phy, parameters) in [(HCI.PHY.le1M, command.le1M), (.le2M, command.le2M), (.leCoded, command.leCoded)] {
            guard let parameters else { continue }
            let scans = phy != .le2M
            guard Controller.areValidInitiatingParameters(
                scanInterval: scans ? parameters.scanInterval : 0x0004, scanWindow: scans ? parameters.scanWindow : 0x0004,
                parameters.connectionParameters)
            else {
                respond(opcode, status: .invalidHCICommandParameters, into: &outputs)
                return
            }
            byPHY[phy] = parameters.connectionParameters
        }
        let legacy = HCI.LECreateConnection(
            leScanInterval: first.scanInterval, leScanWindow: first.scanWindow,
            initiatorFilterPolicy: command.initiatorFilterPolicy, peerAddressType: command.peerAddressType,
            peerAddress: command.peerAddress, ownAddressType: command.ownAddressType,
            connectionParameters: (command.le1M ?? first).connectionParameters)
        // LE 1M alone keeps the schedule of LE Create Connection.
        let legs = command.leCoded == nil ? []
            : scanned.map { ScanSchedule.Leg(phy: $0.0, interval: $0.1.scanInterval, window: $0.1.scanWindow) }
        createConnection(legacy, answering: opcode, legs: legs, parametersByPHY: byPHY, into: &outputs)
    }
}
