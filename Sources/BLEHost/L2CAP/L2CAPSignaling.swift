import BLEWire

extension L2CAPLink {
    /// Handles one C-frame on the LE signaling channel (Core 5.4, Vol 3, Part A, §4).
    ///
    /// On LE a C-frame holds exactly one command. The rules, in order:
    /// - fewer than two octets (no code and identifier to answer): discarded;
    /// - identifier 0, which §4 forbids: discarded;
    /// - longer than MTUsig: Command Reject "signaling MTU exceeded" (§4.1);
    /// - broken framing, an unknown code, or a known code with malformed data: Command
    ///   Reject "command not understood" with the same identifier (§4.1);
    /// - a Command Reject is never answered with another, so two devices cannot loop.
    mutating func receiveSignaling(_ payload: ArraySlice<UInt8>, at now: HostTime) -> [L2CAPOutput] {
        guard payload.count >= 2 else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        let code = L2CAP.SignalingCode(rawValue: payload[payload.startIndex])
        let identifier = payload[payload.startIndex + 1]
        guard identifier != 0 else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        guard payload.count <= Int(configuration.signalingMTU) else {
            return reject(code: code, identifier: identifier, .signalingMTUExceeded(actualMTU: configuration.signalingMTU))
        }
        guard let framed = try? L2CAP.SignalingCommand(decoding: payload),
              let command = try? L2CAP.LESignalingCommand(framed)
        else {
            return reject(code: code, identifier: identifier, .commandNotUnderstood)
        }
        return dispatch(command, at: now)
    }

    /// Routes a well-formed command to its procedure.
    private mutating func dispatch(_ command: L2CAP.LESignalingCommand, at now: HostTime) -> [L2CAPOutput] {
        switch command {
        case let .commandReject(identifier, _):
            counters.commandRejectsReceived += 1
            guard let kind = takePendingRequest(identifier: identifier, where: { _ in true }) else {
                counters.signalingCommandsDiscarded += 1
                return []
            }
            var outputs: [L2CAPOutput] = []
            requestFailed(kind, reason: .requestRejected, into: &outputs)
            return outputs
        case let .disconnectionRequest(identifier, request):
            return receiveDisconnectionRequest(request, identifier: identifier)
        case let .disconnectionResponse(identifier, response):
            return receiveDisconnectionResponse(response, identifier: identifier)
        case let .connectionParameterUpdateRequest(identifier, request):
            return receiveConnectionParameterUpdateRequest(request, identifier: identifier)
        case let .connectionParameterUpdateResponse(identifier, response):
            return receiveConnectionParameterUpdateResponse(response, identifier: identifier)
        case let .leCreditBasedConnectionRequest(identifier, request):
            return receiveConnectionRequest(request, identifier: identifier)
        case let .leCreditBasedConnectionResponse(identifier, response):
            return receiveConnectionResponse(response, identifier: identifier, at: now)
        case let .flowControlCreditIndication(_, indication):
            return receiveCredits(indication, at: now)
        case .creditBasedConnectionResponse, .creditBasedReconfigureResponse:
            // This device never sends the enhanced requests, so no answer can be awaited.
            counters.signalingCommandsDiscarded += 1
            return []
        case .creditBasedConnectionRequest, .creditBasedReconfigureRequest, .unknown:
            // Enhanced Credit Based Flow Control Mode is not supported: a requester that
            // gets Command Reject falls back to the LE procedure (§4.25).
            return reject(code: command.code, identifier: command.identifier, .commandNotUnderstood)
        }
    }

    /// Command Reject with `reason` and the rejected command's identifier (§4.1), unless
    /// the rejected command is itself a Command Reject.
    mutating func reject(code: L2CAP.SignalingCode, identifier: UInt8, _ reason: L2CAP.CommandReject.Reason) -> [L2CAPOutput] {
        guard code != .commandReject else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        counters.commandRejectsSent += 1
        return [signalingFrame(.commandReject(identifier: identifier, L2CAP.CommandReject(reason: reason)))]
    }
}
