import BLEWire

/// The kinds of ATT PDU by opcode (Core 5.4, Vol 3, Part F, §3.3.1, §3.4.8 Table 3.37).
enum ATTPDUKind: Hashable, Sendable {
    /// A request (or an opcode nobody knows without the command flag, which a server
    /// answers with Request Not Supported).
    case request
    /// A command: the command flag is set.
    case command
    /// A response; Error Response says which request it answers inside.
    case response
    case notification
    case multipleNotification
    case indication
    case confirmation

    /// The response opcodes, each one more than its request's.
    static let responseOpcodes: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21]
    /// The request opcodes this stack knows.
    static let requestOpcodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]

    init(opcode: UInt8) {
        switch opcode {
        case 0x1B: self = .notification
        case 0x23: self = .multipleNotification
        case 0x1D: self = .indication
        case 0x1E: self = .confirmation
        case _ where ATTPDUKind.responseOpcodes.contains(opcode): self = .response
        case _ where ATT.Opcode(rawValue: opcode).isCommand: self = .command
        default: self = .request
        }
    }
}

extension ATTBearer {
    /// Takes one ATT PDU the peer sent on the Attribute Protocol channel.
    ///
    /// - A response or Error Response that answers our outstanding request completes it
    ///   and sends the next queued one; one that answers nothing is ignored and counted.
    ///   A response with the right opcode that cannot be decoded fails the request with
    ///   ``ATTBearerError/malformedResponse(_:)``.
    /// - A request goes up as ``ATTBearerOutput/incomingRequest(_:)`` undecoded (the server
    ///   answers malformed ones with Invalid PDU); a second one before our response breaks
    ///   §3.3.2 and is ignored. Exchange MTU Request is answered here.
    /// - Write Command and Signed Write Command go up as ``ATTBearerOutput/incomingCommand(_:)``;
    ///   other commands are ignored (§3.3.1).
    /// - Notifications and indications go up decoded; a malformed notification is dropped,
    ///   a malformed indication is dropped but confirmed at once so the peer's transaction
    ///   ends. An indication before we confirmed the previous one is ignored.
    /// - A confirmation completes our outstanding indication and sends the next queued one.
    /// - A response, notification or indication longer than ATT_MTU is refused
    ///   (ATTBearer+Oversized.swift).
    ///
    /// After the bearer closed every PDU is ignored.
    /// - Parameters:
    ///   - pdu: the ATT PDU, opcode first.
    ///   - now: the current time, for the timer of a request or indication this may send.
    /// - Returns: what to send and deliver, in order.
    public mutating func receive(_ pdu: [UInt8], at now: HostTime) -> [ATTBearerOutput] {
        counters.pdusReceived += 1
        guard !isClosed else {
            counters.pdusIgnoredAfterClose += 1
            return []
        }
        guard let opcode = pdu.first else {
            counters.malformedPDUsReceived += 1
            return []
        }
        let kind = ATTPDUKind(opcode: opcode)
        if pdu.count > mtu, let refused = receiveOversized(pdu, kind: kind, at: now) { return refused }
        switch kind {
        case .request:
            return receiveRequest(pdu, opcode: opcode)
        case .command:
            guard opcode == ATT.Opcode.writeCommand.rawValue || opcode == ATT.Opcode.signedWriteCommand.rawValue else {
                counters.unknownCommandsIgnored += 1
                return []
            }
            return [.incomingCommand(pdu)]
        case .response:
            return receiveResponse(pdu, opcode: opcode, at: now)
        case .notification:
            guard let notification = try? ATT.HandleValueNotification(decoding: pdu) else {
                counters.malformedPDUsReceived += 1
                return []
            }
            return [.notification(notification)]
        case .multipleNotification:
            guard let notification = try? ATT.MultipleHandleValueNotification(decoding: pdu) else {
                counters.malformedPDUsReceived += 1
                return []
            }
            return [.multipleNotification(notification)]
        case .indication:
            guard !indicationAwaitingConfirmation else {
                counters.protocolViolations += 1
                return []
            }
            guard let indication = try? ATT.HandleValueIndication(decoding: pdu) else {
                counters.malformedPDUsReceived += 1
                return [emit(ATT.HandleValueConfirmation().encoded())]
            }
            indicationAwaitingConfirmation = true
            return [.indication(indication)]
        case .confirmation:
            guard let indication = outstandingIndication, pdu.count == 1 else {
                counters.unmatchedResponsesIgnored += 1
                return []
            }
            outstandingIndication = nil
            var outputs: [ATTBearerOutput] = [.indicationConfirmed(indication.id)]
            startNextIndication(at: now, into: &outputs)
            return outputs
        }
    }

