import BLEWire

extension SMPPairingMethod {
    /// The association model for two devices' feature exchange (Core 5.4, Vol 3, Part H,
    /// §2.3.5.1, Tables 2.6–2.8).
    ///
    /// Legacy: OOB when both have OOB data; otherwise Just Works when neither sets MITM;
    /// otherwise the IO capability table. Secure Connections: OOB when either has OOB data
    /// from the other; then the same MITM rule and table, where DisplayYesNo or
    /// KeyboardDisplay on both sides gives Numeric Comparison.
    public static func select(
        initiatorIO: SMP.IOCapability, initiatorOOB: Bool, initiatorMITM: Bool,
        responderIO: SMP.IOCapability, responderOOB: Bool, responderMITM: Bool,
        secureConnections: Bool
    ) -> SMPPairingMethod {
        if secureConnections ? (initiatorOOB || responderOOB) : (initiatorOOB && responderOOB) {
            return .outOfBand
        }
        guard initiatorMITM || responderMITM else { return .justWorks }
        return fromIOCapabilities(initiator: initiatorIO, responder: responderIO, secureConnections: secureConnections)
    }

    /// Table 2.8 of §2.3.5.1: the model for an initiator/responder IO capability pair.
    public static func fromIOCapabilities(
        initiator: SMP.IOCapability, responder: SMP.IOCapability, secureConnections: Bool
    ) -> SMPPairingMethod {
        switch (initiator, responder) {
        case (.noInputNoOutput, _), (_, .noInputNoOutput):
            return .justWorks
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly):
            return .justWorks
        case (.displayYesNo, .displayYesNo):
            return secureConnections ? .numericComparison : .justWorks
        case (.keyboardOnly, .keyboardOnly):
            return .passkeyEntry(.bothEnter)
        case (.keyboardOnly, _), (.keyboardDisplay, .displayOnly):
            return .passkeyEntry(.responderDisplays)
        case (.displayOnly, _), (_, .keyboardOnly):
            return .passkeyEntry(.initiatorDisplays)
        case (.displayYesNo, .keyboardDisplay):
            return secureConnections ? .numericComparison : .passkeyEntry(.initiatorDisplays)
        case (.keyboardDisplay, .displayYesNo):
            return secureConnections ? .numericComparison : .passkeyEntry(.responderDisplays)
        case (.keyboardDisplay, .keyboardDisplay):
            return secureConnections ? .numericComparison : .passkeyEntry(.initiatorDisplays)
        }
    }
}
