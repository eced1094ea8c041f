import BLEWire

// Link-layer privacy for advertising sets and the extended scanner (Core 5.4, Vol 6, Part B,
// §6; Vol 4, Part E, §7.8.53, §7.7.65.13), as Controller+Privacy.swift does it for the legacy
// advertiser and scanner:
// - a set whose own address type is 0x02/0x03 advertises on our resolvable private address
//   from the local IRK of the resolving-list entry for its peer (the zero identity for an
//   undirected set); with no such entry, the public address (0x02) or the set's random
//   address (0x03). The address changes every RPA_Timeout, at the set's next PDU;
// - an extended advertising report whose address a peer IRK resolves carries the identity,
//   with type 0x02/0x03; a listed peer with an IRK advertising on its identity address in
//   network privacy mode is not reported (§7.8.77);
// - an initiator aimed at an identity connects to an AUX_ADV_IND whose AdvA that identity's
//   IRK resolves, and ignores a listed peer's identity address in network privacy mode.

extension Controller {
    /// The address set `set`'s PDUs carry, or `nil` when it needs a random address the host
    /// has not given.
    mutating func advertisingAddress(of set: AdvertisingSet) -> BluetoothAddress? {
        let type = set.parameters.ownAddressType
        if addressResolutionEnabled, type == .resolvableOrPublic || type == .resolvableOrRandom {
            refreshLocalAddresses()
            let directed = set.parameters.advertisingEventProperties.contains(.directed)
            let identity = directed ? set.parameters.peerAddress : BluetoothAddress(0, kind: .public)
            if let address = resolvingList.entry(for: identity)?.localAddress { return address }
        }
        return set.ownAddress(publicAddress: configuration.publicAddress)
    }

    /// Whether an enabled extended set advertises on one of our private addresses in
    /// `addresses`, so that RPA_Timeout matters.
    func setsUse(_ addresses: Set<BluetoothAddress>) -> Bool {
        advertisingSets.contains { $0.advertiser.map { addresses.contains($0.ownAddress) } ?? false }
    }

    /// RPA_Timeout passed: each extended set on an old private address (a key of `renewed`)
    /// takes its new one.
    mutating func renewSetAddresses(_ renewed: [BluetoothAddress: BluetoothAddress]) {
        for index in advertisingSets.indices {
            guard let old = advertisingSets[index].advertiser?.ownAddress, let new = renewed[old] else { continue }
            advertisingSets[index].advertiser?.ownAddress = new
        }
    }

    /// `effects` with each extended report's address that a peer IRK resolves replaced by
    /// the identity (types 0x02/0x03), and the reports of a listed peer with an IRK that
    /// uses its identity address in network privacy mode dropped.
    mutating func resolvingExtendedReports(_ effects: [LinkEffect]) -> [LinkEffect] {
        guard addressResolutionEnabled else { return effects }
        return effects.compactMap { effect in
            guard case var .event(.leMeta(.extendedAdvertisingReport(event))) = effect else { return effect }
            event.reports = event.reports.compactMap { report in
                var report = report
                guard report.addressType != .anonymous else { return report }
                if let index = resolvingList.resolve(report.address) {
                    let identity = resolvingList.entries[index].peerIdentity
                    report.address = identity
                    report.addressType = identity.kind == .public ? .publicIdentity : .randomIdentity
                } else if let entry = resolvingList.entry(for: report.address), entry.peerIRK != 0, entry.privacyMode == .network {
                    return nil
                }
                return report
            }
            return event.reports.isEmpty ? nil : .event(.leMeta(.extendedAdvertisingReport(event)))
        }
    }

    /// `initiator` as it sees the extended advertising PDU `pdu` (an AUX_ADV_IND carries
    /// AdvA): aimed at the private address when its Create Connection names the identity
    /// the address resolves to, with the filter accept list as it applies to the PDU, and
    /// whether the PDU is to be ignored (a listed peer's identity address in network
    /// privacy mode). Unchanged when resolution is off or the PDU carries no AdvA.
    mutating func initiatorView(
        _ initiator: Initiator, extendedPDU pdu: LL.AdvertisingPDU
    ) -> (initiator: Initiator, filterAcceptList: [FilterAcceptListEntry], ignored: Bool) {
        guard addressResolutionEnabled, case let .extended(_, bytes) = pdu.payload,
              let payload = try? LL.ExtendedAdvertisingPayload(
                  decoding: bytes, txKind: pdu.reservedBits & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public,
                  rxKind: pdu.reservedBits & LL.AdvertisingPDU.rxAddBit != 0 ? .random : .public),
              let advertiser = payload.advertiserAddress
        else { return (initiator, filterAcceptList, false) }
        let resolved = resolveSender(advertiser)
        return (Controller.initiator(initiator, seeing: advertiser, as: resolved.identity), resolved.filterAcceptList, resolved.ignored)
    }
}
