extension L2CAP {
    /// One command on the LE signaling channel, CID 0x0005 (Core 5.4, Vol 3, Part A, §4),
    /// typed by its code, with the identifier that pairs requests and responses.
    ///
    /// On LE each C-frame carries exactly one command, so the host decodes the signaling
    /// channel's whole payload with ``WireDecodable/init(decoding:)``.
    ///
    /// Errors and the identifier: a code this enum does not know (including BR/EDR-only
    /// codes) decodes to ``unknown(code:identifier:data:)`` rather than throwing, so the
    /// host can answer Command Reject "command not understood" with the same identifier.
    /// A known code whose data is malformed throws a ``WireError`` naming the field. To
    /// reply to that too, decode in two steps: ``SignalingCommand`` first (it fails only
    /// when the framing itself is broken, and then no reply is possible on LE), which gives
    /// the identifier, then ``init(_:)`` on it.
    public enum LESignalingCommand: WireCodable, Hashable, Sendable {
        /// CommandReject (0x01).
        case commandReject(identifier: UInt8, CommandReject)
        /// DisconnectionRequest (0x06).
        case disconnectionRequest(identifier: UInt8, DisconnectionRequest)
        /// DisconnectionResponse (0x07).
        case disconnectionResponse(identifier: UInt8, DisconnectionResponse)
        /// ConnectionParameterUpdateRequest (0x12).
        case connectionParameterUpdateRequest(identifier: UInt8, ConnectionParameterUpdateRequest)
        /// ConnectionParameterUpdateResponse (0x13).
        case connectionParameterUpdateResponse(identifier: UInt8, ConnectionParameterUpdateResponse)
        /// LECreditBasedConnectionRequest (0x14).
        case leCreditBasedConnectionRequest(identifier: UInt8, LECreditBasedConnectionRequest)
        /// LECreditBasedConnectionResponse (0x15).
        case leCreditBasedConnectionResponse(identifier: UInt8, LECreditBasedConnectionResponse)
        /// FlowControlCreditIndication (0x16).
        case flowControlCreditIndication(identifier: UInt8, FlowControlCreditIndication)
        /// CreditBasedConnectionRequest (0x17).
        case creditBasedConnectionRequest(identifier: UInt8, CreditBasedConnectionRequest)
        /// CreditBasedConnectionResponse (0x18).
        case creditBasedConnectionResponse(identifier: UInt8, CreditBasedConnectionResponse)
        /// CreditBasedReconfigureRequest (0x19).
        case creditBasedReconfigureRequest(identifier: UInt8, CreditBasedReconfigureRequest)
        /// CreditBasedReconfigureResponse (0x1A).
        case creditBasedReconfigureResponse(identifier: UInt8, CreditBasedReconfigureResponse)
        /// A code not listed above, kept with its identifier and raw data.
        case unknown(code: SignalingCode, identifier: UInt8, data: ArraySlice<UInt8>)

        /// The command's identifier.
        public var identifier: UInt8 {
            switch self {
            case let .commandReject(identifier, _),
                 let .disconnectionRequest(identifier, _),
                 let .disconnectionResponse(identifier, _),
                 let .connectionParameterUpdateRequest(identifier, _),
                 let .connectionParameterUpdateResponse(identifier, _),
                 let .leCreditBasedConnectionRequest(identifier, _),
                 let .leCreditBasedConnectionResponse(identifier, _),
                 let .flowControlCreditIndication(identifier, _),
                 let .creditBasedConnectionRequest(identifier, _),
                 let .creditBasedConnectionResponse(identifier, _),
                 let .creditBasedReconfigureRequest(identifier, _),
                 let .creditBasedReconfigureResponse(identifier, _),
                 let .unknown(_, identifier, _):
                return identifier
            }
        }

        /// The command's code.
        public var code: SignalingCode {
            switch self {
            case .commandReject: return CommandReject.code
            case .disconnectionRequest: return DisconnectionRequest.code
            case .disconnectionResponse: return DisconnectionResponse.code
            case .connectionParameterUpdateRequest: return ConnectionParameterUpdateRequest.code
            case .connectionParameterUpdateResponse: return ConnectionParameterUpdateResponse.code
            case .leCreditBasedConnectionRequest: return LECreditBasedConnectionRequest.code
            case .leCreditBasedConnectionResponse: return LECreditBasedConnectionResponse.code
            case .flowControlCreditIndication: return FlowControlCreditIndication.code
            case .creditBasedConnectionRequest: return CreditBasedConnectionRequest.code
            case .creditBasedConnectionResponse: return CreditBasedConnectionResponse.code
            case .creditBasedReconfigureRequest: return CreditBasedReconfigureRequest.code
            case .creditBasedReconfigureResponse: return CreditBasedReconfigureResponse.code
            case let .unknown(code, _, _): return code
            }
        }

