import BLEWire

extension L2CAPLink {
    /// The smallest MTU and MPS an LE credit-based channel may use (Core 5.4, Vol 3,
    /// Part A, §4.22).
    public static let minimumCreditBasedMTU: UInt16 = 23
    /// The largest MPS an LE credit-based channel may use (§4.22).
    public static let maximumCreditBasedMPS: UInt16 = 65533

    // MARK: Host requests

    /// Accepts LE credit-based connections to `psm` from now on (§4.22): each request is
    /// answered at once with these parameters and reported as
    /// ``L2CAPOutput/channelOpened(_:peerMTU:peerMPS:)``. Requests for a PSM nobody
    /// listens on are refused with 0x0002 "SPSM not supported".
    ///
    /// Out-of-range values are brought into range rather than refused: MTU at least 23,
    /// MPS 23–65 533, at least 1 initial credit (a channel with none could never receive).
    /// - Parameters:
    ///   - psm: the SPSM, 0x0001–0x00FF on LE (§4.22).
    ///   - mtu: the largest SDU this device accepts on each channel.
    ///   - mps: the largest K-frame payload this device accepts.
    ///   - initialCredits: the credits announced, and the level they are topped back up to.
    public mutating func listen(psm: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
        servers[psm] = Server(mtu: max(mtu, L2CAPLink.minimumCreditBasedMTU),
                              mps: min(max(mps, L2CAPLink.minimumCreditBasedMTU), L2CAPLink.maximumCreditBasedMPS),
                              initialCredits: max(initialCredits, 1))
    }

    /// Stops accepting connections to `psm`; channels already open stay open.
    public mutating func stopListening(psm: UInt16) {
        servers[psm] = nil
    }

    /// Opens an LE credit-based channel to `psm` with an LE Credit Based Connection
    /// Request (§4.22). The attempt ends in exactly one of ``L2CAPOutput/channelOpened(_:peerMTU:peerMPS:)``,
    /// ``L2CAPOutput/channelRefused(_:_:)`` or ``L2CAPOutput/channelClosed(_:reason:)``
    /// (Command Reject, RTX timeout, an invalid answer, or ``disconnect(_:at:)``).
    ///
    /// Parameters are brought into range as in ``listen(psm:mtu:mps:initialCredits:)``.
    /// When all 64 dynamic CIDs are taken, the returned ID has the null CID and the
    /// outputs hold a refusal with ``L2CAP/CreditBasedConnectionResult/noResourcesAvailable``.
    /// - Returns: the new channel's ID and the request's C-frame.
    public mutating func connect(psm: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16,
                                 at now: HostTime) -> (L2CAPChannelID, [L2CAPOutput]) {
        guard let localCID = allocateLocalCID() else {
            let id = L2CAPChannelID(handle: handle, localCID: .null)
            return (id, [.channelRefused(id, .noResourcesAvailable)])
        }
        let id = L2CAPChannelID(handle: handle, localCID: L2CAP.ChannelIdentifier(rawValue: localCID))
        let channel = CreditBasedChannel(id: id, psm: psm, state: .connecting,
                                         localMTU: max(mtu, L2CAPLink.minimumCreditBasedMTU),
                                         localMPS: min(max(mps, L2CAPLink.minimumCreditBasedMTU), L2CAPLink.maximumCreditBasedMPS),
                                         receiveCredits: Int(max(initialCredits, 1)),
                                         holdLimit: configuration.receiveHoldLimit)
        channels[localCID] = channel
        let request = L2CAP.LECreditBasedConnectionRequest(spsm: psm, sourceCID: id.localCID, mtu: channel.localMTU,
                                                           mps: channel.localMPS,
                                                           initialCredits: UInt16(channel.receiveCreditTarget))
        let frame = sendRequest(.connect(localCID: localCID), at: now) { .leCreditBasedConnectionRequest(identifier: $0, request) }
        return (id, [frame])
    }

