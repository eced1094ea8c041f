import BLEHost

extension BLEDevice {
    /// Sets how this device pairs, in either role and whoever starts it (Core 5.4, Vol 3,
    /// Part H, §2.3): its ``PairingOptions`` (IO, bonding, MITM, Secure Connections Only,
    /// legacy, OOB data) and the ``PairingHandlers`` a user acts through. Applies to
    /// pairings started afterwards.
    public func setPairing(options: PairingOptions = PairingOptions(), handlers: PairingHandlers = PairingHandlers()) async {
        core.security.setHandlers(handlers)
        var configuration = options.configuration
        configuration.signatureKey = core.security.signatureKey  // our CSRK, for signed writes
        await core.host.setPairingConfiguration(configuration)
    }
}
