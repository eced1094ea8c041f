import BLEWire

// Connectable extended advertising sets (Core 5.4, Vol 4, Part E, §7.8.53–§7.8.56; Vol 6,
// Part B, §4.4.2.8): what the commands accept, and the connection an AUX_CONNECT_REQ opens.

extension Controller {
    /// Why extended (non-legacy) Advertising_Event_Properties are refused, or `nil` if the
    /// controller sends them: non-connectable and non-scannable, or connectable undirected or
    /// directed, or scannable undirected, each with TxPower or not. Connectable and scannable at
    /// once, and high duty cycle directed, are not allowed with extended PDUs (§7.8.53);
    /// scannable directed and anonymous sets are not modelled. All are Invalid HCI Command
    /// Parameters.
    static func extendedPropertiesRefusal(_ properties: HCI.AdvertisingEventProperties) -> HCI.StatusCode? {
        let allowed: HCI.AdvertisingEventProperties = [.connectable, .scannable, .directed, .includeTxPower]
        guard properties.subtracting(allowed).isEmpty, !properties.isSuperset(of: [.connectable, .scannable]) else {
            return .invalidHCICommandParameters
        }
        if properties.contains(.directed), !properties.contains(.connectable) { return .invalidHCICommandParameters }
        return nil
    }

    /// The most advertising data a connectable extended set holds: what fits in its one
    /// AUX_ADV_IND beside AdvA, ADI, TargetA when directed and TxPower when asked for, since a
    /// connectable AUX_ADV_IND carries no AuxPtr (Vol 6, Part B, §2.3.4 and §4.4.2.8): 245
    /// octets undirected. More is Packet Too Long (0x45), the status §7.8.53 and §7.8.54 give
    /// for data that cannot be sent in the longest auxiliary segment the parameters allow.
    static func maximumConnectableDataLength(_ properties: HCI.AdvertisingEventProperties) -> Int {
        let header = 1 + 1 + 6 + 2 + (properties.contains(.directed) ? 6 : 0) + (properties.contains(.includeTxPower) ? 1 : 0)
        return LL.ExtendedAdvertisingPayload.maximumLength - header
    }

    /// Whether `set` is a connectable extended set.
    static func isConnectableExtended(_ set: AdvertisingSet) -> Bool {
        !set.usesLegacyPDUs && set.parameters.advertisingEventProperties.contains(.connectable)
    }

    /// An AUX_CONNECT_REQ from the air (a CONNECT_IND-type PDU on a secondary channel): the
    /// connectable set whose AUX_ADV_IND it answers accepts it.
    mutating func receiveAuxiliaryConnectRequest(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, filterAcceptList: [FilterAcceptListEntry],
        into outputs: inout [ControllerOutput]
    ) {
        for index in advertisingSets.indices {
            guard var active = advertisingSets[index].advertiser, active.isConnectable else { continue }
            let refusedBefore = active.refusedConnectRequests
            let effects = active.receiveConnectRequest(pdu, reception, at: now, filterAcceptList: filterAcceptList)
            counters.invalidConnectIndications += active.refusedConnectRequests - refusedBefore
            advertisingSets[index].advertiser = active
            if !effects.isEmpty {
                apply(effects, into: &outputs)
                return
            }
        }
    }

    /// Ends the extended set `setHandle` that a connection ended: LE Advertising Set
    /// Terminated with Success, the connection's handle and the events it sent (§7.7.65.18).
    mutating func endExtendedSet(_ setHandle: UInt8, connectionHandle: UInt16, into outputs: inout [ControllerOutput]) {
        guard let index = advertisingSetIndex(setHandle), let active = advertisingSets[index].advertiser else { return }
        advertisingSets[index].advertiser = nil
        emit(.leMeta(.advertisingSetTerminated(HCI.LEAdvertisingSetTerminated(
            status: .success, advertisingHandle: setHandle, connectionHandle: connectionHandle,
            numCompletedExtendedAdvertisingEvents: UInt8(clamping: active.completedEvents)))), into: &outputs)
    }
}
