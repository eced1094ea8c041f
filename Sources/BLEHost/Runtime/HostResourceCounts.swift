/// How many entries each of a host's per-connection tables holds: what a peer or a long run
/// could make the host keep. Every table empties when its connections go down, so after
/// any number of connect, pair, subscribe and disconnect cycles the counts return to where
/// they started (docs/limits.md). For monitoring, and for the tests that check it.
public struct HostResourceCounts: Hashable, Sendable, CustomStringConvertible {
    /// Connection handles the HCI driver knows (it accepts ACL data only on these).
    public var driverConnections = 0
    /// L2CAP frames being reassembled from ACL fragments, and the octets they hold.
    public var framesInReassembly = 0
    /// Octets held by ``framesInReassembly``.
    public var reassemblyOctets = 0
    /// GAP connections and their encryption states.
    public var gapConnections = 0
    /// Encryption states GAP keeps, one per connection at most.
    public var gapEncryptionStates = 0
    /// Connection requests queued behind the one being made.
    public var queuedConnectionRequests = 0
    /// L2CAP links (one per connection) and the credit-based channels on them.
    public var l2capLinks = 0
    /// Credit-based channels on ``l2capLinks``.
    public var l2capChannels = 0
    /// The host's records of channels (open, opening and unread data).
    public var hostChannels = 0
    /// ATT bearers with their GATT clients, one per connection.
    public var attLinks = 0
    /// GATT procedures and indications of ours waiting on those bearers.
    public var pendingATTTransactions = 0
    /// Clients our GATT server keeps state for (MTU, CCCDs, prepared writes).
    public var gattServerClients = 0
    /// Prepared writes queued in our GATT server, over all clients.
    public var preparedWrites = 0
    /// Clients of our GATT server subscribed to at least one characteristic.
    public var subscribedClients = 0
    /// SMP pairings (running or finished) of live links.
    public var smpSessions = 0
    /// Peers the repeated-attempts rule remembers (bounded, not per connection).
    public var pairingAttemptPeers = 0
    /// Calls waiting: GAP procedures, pairings, channel opens, parameter updates,
    /// controller buffer room and disconnection drains.
    public var waiters = 0
    /// PDUs held while a link's key size is read.
    public var heldPDUs = 0
    /// Why recent links ended, by handle (bounded by the controller's handles).
    public var disconnectionReasons = 0
    /// Devices the current scan's duplicate filter remembers (bounded).
    public var scanCacheDevices = 0

    /// Every count on one line, for logs and benchmark output.
    public var description: String {
        "driver=\(driverConnections) reassembly=\(framesInReassembly)/\(reassemblyOctets)B gap=\(gapConnections) "
            + "encryption=\(gapEncryptionStates) queuedConnects=\(queuedConnectionRequests) l2cap=\(l2capLinks) "
            + "channels=\(l2capChannels)/\(hostChannels) att=\(attLinks) attPending=\(pendingATTTransactions) "
            + "gattClients=\(gattServerClients) prepared=\(preparedWrites) subscribed=\(subscribedClients) "
            + "smp=\(smpSessions) attemptPeers=\(pairingAttemptPeers) waiters=\(waiters) held=\(heldPDUs) "
            + "reasons=\(disconnectionReasons) scanCache=\(scanCacheDevices)"
    }

    /// The counts that belong to connections: zero on a host with no link and nothing
    /// pending, whatever ran before. Excludes the bounded caches that outlive links
    /// (``pairingAttemptPeers``, ``disconnectionReasons``, ``scanCacheDevices``).
    public var perConnection: [Int] {
        [driverConnections, framesInReassembly, reassemblyOctets, gapConnections, gapEncryptionStates,
         queuedConnectionRequests, l2capLinks, l2capChannels, hostChannels, attLinks, pendingATTTransactions,
         gattServerClients, preparedWrites, subscribedClients, smpSessions, waiters, heldPDUs]
    }
}

extension Host {
    /// The sizes of the host's tables now (``HostResourceCounts``).
    public var resourceCounts: HostResourceCounts {
        var counts = HostResourceCounts()
        counts.driverConnections = driver.connections.count
        let reassembly = driver.aclIn.framesInProgress
        counts.framesInReassembly = reassembly.count
        counts.reassemblyOctets = reassembly.octets
        counts.gapConnections = gap.links.count
        counts.gapEncryptionStates = gap.encryption.count
        counts.queuedConnectionRequests = gap.queued.count
        counts.l2capLinks = links.count
        counts.l2capChannels = links.values.reduce(0) { $0 + $1.channels.count }
        counts.hostChannels = channels.count
        counts.attLinks = attLinks.count
        counts.pendingATTTransactions = attLinks.values.reduce(0) { $0 + $1.procedures.count + $1.indications.count }
        counts.gattServerClients = gattServer.clients.count
        counts.preparedWrites = gattServer.clients.values.reduce(0) { $0 + $1.prepareQueue.count }
        counts.subscribedClients = gattServer.clients.values.filter { $0.record.clientConfigurations.values.contains { $0 != 0 } }.count
        counts.smpSessions = smpSessions.count
        counts.pairingAttemptPeers = pairingAttempts.trackedPeerCount
        counts.waiters = waiters.count + pairingWaiters.values.reduce(0) { $0 + $1.count } + channelOpenWaiters.count
            + parameterUpdateWaiters.count + aclRoomWaiters.values.reduce(0) { $0 + $1.count }
            + drainWaiters.values.reduce(0) { $0 + $1.count }
        counts.heldPDUs = heldUntilKeySize.values.reduce(0) { $0 + $1.count }
        counts.disconnectionReasons = lastDisconnectionReasons.count
        counts.scanCacheDevices = gap.scanFilter.rememberedDevices
        return counts
    }
}
