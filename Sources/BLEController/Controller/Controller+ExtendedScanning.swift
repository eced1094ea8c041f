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
}
