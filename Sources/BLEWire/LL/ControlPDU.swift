extension LL {
    /// An LL control PDU (Core 5.4, Vol 6, Part B, §2.4.2): the payload of a data channel
    /// PDU with LLID 0b11, an opcode octet followed by CtrData.
    ///
    /// Opcodes this library does not model decode to ``unknown(opcode:data:)`` with every
    /// octet kept, so a Link Layer can answer them with LL_UNKNOWN_RSP. A modelled opcode
    /// whose CtrData has the wrong length throws.
    public enum ControlPDU: WireCodable, Hashable {
        /// LL_CONNECTION_UPDATE_IND (§2.4.2.1): new connection parameters at an instant.
        case connectionUpdateIndication(ConnectionUpdateIndication)
        /// LL_CHANNEL_MAP_IND (§2.4.2.2): a new channel map at an instant.
        case channelMapIndication(ChannelMapIndication)
        /// LL_TERMINATE_IND (§2.4.2.3): the sender ends the connection for this reason.
        case terminateIndication(errorCode: HCI.StatusCode)
        /// LL_ENC_REQ (§2.4.2.4): the central starts encryption.
        case encryptionRequest(EncryptionRequest)
        /// LL_ENC_RSP (§2.4.2.5): the peripheral's half of the session key material.
        case encryptionResponse(EncryptionResponse)
        /// LL_START_ENC_REQ (§2.4.2.6): the peripheral is ready to receive encrypted.
        case startEncryptionRequest
        /// LL_START_ENC_RSP (§2.4.2.7): encrypted confirmation, sent both ways.
        case startEncryptionResponse
        /// LL_UNKNOWN_RSP (§2.4.2.8): the receiver does not know or support `unknownType`.
        case unknownResponse(unknownType: UInt8)
        /// LL_FEATURE_REQ (§2.4.2.9): the central's supported LL features.
        case featureRequest(featureSet: UInt64)
        /// LL_FEATURE_RSP (§2.4.2.10): the responder's supported LL features.
        case featureResponse(featureSet: UInt64)
        /// LL_PAUSE_ENC_REQ (§2.4.2.11): the central pauses encryption to change keys.
        case pauseEncryptionRequest
        /// LL_PAUSE_ENC_RSP (§2.4.2.12): acknowledges the pause, sent both ways.
        case pauseEncryptionResponse
        /// LL_VERSION_IND (§2.4.2.13): the sender's Link Layer version.
        case versionIndication(VersionIndication)
        /// LL_REJECT_IND (§2.4.2.14): a request is rejected with this error code.
        case rejectIndication(errorCode: HCI.StatusCode)
        /// LL_PERIPHERAL_FEATURE_REQ (§2.4.2.15): the peripheral's supported LL features.
        case peripheralFeatureRequest(featureSet: UInt64)
        /// LL_REJECT_EXT_IND (§2.4.2.18): the request with opcode `rejectOpcode` is rejected.
        case rejectExtendedIndication(rejectOpcode: UInt8, errorCode: HCI.StatusCode)
        /// LL_PING_REQ (§2.4.2.19): asks for an authenticated packet from the peer.
        case pingRequest
        /// LL_PING_RSP (§2.4.2.20): answers LL_PING_REQ.
        case pingResponse
        /// LL_LENGTH_REQ (§2.4.2.21): the sender's data length limits.
        case lengthRequest(LengthParameters)
        /// LL_LENGTH_RSP (§2.4.2.21): the responder's data length limits.
        case lengthResponse(LengthParameters)
        /// LL_PHY_REQ (§2.4.2.22): the sender's PHY preferences.
        case phyRequest(PHYPreferences)
        /// LL_PHY_RSP (§2.4.2.22): the peripheral's PHY preferences.
        case phyResponse(PHYPreferences)
        /// LL_PHY_UPDATE_IND (§2.4.2.23): the PHYs from the instant on.
        case phyUpdateIndication(PHYUpdateIndication)
        /// An opcode this library does not model, and the octets after it.
        case unknown(opcode: UInt8, data: ArraySlice<UInt8>)

        /// The opcode octet.
        public var opcode: UInt8 {
            switch self {
            case .connectionUpdateIndication: return ControlOpcode.connectionUpdateIndication.rawValue
            case .channelMapIndication: return ControlOpcode.channelMapIndication.rawValue
            case .terminateIndication: return ControlOpcode.terminateIndication.rawValue
            case .encryptionRequest: return ControlOpcode.encryptionRequest.rawValue
            case .encryptionResponse: return ControlOpcode.encryptionResponse.rawValue
            case .startEncryptionRequest: return ControlOpcode.startEncryptionRequest.rawValue
            case .startEncryptionResponse: return ControlOpcode.startEncryptionResponse.rawValue
            case .unknownResponse: return ControlOpcode.unknownResponse.rawValue
            case .featureRequest: return ControlOpcode.featureRequest.rawValue
            case .featureResponse: return ControlOpcode.featureResponse.rawValue
            case .pauseEncryptionRequest: return ControlOpcode.pauseEncryptionRequest.rawValue
            case .pauseEncryptionResponse: return ControlOpcode.pauseEncryptionResponse.rawValue
            case .versionIndication: return ControlOpcode.versionIndication.rawValue
            case .rejectIndication: return ControlOpcode.rejectIndication.rawValue
            case .peripheralFeatureRequest: return ControlOpcode.peripheralFeatureRequest.rawValue
            case .rejectExtendedIndication: return ControlOpcode.rejectExtendedIndication.rawValue
            case .pingRequest: return ControlOpcode.pingRequest.rawValue
            case .pingResponse: return ControlOpcode.pingResponse.rawValue
            case .lengthRequest: return ControlOpcode.lengthRequest.rawValue
            case .lengthResponse: return ControlOpcode.lengthResponse.rawValue
            case .phyRequest: return ControlOpcode.phyRequest.rawValue
            case .phyResponse: return ControlOpcode.phyResponse.rawValue
            case .phyUpdateIndication: return ControlOpcode.phyUpdateIndication.rawValue
            case let .unknown(opcode, _): return opcode
            }
        }

        /// Opcode and CtrData; an unknown PDU's data length plus one.
        public var encodedCountEstimate: Int {
            if case let .unknown(_, data) = self { return 1 + data.count }
            return 24
        }

        /// Reads the opcode and the CtrData it implies; an unmodelled opcode takes every
        /// remaining octet as its data.
        public init(from reader: inout ByteReader) throws(WireError) {
            let opcode = try reader.readUInt8("LL.ControlPDU.opcode")
            guard let known = ControlOpcode(rawValue: opcode) else {
                self = .unknown(opcode: opcode, data: reader.readRemaining())
                return
            }
            switch known {
            case .connectionUpdateIndication: self = .connectionUpdateIndication(try .init(from: &reader))
            case .channelMapIndication: self = .channelMapIndication(try .init(from: &reader))
            case .terminateIndication:
                self = .terminateIndication(errorCode: try .init(from: &reader, field: "LL.ControlPDU.terminateIndication.errorCode"))
            case .encryptionRequest: self = .encryptionRequest(try .init(from: &reader))
            case .encryptionResponse: self = .encryptionResponse(try .init(from: &reader))
            case .startEncryptionRequest: self = .startEncryptionRequest
            case .startEncryptionResponse: self = .startEncryptionResponse
            case .unknownResponse:
                self = .unknownResponse(unknownType: try reader.readUInt8("LL.ControlPDU.unknownResponse.unknownType"))
            case .featureRequest:
                self = .featureRequest(featureSet: try reader.readUInt64("LL.ControlPDU.featureRequest.featureSet"))
            case .featureResponse:
                self = .featureResponse(featureSet: try reader.readUInt64("LL.ControlPDU.featureResponse.featureSet"))
            case .pauseEncryptionRequest: self = .pauseEncryptionRequest
            case .pauseEncryptionResponse: self = .pauseEncryptionResponse
            case .versionIndication: self = .versionIndication(try .init(from: &reader))
            case .rejectIndication:
                self = .rejectIndication(errorCode: try .init(from: &reader, field: "LL.ControlPDU.rejectIndication.errorCode"))
            case .peripheralFeatureRequest:
                self = .peripheralFeatureRequest(featureSet: try reader.readUInt64("LL.ControlPDU.peripheralFeatureRequest.featureSet"))
            case .rejectExtendedIndication:
                let rejected = try reader.readUInt8("LL.ControlPDU.rejectExtendedIndication.rejectOpcode")
                let code = try HCI.StatusCode(from: &reader, field: "LL.ControlPDU.rejectExtendedIndication.errorCode")
                self = .rejectExtendedIndication(rejectOpcode: rejected, errorCode: code)
            case .pingRequest: self = .pingRequest
            case .pingResponse: self = .pingResponse
            case .lengthRequest: self = .lengthRequest(try .init(from: &reader))
            case .lengthResponse: self = .lengthResponse(try .init(from: &reader))
            case .phyRequest: self = .phyRequest(try .init(from: &reader))
            case .phyResponse: self = .phyResponse(try .init(from: &reader))
            case .phyUpdateIndication: self = .phyUpdateIndication(try .init(from: &reader))
            }
        }

        /// Appends the opcode and CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(opcode)
            switch self {
            case let .connectionUpdateIndication(data): data.encode(to: &writer)
            case let .channelMapIndication(data): data.encode(to: &writer)
            case let .terminateIndication(code), let .rejectIndication(code): code.encode(to: &writer)
            case let .encryptionRequest(data): data.encode(to: &writer)
            case let .encryptionResponse(data): data.encode(to: &writer)
            case .startEncryptionRequest, .startEncryptionResponse, .pauseEncryptionRequest,
                 .pauseEncryptionResponse, .pingRequest, .pingResponse:
                break
            case let .unknownResponse(type): writer.write(type)
            case let .featureRequest(features), let .featureResponse(features), let .peripheralFeatureRequest(features):
                writer.write(features)
            case let .versionIndication(data): data.encode(to: &writer)
            case let .rejectExtendedIndication(rejected, code):
                writer.write(rejected)
                code.encode(to: &writer)
            case let .lengthRequest(data), let .lengthResponse(data): data.encode(to: &writer)
            case let .phyRequest(data), let .phyResponse(data): data.encode(to: &writer)
            case let .phyUpdateIndication(data): data.encode(to: &writer)
            case let .unknown(_, data): writer.write(contentsOf: data)
            }
        }
    }
}
