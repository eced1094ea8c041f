import BLEWire

// The extended scanning commands (Core 5.4, Vol 4, Part E, §7.8.64–§7.8.65); the scanner
// itself is ExtendedScanner.swift.

extension Controller {
    /// LE Set Extended Scan Parameters (§7.8.64): LE 1M only; LE Coded is refused as unsupported.
    mutating func setExtendedScanParameters(_ command: HCI.LESetExtendedScanParameters) -> HCI.StatusCode {
        if extendedScanner != nil { return .commandDisallowed }
        if command.leCoded != nil { return .unsupportedFeatureOrParameterValue }
        guard let parameters = command.le1M, parameters.scanInterval >= 0x0004, parameters.scanWindow >= 0x0004,
              parameters.scanWindow <= parameters.scanInterval
        else { return .invalidHCICommandParameters }
        extendedScanParameters = HCI.LESetScanParameters(
            leScanType: parameters.scanType, leScanInterval: parameters.scanInterval, leScanWindow: parameters.scanWindow,
            ownAddressType: command.ownAddressType, scanningFilterPolicy: command.scanningFilterPolicy)
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
            duration: command.duration, txPowerDBm: configuration.txPowerDBm, now: now)
        return .success
    }

    /// LE Extended Create Connection (§7.8.66) on LE 1M: initiating as LE Create Connection
    /// does, towards legacy connectable advertising (connectable extended advertising is not
    /// modelled). LE Coded is refused as unsupported; without LE 1M nothing can be scanned.
    mutating func extendedCreateConnection(_ command: HCI.LEExtendedCreateConnection, into outputs: inout [ControllerOutput]) {
        let opcode = HCI.LEExtendedCreateConnection.opcode
        if command.leCoded != nil {
            respond(opcode, status: .unsupportedFeatureOrParameterValue, into: &outputs)
            return
        }
        guard let parameters = command.le1M else {
            respond(opcode, status: .invalidHCICommandParameters, into: &outputs)
            return
        }
        let legacy = HCI.LECreateConnection(
            leScanInterval: parameters.scanInterval, leScanWindow: parameters.scanWindow,
            initiatorFilterPolicy: command.initiatorFilterPolicy, peerAddressType: command.peerAddressType,
            peerAddress: command.peerAddress, ownAddressType: command.ownAddressType,
            connectionParameters: parameters.connectionParameters)
        createConnection(legacy, answering: opcode, into: &outputs)
    }
}
