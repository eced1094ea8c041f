import BLEWire

extension ATTBearer {
    /// Queues one of our client's requests (Core 5.4, Vol 3, Part F, §3.3.2): sent at once
    /// when none is outstanding, else after the responses of those before it. Its answer
    /// comes out of ``receive(_:at:)`` as ``ATTBearerOutput/response(_:_:)`` or
    /// ``ATTBearerOutput/requestFailed(_:_:)`` with the returned identifier.
    ///
    /// An Exchange MTU Request may be sent once per connection (§3.4.2.1); its Client Rx
    /// MTU, with the server's, decides ATT_MTU when the response arrives.
    /// - Parameters:
    ///   - pdu: a request PDU, opcode first, at most ATT_MTU octets.
    ///   - now: the current time, which starts the 30-second timer if it is sent now.
    /// - Returns: the request's identifier and what to send now.
    /// - Throws: the close reason on a closed bearer; ``ATTBearerError/wrongKindOfPDU(_:)``
    ///   for anything but a known request; ``ATTBearerError/pduTooLong(length:mtu:)``;
    ///   ``ATTBearerError/mtuAlreadyExchanged`` for a second Exchange MTU Request.
    public mutating func sendRequest(_ pdu: [UInt8], at now: HostTime) throws(ATTBearerError) -> (id: ATTRequestID, outputs: [ATTBearerOutput]) {
        if let closeReason { throw closeReason }
        guard let opcode = pdu.first, ATTPDUKind.requestOpcodes.contains(opcode) else {
            throw .wrongKindOfPDU(pdu.first ?? 0)
        }
        guard pdu.count <= mtu else { throw .pduTooLong(length: pdu.count, mtu: mtu) }
        if opcode == ATT.Opcode.exchangeMTURequest.rawValue {
            guard clientRxMTUSent == nil else { throw .mtuAlreadyExchanged }
            guard let request = try? ATT.ExchangeMTURequest(decoding: pdu) else { throw .wrongKindOfPDU(opcode) }
            clientRxMTUSent = Int(request.clientRxMTU)
        }
        let id = ATTRequestID(rawValue: nextRequestNumber)
        nextRequestNumber += 1
        queuedRequests.push(Request(id: id, pdu: pdu))
        var outputs: [ATTBearerOutput] = []
        startNextRequest(at: now, into: &outputs)
        return (id, outputs)
    }

    /// Queues a request given as a PDU value; see ``sendRequest(_:at:)``.
    public mutating func sendRequest(_ pdu: some ATTPDU, at now: HostTime) throws(ATTBearerError) -> (id: ATTRequestID, outputs: [ATTBearerOutput]) {
        try sendRequest(pdu.encoded(), at: now)
    }

    /// Queues our client's Exchange MTU Request with the configured receive MTU (§3.4.2.1).
    /// - Returns: the request's identifier and what to send now.
    /// - Throws: as ``sendRequest(_:at:)``.
    public mutating func exchangeMTU(at now: HostTime) throws(ATTBearerError) -> (id: ATTRequestID, outputs: [ATTBearerOutput]) {
        try sendRequest(ATT.ExchangeMTURequest(clientRxMTU: UInt16(configuration.receiveMTU)), at: now)
    }

    /// Sends a command (Write Command §3.4.5.3, Signed Write Command §3.4.5.4) at once: it
    /// is not a transaction and gets no answer.
    /// - Returns: the PDU to send.
    /// - Throws: the close reason on a closed bearer; ``ATTBearerError/wrongKindOfPDU(_:)``
    ///   when the command flag is not set; ``ATTBearerError/pduTooLong(length:mtu:)``.
    public mutating func sendCommand(_ pdu: [UInt8]) throws(ATTBearerError) -> [ATTBearerOutput] {
        if let closeReason { throw closeReason }
        guard let opcode = pdu.first, ATT.Opcode(rawValue: opcode).isCommand else { throw .wrongKindOfPDU(pdu.first ?? 0) }
        guard pdu.count <= mtu else { throw .pduTooLong(length: pdu.count, mtu: mtu) }
        return [emit(pdu)]
    }

    /// Sends a Handle Value Notification or Multiple Handle Value Notification at once
    /// (§3.4.7.1, §3.4.7.4): not a transaction, no answer.
    /// - Returns: the PDU to send.
    /// - Throws: the close reason on a closed bearer; ``ATTBearerError/wrongKindOfPDU(_:)``;
    ///   ``ATTBearerError/pduTooLong(length:mtu:)``.
    public mutating func sendNotification(_ pdu: [UInt8]) throws(ATTBearerError) -> [ATTBearerOutput] {
        if let closeReason { throw closeReason }
        guard let opcode = pdu.first, opcode == ATT.Opcode.handleValueNotification.rawValue
            || opcode == ATT.Opcode.multipleHandleValueNotification.rawValue else { throw .wrongKindOfPDU(pdu.first ?? 0) }
        guard pdu.count <= mtu else { throw .pduTooLong(length: pdu.count, mtu: mtu) }
        return [emit(pdu)]
    }

    /// Queues one of our server's Handle Value Indications (§3.4.7.2): sent at once when
    /// none is outstanding, else after the confirmations of those before it; the
    /// confirmation or failure comes out with the returned identifier.
    /// - Parameters:
    ///   - pdu: a Handle Value Indication, at most ATT_MTU octets.
    ///   - now: the current time, which starts the 30-second timer if it is sent now.
    /// - Returns: the indication's identifier and what to send now.
    /// - Throws: the close reason on a closed bearer; ``ATTBearerError/wrongKindOfPDU(_:)``;
    ///   ``ATTBearerError/pduTooLong(length:mtu:)``.
    public mutating func sendIndication(_ pdu: [UInt8], at now: HostTime) throws(ATTBearerError) -> (id: ATTIndicationID, outputs: [ATTBearerOutput]) {
        if let closeReason { throw closeReason }
        guard pdu.first == ATT.Opcode.handleValueIndication.rawValue else { throw .wrongKindOfPDU(pdu.first ?? 0) }
        guard pdu.count <= mtu else { throw .pduTooLong(length: pdu.count, mtu: mtu) }
        let id = ATTIndicationID(rawValue: nextIndicationNumber)
        nextIndicationNumber += 1
        queuedIndications.push(Indication(id: id, pdu: pdu))
        var outputs: [ATTBearerOutput] = []
        startNextIndication(at: now, into: &outputs)
        return (id, outputs)
    }

    /// Sends our server's answer to the peer's outstanding request (§3.3.2): a response
    /// or an Error Response. Ends that transaction, so the peer's next request is accepted.
    /// - Returns: the PDU to send; nothing when the bearer is closed or no request of the
    ///   peer is waiting (a response nobody asked for would confuse the peer's client).
    public mutating func sendResponse(_ pdu: [UInt8]) -> [ATTBearerOutput] {
        guard !isClosed, peerRequestOutstanding else { return [] }
        peerRequestOutstanding = false
        return [emit(pdu)]
    }

    /// Confirms the indication the peer sent last (§3.4.7.3), once the layer above accepted it.
    /// - Returns: the Handle Value Confirmation to send; nothing when no indication awaits
    ///   confirmation, so each indication is confirmed exactly once.
    public mutating func confirmIndication() -> [ATTBearerOutput] {
        guard !isClosed, indicationAwaitingConfirmation else { return [] }
        indicationAwaitingConfirmation = false
        return [emit(ATT.HandleValueConfirmation().encoded())]
    }
}
