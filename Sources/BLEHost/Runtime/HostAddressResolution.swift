import BLECrypto
import BLEWire

/// Where and with what a ``Host`` resolves peers' resolvable private addresses (Core 5.4,
/// Vol 3, Part C, §10.8.2.3; Vol 6, Part B, §6): the bonded peers' IRKs, our own IRK, and
/// whether the controller's resolving list holds them. Held by the host actor.
struct HostAddressResolution: Sendable {
    /// First token of the host's own resolving-list commands, apart from GAP's range.
    static let firstToken: UInt64 = 0x5052_4956_0000_0000

    /// The bonded peers with an IRK.
    var peers: [ResolvingListEntry] = []
    /// Our IRK and identity address once privacy is on; handed out in pairing.
    var localIdentity: SMPIdentity?
    /// RPA_Timeout for the controller, in seconds (1 to 3600).
    var timeoutSeconds: UInt16 = 900
    /// Whether the controller has LL Privacy and the resolving-list commands.
    var controllerSupported = false
    /// Whether the controller refused the list in a way a retry cannot fix: resolve in the host.
    var controllerGaveUp = false
    /// Whether the controller holds the current list and resolves with it.
    var inController = false
    /// Whether the list must be (re)loaded at the next moment GAP is idle.
    var due = false
    /// Whether a load is running.
    var loading = false
    /// Counts controller start-ups, so a load cut short by a reset knows it is stale.
    var generation = 0
    /// Commands sent by the load, waiting for their answer.
    var waiting: [HCICommandToken: CheckedContinuation<Result<HCI.Event, HCIDriverError>, Never>] = [:]
    var nextToken = HostAddressResolution.firstToken
    /// In the host: the private address each identity was last seen with, to connect to it.
    var lastPrivateAddress: [BluetoothAddress: BluetoothAddress] = [:]
    /// In the host: private addresses no IRK resolved (forgotten when the list changes).
    var strangers: Set<UInt64> = []

    /// Whether `token` is one of the load's commands.
    func owns(_ token: HCICommandToken) -> Bool { waiting[token] != nil }

    /// Whether the controller should resolve: it can, and there is something to resolve with.
    var wantsController: Bool {
        controllerSupported && !controllerGaveUp && (!peers.isEmpty || localIdentity != nil)
    }

    /// The resolving-list commands that load the list (§7.8.38–§7.8.45, §7.8.77): resolution
    /// off, list cleared, an entry for the all-zeros identity with only our IRK (it gives
    /// undirected advertising and scanning our private address, §7.8.5 and §7.8.10), one per
    /// bonded peer with its IRK and ours, device privacy mode for each (a bonded peer that
    /// advertises under its identity is still seen), the RPA timeout, resolution on.
    func loadCommands(privacyModeSupported: Bool) -> [any HCICommand] {
        var commands: [any HCICommand] = [HCI.LESetAddressResolutionEnable(addressResolutionEnable: false), HCI.LEClearResolvingList()]
        let localIRK = localIdentity?.identityResolvingKey ?? 0
        if localIRK != 0 {
            commands.append(HCI.LEAddDeviceToResolvingList(
                peerIdentityAddress: BluetoothAddress(0, kind: .public), peerIRK: 0, localIRK: localIRK))
        }
        for peer in peers {
            commands.append(HCI.LEAddDeviceToResolvingList(
                peerIdentityAddress: peer.identityAddress, peerIRK: peer.identityResolvingKey, localIRK: localIRK))
            if privacyModeSupported {
                commands.append(HCI.LESetPrivacyMode(peerIdentityAddress: peer.identityAddress, privacyMode: .device))
            }
        }
        commands.append(HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: timeoutSeconds))
        commands.append(HCI.LESetAddressResolutionEnable(addressResolutionEnable: true))
        return commands
    }

    /// In the host: the identity `address` resolves to with the peers' IRKs, remembering it
    /// as that identity's latest private address.
    mutating func resolveInHost(_ address: BluetoothAddress) -> BluetoothAddress? {
        guard address.randomSubtype == .resolvablePrivate, !peers.isEmpty, !strangers.contains(address.value) else { return nil }
        guard let identity = (try? ResolvablePrivateAddress.resolve(address, in: peers)) ?? nil else {
            if strangers.count >= 256 { strangers = [] }
            strangers.insert(address.value)
            return nil
        }
        lastPrivateAddress[identity] = address
        return identity
    }
}
