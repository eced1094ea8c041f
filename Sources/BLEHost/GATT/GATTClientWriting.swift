import BLEWire

/// Write Characteristic Value or Descriptor (Core 5.4, Vol 3, Part G, §4.9.3, §4.12.3):
/// one Write Request, the value within ATT_MTU − 3 octets.
struct WriteMachine: GATTProcedureMachine {
    var handle: ATT.Handle
    var value: [UInt8]

    func start(mtu: Int) -> GATTProcedureStep {
        guard value.count <= mtu - 3 else { return .finish(.failure(.valueTooLong(length: value.count, maximum: mtu - 3))) }
        return .send(ATT.WriteRequest(attributeHandle: handle, attributeValue: value[...]))
    }

    func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case .writeResponse: return .finish(.success(.written))
        case let .errorResponse(error): return .failed(error)
        default: return .unexpected(response)
        }
    }
}

/// Write Long (§4.9.4, §4.12.4) and Reliable Writes (§4.9.5): each value is queued on the
/// server in Prepare Write Requests of up to ATT_MTU − 5 octets; every Prepare Write
/// Response must echo handle, offset and part exactly (Part F, §3.4.6.2), else the queue
/// is cancelled with Execute Write flags 0x00 and the procedure fails. When everything is
/// prepared, Execute Write flags 0x01 writes it all at once.
struct PreparedWriteMachine: GATTProcedureMachine {
    enum Phase: Sendable {
        case preparing
        case executing
        /// Cancelling the server's queue; then fail with this error.
        case cancelling(GATTClientError)
    }

    var parts: [ATT.PrepareWriteRequest] = []
    var nextPart = 0
    var phase = Phase.preparing
    var writes: [GATTHandleValue]

    init(writes: [GATTHandleValue]) { self.writes = writes }

    mutating func start(mtu: Int) -> GATTProcedureStep {
        guard !writes.isEmpty else { return .finish(.failure(.invalidRequest("nothing to write"))) }
        let size = mtu - 5
        for write in writes {
            guard write.value.count <= Int(UInt16.max) else {
                return .finish(.failure(.valueTooLong(length: write.value.count, maximum: Int(UInt16.max))))
            }
            var offset = 0
            repeat {
                let end = min(offset + size, write.value.count)
                parts.append(ATT.PrepareWriteRequest(attributeHandle: write.handle, valueOffset: UInt16(offset),
                                                     partAttributeValue: write.value[offset ..< end]))
                offset = end
            } while offset < write.value.count
        }
        return .send(parts[0])
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch (phase, response) {
        case let (.preparing, .prepareWriteResponse(echo)):
            let sent = parts[nextPart]
            guard echo.attributeHandle == sent.attributeHandle, echo.valueOffset == sent.valueOffset,
                  echo.partAttributeValue.elementsEqual(sent.partAttributeValue) else {
                return cancel(.invalidResponse("Prepare Write Response for handle 0x\(String(sent.attributeHandle, radix: 16)) offset \(sent.valueOffset) does not echo the request"))
            }
            nextPart += 1
            guard nextPart < parts.count else {
                phase = .executing
                return .send(ATT.ExecuteWriteRequest(flags: .writeAllPendingPreparedValues))
            }
            return .send(parts[nextPart])
        case let (.preparing, .errorResponse(error)):
            return cancel(.att(error.errorCode, handle: error.attributeHandleInError))
        case (.executing, .executeWriteResponse):
            return .finish(.success(.written))
        case let (.executing, .errorResponse(error)):
            return .failed(error)
        case let (.cancelling(failure), _):
            // Whatever the server answers to the cancel, the write has failed.
            return .finish(.failure(failure))
        default:
            return cancel(.invalidResponse("unexpected \(response.opcode) response"))
        }
    }

    /// Cancels the prepared queue, then fails with `error`.
    mutating func cancel(_ error: GATTClientError) -> GATTProcedureStep {
        phase = .cancelling(error)
        return .send(ATT.ExecuteWriteRequest(flags: .cancelAllPreparedWrites))
    }
}