    /// Sends an SDU on an open channel: segmented into K-frames of at most the peer's MPS
    /// (the first carrying the SDU Length), one credit per K-frame (§3.4.3, §10.1). What
    /// the credits do not cover is queued and sent as credits arrive; the first time a
    /// send leaves SDUs queued the outputs include ``L2CAPOutput/sendBlocked(_:)``, and
    /// ``L2CAPOutput/sendResumed(_:)`` follows when the queue has drained.
    /// - Returns: the K-frames to send now and back-pressure events, or
    ///   ``L2CAPOutput/sendRejected(_:_:)`` when the channel is not open or the SDU
    ///   exceeds the peer's MTU.
    public mutating func send(sdu: [UInt8], on channel: L2CAPChannelID, at now: HostTime) -> [L2CAPOutput] {
        let cid = channel.localCID.rawValue
        guard channel.handle == handle, var state = channels[cid], state.state == .open else {
            return [.sendRejected(channel, .channelNotOpen)]
        }
        guard sdu.count <= Int(state.peerMTU) else {
            return [.sendRejected(channel, .sduExceedsPeerMTU(peerMTU: state.peerMTU))]
        }
        channels[cid] = nil  // keep the queue uniquely referenced while it changes
        state.enqueue(sdu)
        counters.sdusSent += 1
        var outputs: [L2CAPOutput] = []
        state.drain(into: &outputs, counters: &counters)
        channels[cid] = state
        return outputs
    }

    /// Closes a channel from this side (§4.6). The host is told at once with
    /// ``L2CAPOutput/channelClosed(_:reason:)`` (``L2CAPCloseReason/localRequest``); the
    /// CID stays reserved until the peer's Disconnection Response or the RTX timeout.
    /// A channel still connecting is abandoned: a late acceptance is disconnected at once.
    /// - Returns: the Disconnection Request and the close event; nothing for a channel
    ///   that is unknown or already closing.
    public mutating func disconnect(_ channel: L2CAPChannelID, at now: HostTime) -> [L2CAPOutput] {
        let cid = channel.localCID.rawValue
        guard channel.handle == handle, var state = channels[cid] else { return [] }
        switch state.state {
        case .open:
            return closeChannel(cid, reason: .localRequest, at: now)
        case .connecting:
            state.state = .abandoned
            channels[cid] = state
            return [.channelClosed(channel, reason: .localRequest)]
        case .abandoned, .disconnecting:
            return []
        }
    }

    /// A snapshot of a channel's state, credits and queue, or `nil` when it is unknown.
    public func channelStatus(_ channel: L2CAPChannelID) -> L2CAPChannelStatus? {
        guard channel.handle == handle else { return nil }
        return channels[channel.localCID.rawValue]?.status
    }

    // MARK: Helpers

    /// The next free CID in 0x0040–0x007F, cycling so a closed channel's CID is not
    /// reused at once; `nil` when all are in use.
    mutating func allocateLocalCID() -> UInt16? {
        let range = L2CAP.ChannelIdentifier.leDynamicRange
        for _ in range {
            let candidate = nextLocalCID
            nextLocalCID = candidate >= range.upperBound ? range.lowerBound : candidate + 1
            if channels[candidate] == nil { return candidate }
        }
        return nil
    }

    /// Starts closing an open channel: tells the host why, forgets queued and partial
    /// data, and sends Disconnection Request (§4.6) with its RTX timer.
    mutating func closeChannel(_ localCID: UInt16, reason: L2CAPCloseReason, at now: HostTime) -> [L2CAPOutput] {
        guard var channel = channels[localCID], channel.state == .open, let remote = channel.remoteCID else { return [] }
        switch reason {
        case .localRequest, .peerRequest, .linkDisconnected, .requestRejected, .responseTimeout:
            break
        default:
            counters.channelsClosedForViolation += 1
        }
        channel.state = .disconnecting
        channel.discardData()
        channels[localCID] = channel
        let request = L2CAP.DisconnectionRequest(destinationCID: remote, sourceCID: channel.id.localCID)
        let frame = sendRequest(.disconnect(localCID: localCID), at: now) { .disconnectionRequest(identifier: $0, request) }
        return [.channelClosed(channel.id, reason: reason), frame]
    }

    /// Whether a peer's accepted channel parameters are ones §4.23 allows.
    static func isValidAcceptance(_ response: L2CAP.LECreditBasedConnectionResponse) -> Bool {
        response.destinationCID.isLEDynamic
            && response.mtu >= minimumCreditBasedMTU
            && (minimumCreditBasedMTU ... maximumCreditBasedMPS).contains(response.mps)
    }
}
