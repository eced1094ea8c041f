import BLEWire

extension L2CAPLink {
    /// The peer asks for a channel (Core 5.4, Vol 3, Part A, §4.22). Checked in this
    /// order, each refusal carrying zeros in the other fields (§4.23): Source CID outside
    /// 0x0040–0x007F (0x0009), Source CID already used by another of the peer's channels
    /// (0x000A), no server on the SPSM (0x0002), MTU or MPS out of range (0x000B), no free
    /// local CID (0x0004). Otherwise the channel opens at once with the server's parameters.
    mutating func receiveConnectionRequest(_ request: L2CAP.LECreditBasedConnectionRequest,
                                           identifier: UInt8) -> [L2CAPOutput] {
        func refusal(_ result: L2CAP.CreditBasedConnectionResult) -> L2CAP.LESignalingCommand {
            .leCreditBasedConnectionResponse(identifier: identifier, L2CAP.LECreditBasedConnectionResponse(
                destinationCID: .null, mtu: 0, mps: 0, initialCredits: 0, result: result))
        }
        let remote = request.sourceCID
        guard remote.isLEDynamic else { return [signalingFrame(refusal(.invalidSourceCID))] }
        guard localCIDByRemote[remote.rawValue] == nil else { return [signalingFrame(refusal(.sourceCIDAlreadyAllocated))] }
        guard let server = servers[request.spsm] else { return [signalingFrame(refusal(.spsmNotSupported))] }
        guard request.mtu >= L2CAPLink.minimumCreditBasedMTU,
              (L2CAPLink.minimumCreditBasedMTU ... L2CAPLink.maximumCreditBasedMPS).contains(request.mps)
        else { return [signalingFrame(refusal(.unacceptableParameters))] }
        guard let localCID = allocateLocalCID() else { return [signalingFrame(refusal(.noResourcesAvailable))] }

        let id = L2CAPChannelID(handle: handle, localCID: L2CAP.ChannelIdentifier(rawValue: localCID))
        var channel = CreditBasedChannel(id: id, psm: request.spsm, state: .open, localMTU: server.mtu,
                                         localMPS: server.mps, receiveCredits: Int(server.initialCredits),
                                         holdLimit: configuration.receiveHoldLimit)
        channel.remoteCID = remote
        channel.peerMTU = request.mtu
        channel.peerMPS = request.mps
        channel.sendCredits = Int(request.initialCredits)
        channels[localCID] = channel
        localCIDByRemote[remote.rawValue] = localCID
        let response = L2CAP.LECreditBasedConnectionResponse(destinationCID: id.localCID, mtu: server.mtu, mps: server.mps,
                                                             initialCredits: server.initialCredits, result: .successful)
        return [signalingFrame(.leCreditBasedConnectionResponse(identifier: identifier, response)),
                .channelOpened(id, peerMTU: request.mtu, peerMPS: request.mps)]
    }

    /// The peer's answer to this device's connection request (§4.23), matched by
    /// identifier. An acceptance with parameters §4.23 forbids, or one naming a CID the
    /// peer already uses, is disconnected at once (when the CID allows) and reported as
    /// ``L2CAPCloseReason/invalidConnectionResponse``.
    mutating func receiveConnectionResponse(_ response: L2CAP.LECreditBasedConnectionResponse, identifier: UInt8,
                                            at now: HostTime) -> [L2CAPOutput] {
        guard case let .connect(localCID)? = takePendingRequest(identifier: identifier, where: {
            if case .connect = $0 { return true } else { return false }
        }), var channel = channels[localCID] else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        guard response.result.isSuccess else {
            _ = removeChannel(localCID)
            return channel.state == .connecting ? [.channelRefused(channel.id, response.result)] : []
        }
        let remote = response.destinationCID
        let acceptable = L2CAPLink.isValidAcceptance(response) && localCIDByRemote[remote.rawValue] == nil
        guard acceptable, channel.state == .connecting else {
            var outputs: [L2CAPOutput] = []
            if channel.state == .connecting {
                counters.channelsClosedForViolation += 1
                outputs.append(.channelClosed(channel.id, reason: .invalidConnectionResponse))
            }
            guard remote.isLEDynamic, localCIDByRemote[remote.rawValue] == nil else {
                _ = removeChannel(localCID)
                return outputs
            }
            // The peer thinks the channel is open: close it, keeping the CID until answered.
            channel.state = .disconnecting
            channel.remoteCID = remote
            channels[localCID] = channel
            localCIDByRemote[remote.rawValue] = localCID
            let request = L2CAP.DisconnectionRequest(destinationCID: remote, sourceCID: channel.id.localCID)
            outputs.append(sendRequest(.disconnect(localCID: localCID), at: now) { .disconnectionRequest(identifier: $0, request) })
            return outputs
        }
        channel.state = .open
        channel.remoteCID = remote
        channel.peerMTU = response.mtu
        channel.peerMPS = response.mps
        channel.sendCredits = Int(response.initialCredits)
        channels[localCID] = channel
        localCIDByRemote[remote.rawValue] = localCID
        return [.channelOpened(channel.id, peerMTU: response.mtu, peerMPS: response.mps)]
    }