        /// Types the data of a framed command. Unknown codes give ``unknown(code:identifier:data:)``;
        /// a known code with malformed data throws (the caller still holds `command.identifier`).
        public init(_ command: SignalingCommand) throws(WireError) {
            let id = command.identifier
            let data = command.data
            switch command.code.rawValue {
            case 0x01: self = .commandReject(identifier: id, try CommandReject(decoding: data))
            case 0x06: self = .disconnectionRequest(identifier: id, try DisconnectionRequest(decoding: data))
            case 0x07: self = .disconnectionResponse(identifier: id, try DisconnectionResponse(decoding: data))
            case 0x12: self = .connectionParameterUpdateRequest(identifier: id, try ConnectionParameterUpdateRequest(decoding: data))
            case 0x13: self = .connectionParameterUpdateResponse(identifier: id, try ConnectionParameterUpdateResponse(decoding: data))
            case 0x14: self = .leCreditBasedConnectionRequest(identifier: id, try LECreditBasedConnectionRequest(decoding: data))
            case 0x15: self = .leCreditBasedConnectionResponse(identifier: id, try LECreditBasedConnectionResponse(decoding: data))
            case 0x16: self = .flowControlCreditIndication(identifier: id, try FlowControlCreditIndication(decoding: data))
            case 0x17: self = .creditBasedConnectionRequest(identifier: id, try CreditBasedConnectionRequest(decoding: data))
            case 0x18: self = .creditBasedConnectionResponse(identifier: id, try CreditBasedConnectionResponse(decoding: data))
            case 0x19: self = .creditBasedReconfigureRequest(identifier: id, try CreditBasedReconfigureRequest(decoding: data))
            case 0x1A: self = .creditBasedReconfigureResponse(identifier: id, try CreditBasedReconfigureResponse(decoding: data))
            default: self = .unknown(code: command.code, identifier: id, data: data)
            }
        }

        /// Reads one framed command and types its data.
        public init(from reader: inout ByteReader) throws(WireError) {
            try self.init(try SignalingCommand(from: &reader))
        }

        /// The command framed with code, identifier and length.
        public var framed: SignalingCommand {
            if case let .unknown(code, identifier, data) = self {
                return SignalingCommand(code: code, identifier: identifier, data: data)
            }
            var writer = ByteWriter(capacity: 16)
            encodeData(to: &writer)
            return SignalingCommand(code: code, identifier: identifier, data: writer.bytes[...])
        }

        /// Writes code, identifier, length and data.
        public func encode(to writer: inout ByteWriter) {
            writer.write(code.rawValue)
            writer.write(identifier)
            let length = writer.reserveLength16()
            encodeData(to: &writer)
            writer.patchLength16(at: length)
        }

        /// Writes the data field alone.
        private func encodeData(to writer: inout ByteWriter) {
            switch self {
            case let .commandReject(_, command): command.encode(to: &writer)
            case let .disconnectionRequest(_, command): command.encode(to: &writer)
            case let .disconnectionResponse(_, command): command.encode(to: &writer)
            case let .connectionParameterUpdateRequest(_, command): command.encode(to: &writer)
            case let .connectionParameterUpdateResponse(_, command): command.encode(to: &writer)
            case let .leCreditBasedConnectionRequest(_, command): command.encode(to: &writer)
            case let .leCreditBasedConnectionResponse(_, command): command.encode(to: &writer)
            case let .flowControlCreditIndication(_, command): command.encode(to: &writer)
            case let .creditBasedConnectionRequest(_, command): command.encode(to: &writer)
            case let .creditBasedConnectionResponse(_, command): command.encode(to: &writer)
            case let .creditBasedReconfigureRequest(_, command): command.encode(to: &writer)
            case let .creditBasedReconfigureResponse(_, command): command.encode(to: &writer)
            case let .unknown(_, _, data): writer.write(contentsOf: data)
            }
        }
    }
}
