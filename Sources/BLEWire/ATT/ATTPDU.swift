extension ATT {
    /// Any Attribute Protocol PDU (Core 5.4, Vol 3, Part F, §3.4), decoded by its opcode.
    ///
    /// The bearer decodes every received ATT payload with ``init(decoding:)``. An opcode
    /// no case knows throws ``WireError`` with field `"ATT.PDU.opcode"` and reason
    /// ``WireError/Reason/unknownCode(_:)`` carrying the opcode, so a server can answer
    /// Request Not Supported naming it (or ignore it when its command flag is set).
    /// Dispatch is one switch on the first octet and each case decodes in place, so the
    /// only allocation is the entry array of a list-carrying PDU.
    public enum PDU: WireCodable, Hashable, Sendable {
        /// ErrorResponse (opcode `ATT.Opcode.errorResponse`).
        case errorResponse(ErrorResponse)
        /// ExchangeMTURequest (opcode `ATT.Opcode.exchangeMTURequest`).
        case exchangeMTURequest(ExchangeMTURequest)
        /// ExchangeMTUResponse (opcode `ATT.Opcode.exchangeMTUResponse`).
        case exchangeMTUResponse(ExchangeMTUResponse)
        /// FindInformationRequest (opcode `ATT.Opcode.findInformationRequest`).
        case findInformationRequest(FindInformationRequest)
        /// FindInformationResponse (opcode `ATT.Opcode.findInformationResponse`).
        case findInformationResponse(FindInformationResponse)
        /// FindByTypeValueRequest (opcode `ATT.Opcode.findByTypeValueRequest`).
        case findByTypeValueRequest(FindByTypeValueRequest)
        /// FindByTypeValueResponse (opcode `ATT.Opcode.findByTypeValueResponse`).
        case findByTypeValueResponse(FindByTypeValueResponse)
        /// ReadByTypeRequest (opcode `ATT.Opcode.readByTypeRequest`).
        case readByTypeRequest(ReadByTypeRequest)
        /// ReadByTypeResponse (opcode `ATT.Opcode.readByTypeResponse`).
        case readByTypeResponse(ReadByTypeResponse)
        /// ReadRequest (opcode `ATT.Opcode.readRequest`).
        case readRequest(ReadRequest)
        /// ReadResponse (opcode `ATT.Opcode.readResponse`).
        case readResponse(ReadResponse)
        /// ReadBlobRequest (opcode `ATT.Opcode.readBlobRequest`).
        case readBlobRequest(ReadBlobRequest)
        /// ReadBlobResponse (opcode `ATT.Opcode.readBlobResponse`).
        case readBlobResponse(ReadBlobResponse)
        /// ReadMultipleRequest (opcode `ATT.Opcode.readMultipleRequest`).
        case readMultipleRequest(ReadMultipleRequest)
        /// ReadMultipleResponse (opcode `ATT.Opcode.readMultipleResponse`).
        case readMultipleResponse(ReadMultipleResponse)
        /// ReadByGroupTypeRequest (opcode `ATT.Opcode.readByGroupTypeRequest`).
        case readByGroupTypeRequest(ReadByGroupTypeRequest)
        /// ReadByGroupTypeResponse (opcode `ATT.Opcode.readByGroupTypeResponse`).
        case readByGroupTypeResponse(ReadByGroupTypeResponse)
        /// WriteRequest (opcode `ATT.Opcode.writeRequest`).
        case writeRequest(WriteRequest)
        /// WriteResponse (opcode `ATT.Opcode.writeResponse`).
        case writeResponse(WriteResponse)
        /// PrepareWriteRequest (opcode `ATT.Opcode.prepareWriteRequest`).
        case prepareWriteRequest(PrepareWriteRequest)
        /// PrepareWriteResponse (opcode `ATT.Opcode.prepareWriteResponse`).
        case prepareWriteResponse(PrepareWriteResponse)
        /// ExecuteWriteRequest (opcode `ATT.Opcode.executeWriteRequest`).
        case executeWriteRequest(ExecuteWriteRequest)
        /// ExecuteWriteResponse (opcode `ATT.Opcode.executeWriteResponse`).
        case executeWriteResponse(ExecuteWriteResponse)
        /// HandleValueNotification (opcode `ATT.Opcode.handleValueNotification`).
        case handleValueNotification(HandleValueNotification)
        /// HandleValueIndication (opcode `ATT.Opcode.handleValueIndication`).
        case handleValueIndication(HandleValueIndication)
        /// HandleValueConfirmation (opcode `ATT.Opcode.handleValueConfirmation`).
        case handleValueConfirmation(HandleValueConfirmation)
        /// ReadMultipleVariableRequest (opcode `ATT.Opcode.readMultipleVariableRequest`).
        case readMultipleVariableRequest(ReadMultipleVariableRequest)
        /// ReadMultipleVariableResponse (opcode `ATT.Opcode.readMultipleVariableResponse`).
        case readMultipleVariableResponse(ReadMultipleVariableResponse)
        /// MultipleHandleValueNotification (opcode `ATT.Opcode.multipleHandleValueNotification`).
        case multipleHandleValueNotification(MultipleHandleValueNotification)
        /// WriteCommand (opcode `ATT.Opcode.writeCommand`).
        case writeCommand(WriteCommand)
        /// SignedWriteCommand (opcode `ATT.Opcode.signedWriteCommand`).
        case signedWriteCommand(SignedWriteCommand)

        /// The opcode of the PDU.
        public var opcode: Opcode {
            switch self {
            case .errorResponse: return ErrorResponse.opcode
            case .exchangeMTURequest: return ExchangeMTURequest.opcode
            case .exchangeMTUResponse: return ExchangeMTUResponse.opcode
            case .findInformationRequest: return FindInformationRequest.opcode
            case .findInformationResponse: return FindInformationResponse.opcode
            case .findByTypeValueRequest: return FindByTypeValueRequest.opcode
            case .findByTypeValueResponse: return FindByTypeValueResponse.opcode
            case .readByTypeRequest: return ReadByTypeRequest.opcode
            case .readByTypeResponse: return ReadByTypeResponse.opcode
            case .readRequest: return ReadRequest.opcode
            case .readResponse: return ReadResponse.opcode
            case .readBlobRequest: return ReadBlobRequest.opcode
            case .readBlobResponse: return ReadBlobResponse.opcode
            case .readMultipleRequest: return ReadMultipleRequest.opcode
            case .readMultipleResponse: return ReadMultipleResponse.opcode
            case .readByGroupTypeRequest: return ReadByGroupTypeRequest.opcode
            case .readByGroupTypeResponse: return ReadByGroupTypeResponse.opcode
            case .writeRequest: return WriteRequest.opcode
            case .writeResponse: return WriteResponse.opcode
            case .prepareWriteRequest: return PrepareWriteRequest.opcode
            case .prepareWriteResponse: return PrepareWriteResponse.opcode
            case .executeWriteRequest: return ExecuteWriteRequest.opcode
            case .executeWriteResponse: return ExecuteWriteResponse.opcode
            case .handleValueNotification: return HandleValueNotification.opcode
            case .handleValueIndication: return HandleValueIndication.opcode
            case .handleValueConfirmation: return HandleValueConfirmation.opcode
            case .readMultipleVariableRequest: return ReadMultipleVariableRequest.opcode
            case .readMultipleVariableResponse: return ReadMultipleVariableResponse.opcode
            case .multipleHandleValueNotification: return MultipleHandleValueNotification.opcode
            case .writeCommand: return WriteCommand.opcode
            case .signedWriteCommand: return SignedWriteCommand.opcode
            }
        }

        /// Reads the opcode without consuming it, then the PDU of that type.
        public init(from reader: inout ByteReader) throws(WireError) {
            var peek = reader
            let raw = try peek.readUInt8("ATT.PDU.opcode")
            switch raw {
            case 0x01: self = .errorResponse(try ErrorResponse(from: &reader))
            case 0x02: self = .exchangeMTURequest(try ExchangeMTURequest(from: &reader))
            case 0x03: self = .exchangeMTUResponse(try ExchangeMTUResponse(from: &reader))
            case 0x04: self = .findInformationRequest(try FindInformationRequest(from: &reader))
            case 0x05: self = .findInformationResponse(try FindInformationResponse(from: &reader))
            case 0x06: self = .findByTypeValueRequest(try FindByTypeValueRequest(from: &reader))
            case 0x07: self = .findByTypeValueResponse(try FindByTypeValueResponse(from: &reader))
            case 0x08: self = .readByTypeRequest(try ReadByTypeRequest(from: &reader))
            case 0x09: self = .readByTypeResponse(try ReadByTypeResponse(from: &reader))
            case 0x0A: self = .readRequest(try ReadRequest(from: &reader))
            case 0x0B: self = .readResponse(try ReadResponse(from: &reader))
            case 0x0C: self = .readBlobRequest(try ReadBlobRequest(from: &reader))
            case 0x0D: self = .readBlobResponse(try ReadBlobResponse(from: &reader))
            case 0x0E: self = .readMultipleRequest(try ReadMultipleRequest(from: &reader))
            case 0x0F: self = .readMultipleResponse(try ReadMultipleResponse(from: &reader))
            case 0x10: self = .readByGroupTypeRequest(try ReadByGroupTypeRequest(from: &reader))
            case 0x11: self = .readByGroupTypeResponse(try ReadByGroupTypeResponse(from: &reader))
            case 0x12: self = .writeRequest(try WriteRequest(from: &reader))
            case 0x13: self = .writeResponse(try WriteResponse(from: &reader))
            case 0x16: self = .prepareWriteRequest(try PrepareWriteRequest(from: &reader))
            case 0x17: self = .prepareWriteResponse(try PrepareWriteResponse(from: &reader))
            case 0x18: self = .executeWriteRequest(try ExecuteWriteRequest(from: &reader))
            case 0x19: self = .executeWriteResponse(try ExecuteWriteResponse(from: &reader))
            case 0x1B: self = .handleValueNotification(try HandleValueNotification(from: &reader))
            case 0x1D: self = .handleValueIndication(try HandleValueIndication(from: &reader))
            case 0x1E: self = .handleValueConfirmation(try HandleValueConfirmation(from: &reader))
            case 0x20: self = .readMultipleVariableRequest(try ReadMultipleVariableRequest(from: &reader))
            case 0x21: self = .readMultipleVariableResponse(try ReadMultipleVariableResponse(from: &reader))
            case 0x23: self = .multipleHandleValueNotification(try MultipleHandleValueNotification(from: &reader))
            case 0x52: self = .writeCommand(try WriteCommand(from: &reader))
            case 0xD2: self = .signedWriteCommand(try SignedWriteCommand(from: &reader))
            default:
                throw WireError(field: "ATT.PDU.opcode", reason: .unknownCode(UInt64(raw)))
            }
        }

        /// Writes the PDU, opcode first.
        public func encode(to writer: inout ByteWriter) {
            switch self {
            case let .errorResponse(pdu): pdu.encode(to: &writer)
            case let .exchangeMTURequest(pdu): pdu.encode(to: &writer)
            case let .exchangeMTUResponse(pdu): pdu.encode(to: &writer)
            case let .findInformationRequest(pdu): pdu.encode(to: &writer)
            case let .findInformationResponse(pdu): pdu.encode(to: &writer)
            case let .findByTypeValueRequest(pdu): pdu.encode(to: &writer)
            case let .findByTypeValueResponse(pdu): pdu.encode(to: &writer)
            case let .readByTypeRequest(pdu): pdu.encode(to: &writer)
            case let .readByTypeResponse(pdu): pdu.encode(to: &writer)
            case let .readRequest(pdu): pdu.encode(to: &writer)
            case let .readResponse(pdu): pdu.encode(to: &writer)
            case let .readBlobRequest(pdu): pdu.encode(to: &writer)
            case let .readBlobResponse(pdu): pdu.encode(to: &writer)
            case let .readMultipleRequest(pdu): pdu.encode(to: &writer)
            case let .readMultipleResponse(pdu): pdu.encode(to: &writer)
            case let .readByGroupTypeRequest(pdu): pdu.encode(to: &writer)
            case let .readByGroupTypeResponse(pdu): pdu.encode(to: &writer)
            case let .writeRequest(pdu): pdu.encode(to: &writer)
            case let .writeResponse(pdu): pdu.encode(to: &writer)
            case let .prepareWriteRequest(pdu): pdu.encode(to: &writer)
            case let .prepareWriteResponse(pdu): pdu.encode(to: &writer)
            case let .executeWriteRequest(pdu): pdu.encode(to: &writer)
            case let .executeWriteResponse(pdu): pdu.encode(to: &writer)
            case let .handleValueNotification(pdu): pdu.encode(to: &writer)
            case let .handleValueIndication(pdu): pdu.encode(to: &writer)
            case let .handleValueConfirmation(pdu): pdu.encode(to: &writer)
            case let .readMultipleVariableRequest(pdu): pdu.encode(to: &writer)
            case let .readMultipleVariableResponse(pdu): pdu.encode(to: &writer)
            case let .multipleHandleValueNotification(pdu): pdu.encode(to: &writer)
            case let .writeCommand(pdu): pdu.encode(to: &writer)
            case let .signedWriteCommand(pdu): pdu.encode(to: &writer)
            }
        }
    }
}
