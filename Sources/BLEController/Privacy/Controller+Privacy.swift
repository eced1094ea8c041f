import BLEWire

// Link-layer privacy (Core 5.4, Vol 6, Part B, §6; Vol 4, Part E, §7.8.38–§7.8.45, §7.8.77).
// With address resolution enabled:
// - own address types 0x02/0x03 use our resolvable private address from the local IRK of the
//   resolving-list entry matching the peer (advertising: the advertising parameters' peer,
//   which is all zeros for undirected advertising, so a host adds an entry for the zero
//   identity carrying only its local IRK; initiating: the Create Connection peer, or the
//   zero entry with the filter accept list; scanning: the zero entry); with no such entry
//   or a zero local IRK, the public (0x02) or random (0x03) address;
// - a received resolvable private address that a peer IRK resolves stands for the peer's
//   identity: advertising reports carry the identity with type 0x02/0x03 (§7.7.65.2), the
//   filter accept list and a Create Connection to an identity match it, and the (Enhanced)
//   Connection Complete carries the identity and both private addresses (§7.7.65.10);
// - in network privacy mode (the default) a listed peer with an IRK that uses its identity
//   address is ignored; device privacy mode accepts it (§7.8.77).
// Our addresses change every RPA_Timeout (§7.8.45): a running advertiser or scanner starts
// again on its new address; an initiator keeps its address until it ends.

extension Controller {
    /// Resolving list commands; `nil` if `command` is not one of them.
    mutating func handlePrivacyCommand(_ command: any HCICommand) -> [UInt8]? {
        let okOnly = [HCI.StatusCode.success.rawValue]
        // §7.8.38–§7.8.40: the list may not change while resolution is on and advertising,
        // scanning or initiating is enabled; resolution may not be switched then (§7.8.44).
        let busy = advertiser != nil || scanner != nil || initiator != nil
        switch command {
        case let command as HCI.LEAddDeviceToResolvingList:
            if addressResolutionEnabled, busy { return [HCI.StatusCode.commandDisallowed.rawValue] }
            if resolvingList.entry(for: command.peerIdentityAddress) != nil {
                return [HCI.StatusCode.invalidHCICommandParameters.rawValue]
            }
            guard resolvingList.count < configuration.resolvingListSize else {
                return [HCI.StatusCode.memoryCapacityExceeded.rawValue]
            }
            _ = resolvingList.add(command)
            return okOnly
        case let command as HCI.LERemoveDeviceFromResolvingList:
            if addressResolutionEnabled, busy { return [HCI.StatusCode.commandDisallowed.rawValue] }
            guard resolvingList.remove(command.peerIdentityAddress) else {
                return [HCI.StatusCode.unknownConnectionIdentifier.rawValue]
            }
            return okOnly
        case is HCI.LEClearResolvingList:
            if addressResolutionEnabled, busy { return [HCI.StatusCode.commandDisallowed.rawValue] }
            resolvingList.clear()
            return okOnly
        case is HCI.LEReadResolvingListSize:
            return HCI.LEReadResolvingListSize.ReturnParameters(
                status: .success, resolvingListSize: UInt8(clamping: configuration.resolvingListSize)).encoded()
        case let command as HCI.LEReadPeerResolvableAddress:
            // §7.8.42: Unknown Connection Identifier when the peer is not listed; all zeros
            // until one of its addresses was resolved.
            guard let entry = resolvingList.entry(for: command.peerIdentityAddress) else {
                return HCI.LEReadPeerResolvableAddress.ReturnParameters(
                    status: .unknownConnectionIdentifier, peerResolvableAddress: BluetoothAddress(0, kind: .random)).encoded()
            }
            return HCI.LEReadPeerResolvableAddress.ReturnParameters(
                status: .success, peerResolvableAddress: entry.peerAddress ?? BluetoothAddress(0, kind: .random)).encoded()
        case let command as HCI.LEReadLocalResolvableAddress:
            if addressResolutionEnabled { refreshLocalAddresses() }
            guard let entry = resolvingList.entry(for: command.peerIdentityAddress) else {
                return HCI.LEReadLocalResolvableAddress.ReturnParameters(
                    status: .unknownConnectionIdentifier, localResolvableAddress: BluetoothAddress(0, kind: .random)).encoded()
            }
            return HCI.LEReadLocalResolvableAddress.ReturnParameters(
                status: .success, localResolvableAddress: entry.localAddress ?? BluetoothAddress(0, kind: .random)).encoded()
        case let command as HCI.LESetAddressResolutionEnable:
            if busy { return [HCI.StatusCode.commandDisallowed.rawValue] }
            addressResolutionEnabled = command.addressResolutionEnable
            return okOnly
        case let command as HCI.LESetResolvablePrivateAddressTimeout:
            guard (0x0001 ... 0x0E10).contains(command.rpaTimeout) else {
                return [HCI.StatusCode.invalidHCICommandParameters.rawValue]
            }
            resolvablePrivateAddressTimeout = command.rpaTimeout
            return okOnly
        case let command as HCI.LESetPrivacyMode:
            if addressResolutionEnabled, busy { return [HCI.StatusCode.commandDisallowed.rawValue] }
            guard resolvingList.setPrivacyMode(command.privacyMode, for: command.peerIdentityAddress) else {
                return [HCI.StatusCode.unknownConnectionIdentifier.rawValue]
            }
            return okOnly
        default:
            return nil
        }
    }

