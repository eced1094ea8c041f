import BLECrypto
import BLEWire

// Resolving peers' private addresses (Core 5.4, Vol 3, Part C, §10.8.2.3; Vol 6, Part B,
// §6). When the controller has LL Privacy and the resolving-list commands, the host loads
// the bonded peers' IRKs and ours into its resolving list and turns address resolution on:
// the controller then reports identities (types 0x02/0x03) and uses private addresses of
// its own for own address types 0x02/0x03. Otherwise the host resolves scan reports itself
// and connects to an identity through the private address it was last seen with.
//
// The list may change only while advertising, scanning and initiating are off (Vol 4,
// Part E, §7.8.38). A change waits, as a new private address does, for the next moment GAP
// is idle; when only advertising runs, advertising is stopped, the list loaded and
// advertising started again.

extension Host {
    /// Sets the bonded peers whose private addresses are resolved: in the controller's
    /// resolving list when it has one (loaded now or at the next idle moment), else in the
    /// host. Scan reports and connections then carry the peers' identity addresses.
    /// Returns once the controller holds the list when GAP is idle; while advertising,
    /// scanning or connecting the list follows at the next idle moment (see above).
    public func setResolvingList(_ peers: [ResolvingListEntry]) async {
        guard peers != addressResolution.peers else { return }
        addressResolution.peers = peers
        addressResolution.strangers = []
        await resolvingListChanged()
    }

    /// Whether the controller resolves addresses with the list the host loaded (LL Privacy,
    /// Vol 6, Part B, §6); `false` while addresses are resolved in the host.
    public var resolvesAddressesInController: Bool { addressResolution.inController }

    /// The identity of a peer seen at `address` in this host's view: `address` itself when
    /// it is not a private address one of the listed IRKs resolves.
    public func identity(of address: BluetoothAddress) -> BluetoothAddress {
        addressResolution.resolveInHost(address) ?? address
    }

    /// The controller (re)started: privacy and the resolving list are set up again, since
    /// a reset lost the random address and the list (Vol 4, Part E, §7.3.2).
    func privacyControllerReady(_ info: ControllerInfo) {
        addressResolution.generation &+= 1
        addressResolution.controllerSupported = info.leFeatures.contains(.llPrivacy)
            && [.leAddDeviceToResolvingList, .leClearResolvingList, .leSetAddressResolutionEnable,
                .leSetResolvablePrivateAddressTimeout, .leReadLocalResolvableAddress].allSatisfy { info.mayAnswer($0) }
        addressResolution.controllerGaveUp = false
        addressResolution.inController = false
        addressResolution.loading = false
        if var timer = privacy {
            var generator = StackRandom()
            if let address = try? timer.rotate(now: now, using: &generator) {
                privacy = timer
                privateAddressDue = address
            }
        }
        addressResolution.due = addressResolution.wantsController || addressResolution.inController
        // The new address first (if any), then the list, each when GAP is idle.
        setDuePrivateAddress()
    }

    /// The list or our IRK changed: load it now when GAP is idle (returning when it is
    /// loaded), else by pausing advertising, else at the next idle moment.
    func resolvingListChanged() async {
        addressResolution.due = addressResolution.wantsController || addressResolution.inController
        guard addressResolution.due, !addressResolution.loading, closed == nil, driver.isReady else { return }
        if gap.mayChangeRandomAddress, !restartingAdvertising {
            await loadResolvingList()
        } else if gap.isAdvertising, !gap.isScanning, gap.connecting == nil, !restartingAdvertising,
                  let parameters = gap.advertisingParameters {
            restartingAdvertising = true
            Task { await self.reloadWhileAdvertising(parameters) }
        }
    }

    /// Starts loading the list if it is due and GAP is idle (called after each GAP step).
    func loadDueResolvingList() {
        guard addressResolution.due, !addressResolution.loading, !restartingAdvertising, gap.mayChangeRandomAddress,
              closed == nil, driver.isReady else { return }
        addressResolution.loading = true
        Task { await self.loadResolvingList() }
    }

    /// Sends the load's commands one by one; a refusal while GAP turned busy leaves the list
    /// due for the next idle moment, any other refusal falls back to resolving in the host.
    func loadResolvingList() async {
        addressResolution.loading = true
        // A reset during the load starts another; this one then leaves the state alone.
        let generation = addressResolution.generation
        defer {
            if addressResolution.generation == generation {
                addressResolution.loading = false
                gap.addressResolutionInController = addressResolution.inController
            }
        }
        addressResolution.due = false
        addressResolution.inController = false
        gap.addressResolutionInController = false
        let wanted = addressResolution.wantsController
        let modes = driver.controller?.mayAnswer(.leSetPrivacyMode) ?? false
        var commands = addressResolution.loadCommands(privacyModeSupported: modes)
        if !wanted { commands = Array(commands.prefix(2)) }
        for command in commands {
            switch GAPCore.outcome(await sendResolvingListCommand(command)) {
            case nil: continue
            case .controller(.commandDisallowed)?:
                addressResolution.due = true
                return
            case .driver(.controllerReset)?:
                // The controller is starting again; its `.ready` loads the list anew.
                return
            case .some:
                addressResolution.controllerGaveUp = true
                return
            }
        }
        guard wanted else { return }
        let proven = await controllerResolvesForReal()
        guard addressResolution.generation == generation else { return }
        guard proven else {
            // Bumble 0.0.236's controller claims LL Privacy and accepts the list but ignores
            // it (docs/bumble-quirks.md): resolve in the host instead.
            addressResolution.controllerGaveUp = true
            _ = await sendResolvingListCommand(HCI.LESetAddressResolutionEnable(addressResolutionEnable: false))
            return
        }
        addressResolution.inController = true
    }

