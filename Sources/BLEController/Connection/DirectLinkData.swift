import BLEWire

/// Connection data on an airtime-free ideal link (``ControllerConfiguration/airtimeFreeData``),
/// the counterpart of Bumble's LocalLink: a host ACL packet, cut into LL data PDU payloads
/// of at most the connection's effective maximum transmit octets (Core 5.4, Vol 6, Part B,
/// §4.5.10), goes from one controller to its peer's at once instead of in connection
/// events. Everything the host sees stays real: the sending controller takes the packet
/// into an LE ACL buffer and reports it in Number Of Completed Packets (Vol 4, Part E,
/// §7.7.19) once the peer has it; the receiving controller hands it to its host as ACL data
/// of at most its LE ACL buffer size (§5.4.2). Only the air is left out.
///
/// Completions are reported as a controller on the air reports them, several to an event
/// (§7.7.19 leaves the timing to the controller): once half the LE ACL buffers are
/// completed and unreported, or 1 µs of the world's time after the first of them, whichever
/// comes first. A sender that keeps the buffers busy is never held up by it, and a burst
/// costs its host one event per half a buffer pool, not one per packet.
public struct DirectLinkData: Hashable, Sendable {
    /// One LL data PDU's payload: `startsMessage` is LLID 0b10 (start of an L2CAP message),
    /// else 0b01 (continuation), Vol 6, Part B, §2.4.
    public struct Fragment: Hashable, Sendable {
        /// Whether the PDU starts an L2CAP message (LLID 0b10) rather than continuing one.
        public var startsMessage: Bool
        /// The PDU's payload: at most the sender's effective maximum transmit octets.
        public var payload: ArraySlice<UInt8>
    }

    /// The connection's access address, which both ends share (Vol 6, Part B, §2.1.2).
    public var accessAddress: UInt32
    /// The PDUs, in order.
    public var fragments: [Fragment]
}

extension LinkLayerConnection {
    /// `packet` as PDUs for the peer of the link in `slot`, or `nil` when it must take the
    /// air: empty, or the link is closing or pausing data for an encryption procedure
    /// (§5.1.3), or data already queued for the air would be overtaken. The link is read
    /// field by field in place: a method called on it through the pointer made the compiler
    /// copy the whole connection, queues included, for every packet.
    static func directLinkData(at slot: UnsafePointer<Controller.ConnectionSlot>, for packet: HCI.ACLPacket) -> DirectLinkData? {
        guard !packet.data.isEmpty, slot.pointee.link.terminating == nil, !slot.pointee.link.encryption.inProgress,
              slot.pointee.link.hostQueueHead >= slot.pointee.link.hostQueue.count else { return nil }
        let size = maximumTransmitPayload(
            octets: min(slot.pointee.link.localMaxTxOctets, slot.pointee.link.remoteMaxRxOctets),
            time: slot.pointee.link.effectiveMaxTxTime,
            encrypted: slot.pointee.link.encryption.transmitEncrypted, phy: slot.pointee.link.txPHY)
        var fragments: [DirectLinkData.Fragment] = []
        fragments.reserveCapacity((packet.data.count + size - 1) / size)
        var position = packet.data.startIndex
        while position < packet.data.endIndex {
            let end = min(position + size, packet.data.endIndex)
            let starts = position == packet.data.startIndex && packet.packetBoundary != .continuing
            fragments.append(DirectLinkData.Fragment(startsMessage: starts, payload: packet.data[position ..< end]))
            position = end
        }
        return DirectLinkData(accessAddress: slot.pointee.link.accessAddress, fragments: fragments)
    }
}

extension Controller {
    /// Hands `data` (one host ACL packet of the connection at `index`) to the peer and
    /// completes the packet: on an ideal link the peer has it as soon as it is sent. The
    /// completion is reported with others (see ``DirectLinkData``).
    mutating func sendDirectly(_ data: DirectLinkData, connectionAt index: Int, into outputs: inout [ControllerOutput]) {
        outputs.append(.linkData(data))
        connections[index].directCompletions += 1
        // The deadline stays put while a burst goes on (a report at half the buffers leaves
        // it): a deadline that moved with every packet would reschedule the world's timer
        // for this controller every time. When it comes, it reports whatever is left.
        if directCompletionsDue == nil { directCompletionsDue = now + 1 }
        // Read in place: the array's getter would copy the whole connection first.
        if readingSlots({ $0.inPlace(index).pointee.directCompletions }) >= max(1, configuration.leACLBufferCount / 2) {
            reportDirectCompletions(into: &outputs)
        }
    }

    /// Reports every connection's unreported direct completions in one Number Of Completed
    /// Packets event (§7.7.19: one entry per handle); nothing when none are waiting.
    mutating func reportDirectCompletions(into outputs: inout [ControllerOutput]) {
        var entries: [HCI.NumberOfCompletedPackets.Entry] = []
        readingSlots { slots in
            for index in slots.indices where slots.inPlace(index).pointee.directCompletions > 0 {
                entries.append(HCI.NumberOfCompletedPackets.Entry(
                    connectionHandle: slots.inPlace(index).pointee.link.handleValue,
                    numCompletedPackets: UInt16(clamping: slots.inPlace(index).pointee.directCompletions)))
            }
        }
        for index in connections.indices { connections[index].directCompletions = 0 }
        guard !entries.isEmpty else { return }
        emit(.numberOfCompletedPackets(HCI.NumberOfCompletedPackets(entries: entries)), into: &outputs)
    }

    /// Data from the peer of one of this controller's connections over an airtime-free
    /// link: its ACL packets for the host. Data for no connection of ours is ignored.
    public mutating func receiveLinkData(_ data: DirectLinkData, at now: Microseconds) -> [ControllerOutput] {
        self.now = max(self.now, now)
        guard let index = connections.firstIndex(where: { $0.request.accessAddress == data.accessAddress }) else { return [] }
        var delivered: [ConnectionOutput] = []
        for fragment in data.fragments {
            connections[index].link.deliverToHost(fragment.payload, startsMessage: fragment.startsMessage, into: &delivered)
        }
        var outputs: [ControllerOutput] = []
        outputs.reserveCapacity(delivered.count)
        for case let .aclToHost(packet) in delivered { outputs.append(.hci(.acl(packet))) }
        return outputs
    }
}