    /// New local addresses when RPA_Timeout has passed since the last ones (§7.8.45).
    mutating func refreshLocalAddresses() {
        resolvingList.generateIfDue(now: now, timeout: resolvablePrivateAddressTimeout, random: &random)
    }

    /// The address an activity uses for `type` towards `peer` (`nil`: no particular peer).
    /// `nil` when it needs a random address the host has not set.
    mutating func ownAddress(for type: HCI.OwnAddressType, peer: BluetoothAddress?) -> BluetoothAddress? {
        guard addressResolutionEnabled, type == .resolvableOrPublic || type == .resolvableOrRandom else {
            return ownAddress(for: type)
        }
        refreshLocalAddresses()
        let identity = peer ?? BluetoothAddress(0, kind: .public)
        if let address = resolvingList.entry(for: identity)?.localAddress { return address }
        return ownAddress(for: type)
    }

    /// The peer an initiator's own address is chosen for: the Create Connection peer (its
    /// identity kind for types 0x02/0x03), or none with the filter accept list.
    static func initiatingPeer(_ command: HCI.LECreateConnection) -> BluetoothAddress? {
        guard command.initiatorFilterPolicy == .usePeerAddress else { return nil }
        return BluetoothAddress(command.peerAddress.value, kind: command.peerAddressType.addressKind)
    }

    /// What address resolution makes of a PDU sent from `sender`.
    struct ResolvedSender {
        /// The PDU is to be ignored: a listed peer's identity address in network privacy mode.
        var ignored = false
        /// The sender's identity when a peer IRK resolved its address.
        var identity: BluetoothAddress?
        /// The filter accept list as it applies to this PDU: with the sender's private
        /// address added when its identity is on the list.
        var filterAcceptList: [FilterAcceptListEntry]
    }

    /// Resolves `sender` against the resolving list (nothing happens with resolution off).
    mutating func resolveSender(_ sender: BluetoothAddress) -> ResolvedSender {
        var result = ResolvedSender(filterAcceptList: filterAcceptList)
        guard addressResolutionEnabled else { return result }
        if let index = resolvingList.resolve(sender) {
            let identity = resolvingList.entries[index].peerIdentity
            result.identity = identity
            if filterAcceptList.contains(device: identity) {
                result.filterAcceptList.append(FilterAcceptListEntry(addressType: .random, address: sender))
            }
        } else if let entry = resolvingList.entry(for: sender), entry.peerIRK != 0, entry.privacyMode == .network {
            result.ignored = true
        }
        return result
    }

    /// `initiator` as it sees a PDU from `sender` whose identity is `identity`: aimed at the
    /// private address when the Create Connection names the identity.
    static func initiator(_ initiator: Initiator, seeing sender: BluetoothAddress, as identity: BluetoothAddress?) -> Initiator {
        guard let identity, let target = initiatingPeer(initiator.command),
              target.value == identity.value, target.kind == identity.kind else { return initiator }
        var view = initiator
        view.command.peerAddress = sender
        view.command.peerAddressType = .random
        return view
    }

    /// Advertising reports of `effects` with each resolved sender replaced by its identity
    /// and the identity types 0x02/0x03 (§7.7.65.2).
    static func reportingIdentity(_ effects: [LinkEffect], sender: BluetoothAddress, identity: BluetoothAddress?) -> [LinkEffect] {
        guard let identity else { return effects }
        return effects.map { effect in
            guard case var .event(.leMeta(.advertisingReport(event))) = effect else { return effect }
            for index in event.reports.indices where event.reports[index].address == sender {
                event.reports[index].address = identity
                event.reports[index].addressType = identity.kind == .public ? .publicIdentity : .randomIdentity
            }
            return .event(.leMeta(.advertisingReport(event)))
        }
    }