    /// Whether the controller really uses the list: LE Read Local Resolvable Address
    /// (§7.8.43, mandatory with LL Privacy) answers with a private address of our IRK for
    /// the zero identity, or at least succeeds for a peer when we have no IRK.
    private func controllerResolvesForReal() async -> Bool {
        let localIRK = addressResolution.localIdentity?.identityResolvingKey ?? 0
        guard let probe = localIRK != 0 ? BluetoothAddress(0, kind: .public) : addressResolution.peers.first?.identityAddress
        else { return false }
        let result = await sendResolvingListCommand(HCI.LEReadLocalResolvableAddress(peerIdentityAddress: probe))
        guard case let .success(.commandComplete(complete)) = result,
              let answer = try? complete.returnParameters(for: HCI.LEReadLocalResolvableAddress.self),
              answer.status == .success
        else { return false }
        guard localIRK != 0 else { return true }
        return (try? ResolvablePrivateAddress.matches(answer.localResolvableAddress, irk: localIRK)) ?? false
    }

    /// Stops advertising, loads the list, starts advertising again.
    private func reloadWhileAdvertising(_ parameters: GAPAdvertisingParameters) async {
        guard (try? await stopAdvertising()) != nil else {
            restartingAdvertising = false
            return
        }
        await loadResolvingList()
        restartingAdvertising = false
        setDuePrivateAddress()
        try? await startAdvertising(parameters)
    }

    /// Sends one command of the load with a token of the host's own range and waits for
    /// its answer.
    private func sendResolvingListCommand(_ command: any HCICommand) async -> Result<HCI.Event, HCIDriverError> {
        guard closed == nil else { return .failure(.controllerReset) }
        let token = HCICommandToken(addressResolution.nextToken)
        addressResolution.nextToken &+= 1
        return await withCheckedContinuation { continuation in
            addressResolution.waiting[token] = continuation
            carryOut(driver.submit(command, token: token, at: now))
        }
    }

    /// The answer to one of the load's commands.
    func resolvingListCommandCompleted(_ token: HCICommandToken, _ result: Result<HCI.Event, HCIDriverError>) {
        addressResolution.waiting.removeValue(forKey: token)?.resume(returning: result)
    }

    /// A scan report as the app should see it: with the host resolving, a bonded peer's
    /// private address is replaced by its identity (types 0x02/0x03, as a controller would
    /// report it, Vol 4, Part E, §7.7.65.2).
    func identified(_ advertisement: GAPAdvertisement) -> GAPAdvertisement {
        guard !addressResolution.inController, let identity = addressResolution.resolveInHost(advertisement.address) else {
            return advertisement
        }
        var changed = advertisement
        changed.address = identity
        changed.addressType = identity.kind == .public ? .publicIdentity : .randomIdentity
        return changed
    }

    /// A connection request to a bonded peer's identity as the controller needs it: with the
    /// controller resolving, the identity types 0x02/0x03; with the host resolving, the
    /// private address the peer uses now — found by a short passive scan when no scan runs
    /// (a private address seen earlier may have changed since), else the last one seen.
    func resolvingPeer(of request: GAPConnectRequest) async -> GAPConnectRequest {
        let peer = request.peer
        guard addressResolution.peers.contains(where: { $0.identityAddress == peer }) else { return request }
        var changed = request
        if addressResolution.inController {
            changed.peerAddressType = peer.kind == .public ? .publicIdentity : .randomIdentity
            return changed
        }
        if !gap.isScanning, gap.mayChangeRandomAddress || gap.isAdvertising {
            await findCurrentPrivateAddress(of: peer, within: request.timeout)
        }
        if let latest = addressResolution.lastPrivateAddress[peer] {
            changed.peer = latest
            changed.peerAddressType = .random
        }
        return changed
    }

    /// Scans passively until a report from `identity` arrives (its private address is then
    /// remembered by ``identified(_:)``) or `timeout` microseconds pass.
    private func findCurrentPrivateAddress(of identity: BluetoothAddress, within timeout: HostTime) async {
        guard let reports = try? await startScanning(GAPScanParameters(active: false, allowDuplicates: true)) else { return }
        let limit = Duration.microseconds(max(timeout, 1))
        let clock = self.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await report in reports where report.address == identity { return }
            }
            group.addTask {
                // The connection's own timeout bounds the search (a timer, not a poll).
                try? await clock.sleep(for: limit)
            }
            await group.next()
            group.cancelAll()
        }
        try? await stopScanning()
    }
}

extension Host {
    /// The transport is gone: the load's commands will not be answered.
    func failResolvingListWaiters() {
        let waiting = addressResolution.waiting
        addressResolution.waiting = [:]
        for continuation in waiting.values { continuation.resume(returning: .failure(.controllerReset)) }
    }
}