    private mutating func receiveRequest(_ pdu: [UInt8], opcode: UInt8) -> [ATTBearerOutput] {
        guard !peerRequestOutstanding else {
            counters.protocolViolations += 1
            return []
        }
        guard opcode == ATT.Opcode.exchangeMTURequest.rawValue else {
            peerRequestOutstanding = true
            return [.incomingRequest(pdu)]
        }
        // Exchange MTU is ATT's own business (§3.4.2): answer with our receive MTU and
        // apply the smaller of the two after the response is sent.
        guard let request = try? ATT.ExchangeMTURequest(decoding: pdu) else {
            let error = ATT.ErrorResponse(requestOpcodeInError: .exchangeMTURequest, attributeHandleInError: 0, errorCode: .invalidPDU)
            return [emit(error.encoded())]
        }
        var outputs = [emit(ATT.ExchangeMTUResponse(serverRxMTU: UInt16(configuration.receiveMTU)).encoded())]
        if !peerExchangedMTU {
            peerExchangedMTU = true
            applyMTU(clientRx: Int(request.clientRxMTU), serverRx: configuration.receiveMTU, into: &outputs)
        }
        return outputs
    }

    private mutating func receiveResponse(_ pdu: [UInt8], opcode: UInt8, at now: HostTime) -> [ATTBearerOutput] {
        guard let request = outstandingRequest else {
            counters.unmatchedResponsesIgnored += 1
            return []
        }
        var outputs: [ATTBearerOutput] = []
        if opcode == ATT.Opcode.errorResponse.rawValue {
            let decoded: ATT.ErrorResponse
            do {
                decoded = try ATT.ErrorResponse(decoding: pdu)
            } catch {
                // Only fail our request when the broken Error Response may be naming it.
                guard pdu.count < 2 || pdu[1] == request.opcode else {
                    counters.unmatchedResponsesIgnored += 1
                    counters.malformedPDUsReceived += 1
                    return []
                }
                outstandingRequest = nil
                outputs.append(.requestFailed(request.id, .malformedResponse(error)))
                startNextRequest(at: now, into: &outputs)
                return outputs
            }
            guard decoded.requestOpcodeInError.rawValue == request.opcode else {
                counters.unmatchedResponsesIgnored += 1
                return []
            }
            outstandingRequest = nil
            outputs.append(.response(request.id, .errorResponse(decoded)))
        } else {
            guard opcode == request.opcode &+ 1 else {
                counters.unmatchedResponsesIgnored += 1
                return []
            }
            outstandingRequest = nil
            do {
                let decoded = try ATT.PDU(decoding: pdu)
                if case let .exchangeMTUResponse(response) = decoded, let clientRx = clientRxMTUSent {
                    applyMTU(clientRx: clientRx, serverRx: Int(response.serverRxMTU), into: &outputs)
                }
                outputs.append(.response(request.id, decoded))
            } catch {
                outputs.append(.requestFailed(request.id, .malformedResponse(error)))
            }
        }
        startNextRequest(at: now, into: &outputs)
        return outputs
    }

    /// ATT_MTU becomes the smaller receive MTU, never below 23 (§3.4.2.2).
    private mutating func applyMTU(clientRx: Int, serverRx: Int, into outputs: inout [ATTBearerOutput]) {
        let agreed = max(ATTBearerConfiguration.defaultMTU, min(clientRx, serverRx))
        guard agreed != mtu else { return }
        mtu = agreed
        outputs.append(.mtuChanged(agreed))
    }
}