    /// The addresses a Connection Complete reports for a new link (§7.7.65.10): the peer's
    /// identity (types 0x02/0x03) when its private address resolves, and the private
    /// addresses used on each side (zeros when none).
    mutating func connectionAddresses(local: BluetoothAddress, peer: BluetoothAddress) -> ConnectionAddresses {
        let zero = BluetoothAddress(0, kind: .random)
        var result = ConnectionAddresses(
            peer: peer, peerType: peer.kind == .public ? .public : .random, localPrivate: zero, peerPrivate: zero)
        guard addressResolutionEnabled else { return result }
        if resolvingList.entries.contains(where: { $0.localAddress == local }) { result.localPrivate = local }
        if let index = resolvingList.resolve(peer) {
            let identity = resolvingList.entries[index].peerIdentity
            result.peer = identity
            result.peerType = identity.kind == .public ? .publicIdentity : .randomIdentity
            result.peerPrivate = peer
        }
        return result
    }
}

/// The peer and private addresses of a new connection as LE (Enhanced) Connection Complete
/// reports them (Core 5.4, Vol 4, Part E, §7.7.65.1 and §7.7.65.10).
struct ConnectionAddresses: Hashable, Sendable {
    /// The peer's identity when resolved, else the address it connected with.
    var peer: BluetoothAddress
    /// Peer_Address_Type: 0x02/0x03 for a resolved identity.
    var peerType: HCI.AddressType
    /// Local_Resolvable_Private_Address, zeros when we used none.
    var localPrivate: BluetoothAddress
    /// Peer_Resolvable_Private_Address, zeros when the peer's address was not resolved.
    var peerPrivate: BluetoothAddress
}

extension Controller {
    /// When our private addresses are next due while an activity uses one (§7.8.45).
    var privateAddressDeadline: Microseconds? {
        guard usesPrivateAddress else { return nil }
        return resolvingList.nextGeneration(timeout: resolvablePrivateAddressTimeout)
    }

    /// Whether resolution is on and advertising (legacy or a set) or scanning runs on one of
    /// our private addresses (an initiator keeps its address until it connects or is cancelled).
    private var usesPrivateAddress: Bool {
        guard addressResolutionEnabled else { return false }
        let ours = Set(resolvingList.entries.compactMap(\.localAddress))
        return advertiser.map { ours.contains($0.ownAddress) } ?? false || scanner.map { ours.contains($0.ownAddress) } ?? false
            || setsUse(ours)
    }

    /// RPA_Timeout passed: new private addresses, and an advertiser or scanner using an old
    /// one starts again on its new one (Vol 6, Part B, §6: the address changes each
    /// timeout), as if the host had disabled and enabled it.
    mutating func privateAddressTimerFired() {
        guard let due = privateAddressDeadline, due <= now else { return }
        let old = resolvingList.entries.map { ($0.peerIdentity, $0.localAddress) }
        refreshLocalAddresses()
        func replacement(for address: BluetoothAddress) -> BluetoothAddress? {
            guard let identity = old.first(where: { $0.1 == address })?.0 else { return nil }
            return resolvingList.entry(for: identity)?.localAddress
        }
        if let active = advertiser, let address = replacement(for: active.ownAddress) {
            // A legacy-PDU set's advertiser carries the set's data, not the legacy commands'.
            let set = legacyAdvertisingSet.flatMap { run in advertisingSets.first { $0.handle == run.handle } }
            advertiser = LegacyAdvertiser(
                parameters: active.parameters, ownAddress: address, advertisingData: set?.data ?? advertisingData,
                scanResponseData: set?.scanResponseData ?? scanResponseData, txPowerDBm: configuration.txPowerDBm, now: now,
                supportsChannelSelection2: configuration.claimsChannelSelectionAlgorithm2)
        }
        var renewed: [BluetoothAddress: BluetoothAddress] = [:]
        for (identity, address) in old {
            if let address, let new = resolvingList.entry(for: identity)?.localAddress { renewed[address] = new }
        }
        renewSetAddresses(renewed)
        if let active = scanner, let address = replacement(for: active.ownAddress) {
            scanner = LegacyScanner(
                parameters: active.parameters, ownAddress: address, filterDuplicates: active.filterDuplicates,
                txPowerDBm: configuration.txPowerDBm, now: now)
        }
    }
}
