import BLEWire

extension L2CAPLink {
    /// Peripheral: asks the central for new connection parameters with a Connection
    /// Parameter Update Request (Core 5.4, Vol 3, Part A, §4.20). The answer arrives as
    /// ``L2CAPOutput/connectionParameterUpdateAnswered(accepted:)``; a Command Reject or
    /// the RTX timeout also answer `false`.
    ///
    /// A central may not send this request (§4.20); called on a central it sends nothing
    /// and answers `false` at once so the caller is never left waiting.
    /// - Parameters:
    ///   - intervalMin: minimum connection interval, units of 1.25 ms (6–3200).
    ///   - intervalMax: maximum connection interval, units of 1.25 ms (6–3200).
    ///   - latency: peripheral latency in connection events (0–499).
    ///   - timeout: supervision timeout, units of 10 ms (10–3200).
    ///   - now: the current time, which starts the RTX timer.
    /// - Returns: the request's C-frame, or the immediate refusal on a central.
    public mutating func requestConnectionParameterUpdate(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16,
                                                          timeout: UInt16, at now: HostTime) -> [L2CAPOutput] {
        guard role == .peripheral else { return [.connectionParameterUpdateAnswered(accepted: false)] }
        let request = L2CAP.ConnectionParameterUpdateRequest(intervalMin: intervalMin, intervalMax: intervalMax,
                                                             latency: latency, timeout: timeout)
        return [sendRequest(.parameterUpdate, at: now) { .connectionParameterUpdateRequest(identifier: $0, request) }]
    }

    /// Central: answers a request reported by
    /// ``L2CAPOutput/connectionParameterUpdateRequested(intervalMin:intervalMax:latency:timeout:identifier:)``
    /// with a Connection Parameter Update Response (§4.21). On acceptance the host itself
    /// then sends HCI LE Connection Update.
    /// - Parameters:
    ///   - identifier: the identifier the request event carried.
    ///   - accept: result 0x0000 (accepted) or 0x0001 (rejected).
    /// - Returns: the response's C-frame, or nothing when no request with that identifier
    ///   waits for an answer (already answered, or never asked).
    public mutating func answerConnectionParameterUpdate(identifier: UInt8, accept: Bool) -> [L2CAPOutput] {
        guard let index = parameterUpdatesAwaitingAnswer.firstIndex(of: identifier) else { return [] }
        parameterUpdatesAwaitingAnswer.remove(at: index)
        let response = L2CAP.ConnectionParameterUpdateResponse(result: accept ? .accepted : .rejected)
        return [signalingFrame(.connectionParameterUpdateResponse(identifier: identifier, response))]
    }

    /// Whether a request's values are ones the central may apply (§4.20, and the HCI LE
    /// Connection Update rule of Vol 4, Part E, §7.8.18): intervals 6–3200 with min ≤ max,
    /// latency 0–499, timeout 10–3200, and the supervision timeout longer than
    /// (1 + latency) × intervalMax × 2, i.e. timeout × 10 ms > (1 + latency) × max × 2.5 ms.
    public static func isValidConnectionParameterUpdate(_ request: L2CAP.ConnectionParameterUpdateRequest) -> Bool {
        let intervals: ClosedRange<UInt16> = 6 ... 3200
        guard intervals.contains(request.intervalMin), intervals.contains(request.intervalMax),
              request.intervalMin <= request.intervalMax,
              request.latency <= 499,
              (10 ... 3200).contains(request.timeout)
        else { return false }
        return Int(request.timeout) * 4 > (1 + Int(request.latency)) * Int(request.intervalMax)
    }

    /// A Connection Parameter Update Request from the peer (§4.20). A peripheral answers
    /// Command Reject "command not understood", as §4.20 requires. A central rejects
    /// out-of-range values itself (result 0x0001) and hands valid ones to the host.
    mutating func receiveConnectionParameterUpdateRequest(_ request: L2CAP.ConnectionParameterUpdateRequest,
                                                          identifier: UInt8) -> [L2CAPOutput] {
        guard role == .central else {
            return reject(code: .connectionParameterUpdateRequest, identifier: identifier, .commandNotUnderstood)
        }
        guard L2CAPLink.isValidConnectionParameterUpdate(request) else {
            counters.parameterUpdatesRejectedOutOfRange += 1
            let response = L2CAP.ConnectionParameterUpdateResponse(result: .rejected)
            return [signalingFrame(.connectionParameterUpdateResponse(identifier: identifier, response))]
        }
        if !parameterUpdatesAwaitingAnswer.contains(identifier) {
            parameterUpdatesAwaitingAnswer.append(identifier)
        }
        return [.connectionParameterUpdateRequested(intervalMin: request.intervalMin, intervalMax: request.intervalMax,
                                                    latency: request.latency, timeout: request.timeout,
                                                    identifier: identifier)]
    }

    /// The central's Connection Parameter Update Response (§4.21), matched to this
    /// device's request by identifier; an unmatched response is discarded.
    mutating func receiveConnectionParameterUpdateResponse(_ response: L2CAP.ConnectionParameterUpdateResponse,
                                                           identifier: UInt8) -> [L2CAPOutput] {
        guard takePendingRequest(identifier: identifier, where: { $0 == .parameterUpdate }) != nil else {
            counters.signalingCommandsDiscarded += 1
            return []
        }
        return [.connectionParameterUpdateAnswered(accepted: response.result == .accepted)]
    }
}