    /// The peer closes a channel (§4.6). An unknown destination CID gets Command Reject
    /// "invalid CID in request" naming both CIDs from this side; a source CID that does
    /// not match the channel's peer endpoint is silently discarded, as §4.6 requires.
    mutating func receiveDisconnectionRequest(_ request: L2CAP.DisconnectionRequest, identifier: UInt8) -> [L2CAPOutput] {
        let localCID = request.destinationCID.rawValue
        guard let channel = channels[localCID], let remote = channel.remoteCID,
              channel.state == .open || channel.state == .disconnecting
        else {
            return reject(code: .disconnectionRequest, identifier: identifier,
                          .invalidCIDInRequest(localCID: request.destinationCID, remoteCID: request.sourceCID))
        }
        guard remote == request.sourceCID else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        _ = removeChannel(localCID)
        pendingRequests.removeAll { $0.kind == .disconnect(localCID: localCID) }
        let response = L2CAP.DisconnectionResponse(destinationCID: request.destinationCID, sourceCID: request.sourceCID)
        var outputs = [signalingFrame(.disconnectionResponse(identifier: identifier, response))]
        if channel.state == .open {
            outputs.append(.channelClosed(channel.id, reason: .peerRequest))
        }
        return outputs
    }

    /// The peer confirms this device's Disconnection Request (§4.7): the CID is free.
    mutating func receiveDisconnectionResponse(_ response: L2CAP.DisconnectionResponse, identifier: UInt8) -> [L2CAPOutput] {
        let localCID = response.sourceCID.rawValue
        let matched = takePendingRequest(identifier: identifier) { [channels] kind in
            guard kind == .disconnect(localCID: localCID), let channel = channels[localCID] else { return false }
            return channel.remoteCID == response.destinationCID
        }
        guard matched != nil else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        _ = removeChannel(localCID)
        return []
    }

    /// Credits from the peer (§4.24): the CID is the peer's endpoint. Unknown or closing
    /// channels and zero credits are ignored; a total past 65 535 closes the channel
    /// (§10.1). New credits send queued K-frames.
    mutating func receiveCredits(_ indication: L2CAP.FlowControlCreditIndication, at now: HostTime) -> [L2CAPOutput] {
        guard let localCID = localCIDByRemote[indication.cid.rawValue], var channel = channels[localCID],
              channel.state == .open, indication.credits > 0
        else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        channels[localCID] = nil  // keep the queue uniquely referenced while it changes
        guard channel.addSendCredits(indication.credits) else {
            channels[localCID] = channel
            return closeChannel(localCID, reason: .creditOverflow, at: now)
        }
        var outputs: [L2CAPOutput] = []
        channel.drain(into: &outputs, counters: &counters)
        channels[localCID] = channel
        return outputs
    }

    /// A K-frame on a dynamic CID (§3.4.3): reassembled into an SDU, credits returned by
    /// the policy of ``CreditBasedChannel/creditsToReturn()``, and a broken rule closes
    /// only this channel. Frames for unknown CIDs are dropped and counted.
    mutating func receiveKFrame(_ payload: ArraySlice<UInt8>, on localCID: UInt16, at now: HostTime) -> [L2CAPOutput] {
        guard var channel = channels.removeValue(forKey: localCID) else {
            counters.unknownCIDFramesDropped += 1
            return []
        }
        guard channel.state == .open else {
            channels[localCID] = channel
            if channel.state == .disconnecting || channel.state == .abandoned {
                counters.framesDroppedOnClosingChannel += 1
            } else {
                counters.unknownCIDFramesDropped += 1
            }
            return []
        }
        counters.kFramesReceived += 1
        let reception = channel.receive(payload)
        var outputs: [L2CAPOutput] = []
        switch reception {
        case .violation(let reason):
            channels[localCID] = channel
            return closeChannel(localCID, reason: reason, at: now)
        case .incomplete:
            break
        case .complete(let sdu):
            counters.sdusReceived += 1
            if channel.holdLimit != nil { channel.heldSDUs += 1 }
            outputs.append(.sdu(sdu, channel: channel.id))
        }
        grantCredits(of: &channel, into: &outputs)
        channels[localCID] = channel
        return outputs
    }

    /// The app has read one SDU the host held for it (with
    /// ``L2CAPConfiguration/receiveHoldLimit``): credits withheld for it may go out now
    /// (§10.1). Unknown or closed channels, and channels without a hold limit, send nothing.
    public mutating func sduConsumed(on channel: L2CAPChannelID) -> [L2CAPOutput] {
        let cid = channel.localCID.rawValue
        guard channel.handle == handle, var state = channels[cid], state.state == .open, state.heldSDUs > 0 else { return [] }
        state.heldSDUs -= 1
        var outputs: [L2CAPOutput] = []
        grantCredits(of: &state, into: &outputs)
        channels[cid] = state
        return outputs
    }

    /// Sends an LE Flow Control Credit indication when the channel's policy says so (§4.24).
    private mutating func grantCredits(of channel: inout CreditBasedChannel, into outputs: inout [L2CAPOutput]) {
        guard let credits = channel.creditsToReturn() else { return }
        counters.creditsGranted += Int(credits)
        let indication = L2CAP.FlowControlCreditIndication(cid: channel.id.localCID, credits: credits)
        outputs.append(signalingFrame(.flowControlCreditIndication(identifier: allocateIdentifier(), indication)))
    }
}
