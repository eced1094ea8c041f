import BLEWire

// PDUs from the peer longer than ATT_MTU. "ATT_MTU: the maximum size of any packet sent
// between a client and a server" (Core 5.4, Vol 3, Part F, §3.2.8): a server that sends more
// breaks the protocol, and a client that took the PDU would hold more than it agreed to.

extension ATTBearer {
    /// Refuses `pdu`, longer than ATT_MTU, when it is a response, notification or indication
    /// (requests and commands go to the GATT server, which answers an overlong request with
    /// Invalid PDU): a response or Error Response that answers our outstanding request fails
    /// it with ``ATTBearerError/pduTooLong(length:mtu:)``; a notification is dropped; an
    /// indication is dropped and confirmed at once, so the peer's transaction ends, as for a
    /// malformed one. Each is counted in ``ATTBearerCounters/oversizedPDUsReceived``.
    /// - Returns: what to send and deliver, or `nil` for a PDU this does not refuse.
    mutating func receiveOversized(_ pdu: [UInt8], kind: ATTPDUKind, at now: HostTime) -> [ATTBearerOutput]? {
        switch kind {
        case .response:
            counters.oversizedPDUsReceived += 1
            let opcode = pdu[0]
            let answered = opcode == ATT.Opcode.errorResponse.rawValue ? pdu.count > 1 ? pdu[1] : nil : opcode &- 1
            guard let request = outstandingRequest, answered == request.opcode else {
                counters.unmatchedResponsesIgnored += 1
                return []
            }
            outstandingRequest = nil
            var outputs: [ATTBearerOutput] = [.requestFailed(request.id, .pduTooLong(length: pdu.count, mtu: mtu))]
            startNextRequest(at: now, into: &outputs)
            return outputs
        case .notification, .multipleNotification:
            counters.oversizedPDUsReceived += 1
            return []
        case .indication:
            counters.oversizedPDUsReceived += 1
            guard !indicationAwaitingConfirmation else {
                counters.protocolViolations += 1
                return []
            }
            return [emit(ATT.HandleValueConfirmation().encoded())]
        case .request, .command, .confirmation:
            return nil
        }
    }
}
