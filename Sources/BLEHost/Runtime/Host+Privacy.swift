import BLECrypto
import BLEWire

// Our own resolvable private address (Core 5.4, Vol 3, Part C, §10.7; Vol 6, Part B,
// §1.3.2.2): made from our IRK, set with LE Set Random Address and changed at each
// deadline of an ``RPARotation``, so that only peers holding the IRK can follow us.
//
// The controller refuses a new random address while legacy advertising, scanning or
// initiating (Vol 4, Part E, §7.8.4). At a deadline the host therefore:
// - when idle, sets the new address at once;
// - when only advertising, stops advertising, sets the address and starts advertising
//   again with the same parameters (an advertiser is what others track, so it must not
//   keep one address for as long as it advertises);
// - when scanning or connecting, keeps the address due and sets it at the next moment
//   GAP is idle (after ``Host/stopScanning()`` or when the connection attempt ends): a
//   scan or an attempt is not interrupted.
// With the controller's resolving list loaded (Host+AddressResolution.swift) the controller
// makes and changes the addresses in use itself (own address types 0x02/0x03, RPA_Timeout
// = the rotation); the host's random address is then only its fallback and is not worth
// pausing advertising for.

extension Host {
    /// Turns on privacy: makes a resolvable private address from `irk` at once, sets it as
    /// our random address, and changes it every `rotation` (at least one second; 15
    /// minutes recommended, Vol 3, Part C, Appendix A, TGAP(private_addr_int)). From then
    /// on advertising, scanning and connecting use the random address whatever their
    /// `useRandomAddress` says. Calling it again replaces the key and the interval.
    /// - Throws: ``HostError/gap(_:)`` with ``GAPError/randomAddressChangeWhileBusy`` while
    ///   advertising, scanning or connecting (call it before those start).
    public func enablePrivacy(irk: UInt128, rotation: Duration = .seconds(900)) async throws {
        let (seconds, attoseconds) = rotation.components
        let interval = HostTime(clamping: seconds) &* 1_000_000 &+ HostTime(attoseconds / 1_000_000_000_000)
        var timer = RPARotation(identityResolvingKey: irk, interval: interval)
        var generator = StackRandom()
        let address = try timer.start(now: now, using: &generator)
        try await perform({ gap, now throws(GAPError) in try gap.setResolvablePrivateAddress(address, at: now) }) { event in
            switch event {
            case .randomAddressSet: return .success(event)
            case let .procedureFailed(.setRandomAddress, error): return .failure(error)
            default: return nil
            }
        }
        privacy = timer
        privateAddressDue = nil
        // Our IRK goes to the controller's resolving list and out in pairing, with our
        // public address as identity (Vol 3, Part C, §10.8.2.2).
        if let identity = driver.controller?.address, identity.value != 0 {
            let ours = SMPIdentity(identityResolvingKey: irk, identityAddress: identity)
            if smpConfiguration.identity == nil || smpConfiguration.identity == addressResolution.localIdentity {
                smpConfiguration.identity = ours
            }
            addressResolution.localIdentity = ours
        }
        addressResolution.timeoutSeconds = UInt16(clamping: min(max(seconds, 1), 3600))
        await resolvingListChanged()
        armTimer()
    }

    /// Our resolvable private address now, `nil` without privacy.
    public var currentPrivateAddress: BluetoothAddress? { privacy?.currentAddress }

    /// When the next address is due, for the host's single timer. It keeps running while an
    /// address waits: a restart of advertising that failed is tried again at the next one.
    var privacyNextDeadline: HostTime? { privacy?.nextDeadline }

    /// `parameters` with the random address forced on while privacy is enabled or the
    /// random static address is ours (``useRandomStaticAddress(_:)``).
    func withPrivacy<Parameters>(_ parameters: Parameters, _ flag: WritableKeyPath<Parameters, Bool>) -> Parameters {
        guard privacy != nil || randomStaticAddressInUse else { return parameters }
        var changed = parameters
        changed[keyPath: flag] = true
        return changed
    }

    /// The rotation deadline passed: a new address (replacing one still waiting), set now or
    /// when GAP allows it.
    func privacyTimerFired(at time: HostTime) {
        var generator = StackRandom()
        // `tick` fails only when the AES backend does; the next deadline tries again.
        guard var timer = privacy, let address = (try? timer.tick(now: time, using: &generator)) ?? nil else { return }
        privacy = timer
        privateAddressDue = address
        if gap.mayChangeRandomAddress {
            setDuePrivateAddress()
        } else if !addressResolution.inController, gap.isAdvertising, !gap.isScanning, gap.connecting == nil, !restartingAdvertising,
                  let parameters = gap.advertisingParameters {
            restartingAdvertising = true
            Task { await self.restartAdvertising(parameters) }
        }
    }

    /// Sets the due address if GAP is idle; called after each step of GAP's outputs.
    func setDuePrivateAddress() {
        loadDueResolvingList()
        guard let address = privateAddressDue, gap.mayChangeRandomAddress, closed == nil else { return }
        privateAddressDue = nil
        // Refused only when busy, which was just ruled out; a controller's refusal comes
        // back as an event nobody waits for, and the next deadline tries again.
        if let outputs = try? gap.setResolvablePrivateAddress(address, at: now) { apply(outputs) }
    }

    /// Stops advertising (GAP's idle step sets the due address), then starts again.
    private func restartAdvertising(_ parameters: GAPAdvertisingParameters) async {
        defer { restartingAdvertising = false }
        guard (try? await stopAdvertising()) != nil else { return }
        try? await startAdvertising(parameters)
    }
}
