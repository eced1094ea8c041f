extension HCI {
    /// The typed LE Meta subevents (Core 5.4, Vol 4, Part E, §7.7.65) this library knows.
    ///
    /// The wire form is the LE Meta event's parameters: the Subevent_Code octet, then the
    /// subevent's own parameters. Subevents not listed here decode through ``HCI/Event``
    /// as ``HCI/Event/unknownLEMeta(subevent:parameters:)``; decoding one directly as
    /// `LEMetaEvent` throws ``WireError/Reason/unknownCode(_:)``.
    public enum LEMetaEvent: WireCodable, Hashable {
        /// LE Connection Complete (0x01).
        case connectionComplete(LEConnectionComplete)
        /// LE Advertising Report (0x02).
        case advertisingReport(LEAdvertisingReport)
        /// LE Connection Update Complete (0x03).
        case connectionUpdateComplete(LEConnectionUpdateComplete)
        /// LE Read Remote Features Complete (0x04).
        case readRemoteFeaturesComplete(LEReadRemoteFeaturesComplete)
        /// LE Long Term Key Request (0x05).
        case longTermKeyRequest(LELongTermKeyRequest)
        /// LE Remote Connection Parameter Request (0x06).
        case remoteConnectionParameterRequest(LERemoteConnectionParameterRequest)
        /// LE Data Length Change (0x07).
        case dataLengthChange(LEDataLengthChange)
        /// LE Read Local P-256 Public Key Complete (0x08).
        case readLocalP256PublicKeyComplete(LEReadLocalP256PublicKeyComplete)
        /// LE Generate DHKey Complete (0x09).
        case generateDHKeyComplete(LEGenerateDHKeyComplete)
        /// LE Enhanced Connection Complete [v1] (0x0A).
        case enhancedConnectionComplete(LEEnhancedConnectionComplete)
        /// LE Directed Advertising Report (0x0B).
        case directedAdvertisingReport(LEDirectedAdvertisingReport)
        /// LE PHY Update Complete (0x0C).
        case phyUpdateComplete(LEPHYUpdateComplete)
        /// LE Extended Advertising Report (0x0D).
        case extendedAdvertisingReport(LEExtendedAdvertisingReport)
        /// LE Periodic Advertising Sync Established [v1] (0x0E).
        case periodicAdvertisingSyncEstablished(LEPeriodicAdvertisingSyncEstablished)
        /// LE Periodic Advertising Report [v1] (0x0F).
        case periodicAdvertisingReport(LEPeriodicAdvertisingReport)
        /// LE Periodic Advertising Sync Lost (0x10).
        case periodicAdvertisingSyncLost(LEPeriodicAdvertisingSyncLost)
        /// LE Scan Timeout (0x11).
        case scanTimeout(LEScanTimeout)
        /// LE Advertising Set Terminated (0x12).
        case advertisingSetTerminated(LEAdvertisingSetTerminated)
        /// LE Scan Request Received (0x13).
        case scanRequestReceived(LEScanRequestReceived)
        /// LE Channel Selection Algorithm (0x14).
        case channelSelectionAlgorithm(LEChannelSelectionAlgorithm)
        /// LE Enhanced Connection Complete [v2] (0x29).
        case enhancedConnectionCompleteV2(LEEnhancedConnectionCompleteV2)

        /// The typed subevent for `subevent` with `parameters` (the octets after the
        /// subevent code), or `nil` if the subevent is not one this library knows. A known
        /// subevent with malformed parameters throws.
        public static func decode(subevent: LESubeventCode, parameters: ArraySlice<UInt8>) throws(WireError) -> LEMetaEvent? {
            // Raw values so the compiler can build a jump table: this is the scan hot path.
            switch subevent.rawValue {
            case 0x01: return .connectionComplete(try .init(decoding: parameters))
            case 0x02: return .advertisingReport(try .init(decoding: parameters))
            case 0x03: return .connectionUpdateComplete(try .init(decoding: parameters))
            case 0x04: return .readRemoteFeaturesComplete(try .init(decoding: parameters))
            case 0x05: return .longTermKeyRequest(try .init(decoding: parameters))
            case 0x06: return .remoteConnectionParameterRequest(try .init(decoding: parameters))
            case 0x07: return .dataLengthChange(try .init(decoding: parameters))
            case 0x08: return .readLocalP256PublicKeyComplete(try .init(decoding: parameters))
            case 0x09: return .generateDHKeyComplete(try .init(decoding: parameters))
            case 0x0A: return .enhancedConnectionComplete(try .init(decoding: parameters))
            case 0x0B: return .directedAdvertisingReport(try .init(decoding: parameters))
            case 0x0C: return .phyUpdateComplete(try .init(decoding: parameters))
            case 0x0D: return .extendedAdvertisingReport(try .init(decoding: parameters))
            case 0x0E: return .periodicAdvertisingSyncEstablished(try .init(decoding: parameters))
            case 0x0F: return .periodicAdvertisingReport(try .init(decoding: parameters))
            case 0x10: return .periodicAdvertisingSyncLost(try .init(decoding: parameters))
            case 0x11: return .scanTimeout(try .init(decoding: parameters))
            case 0x12: return .advertisingSetTerminated(try .init(decoding: parameters))
            case 0x13: return .scanRequestReceived(try .init(decoding: parameters))
            case 0x14: return .channelSelectionAlgorithm(try .init(decoding: parameters))
            case 0x29: return .enhancedConnectionCompleteV2(try .init(decoding: parameters))
            default: return nil
            }
        }

        /// The subevent's code.
        public var subeventCode: LESubeventCode {
            switch self {
            case .connectionComplete: return LEConnectionComplete.subeventCode
            case .advertisingReport: return LEAdvertisingReport.subeventCode
            case .connectionUpdateComplete: return LEConnectionUpdateComplete.subeventCode
            case .readRemoteFeaturesComplete: return LEReadRemoteFeaturesComplete.subeventCode
            case .longTermKeyRequest: return LELongTermKeyRequest.subeventCode
            case .remoteConnectionParameterRequest: return LERemoteConnectionParameterRequest.subeventCode
            case .dataLengthChange: return LEDataLengthChange.subeventCode
            case .readLocalP256PublicKeyComplete: return LEReadLocalP256PublicKeyComplete.subeventCode
            case .generateDHKeyComplete: return LEGenerateDHKeyComplete.subeventCode
            case .enhancedConnectionComplete: return LEEnhancedConnectionComplete.subeventCode
            case .directedAdvertisingReport: return LEDirectedAdvertisingReport.subeventCode
            case .phyUpdateComplete: return LEPHYUpdateComplete.subeventCode
            case .extendedAdvertisingReport: return LEExtendedAdvertisingReport.subeventCode
            case .periodicAdvertisingSyncEstablished: return LEPeriodicAdvertisingSyncEstablished.subeventCode
            case .periodicAdvertisingReport: return LEPeriodicAdvertisingReport.subeventCode
            case .periodicAdvertisingSyncLost: return LEPeriodicAdvertisingSyncLost.subeventCode
            case .scanTimeout: return LEScanTimeout.subeventCode
            case .advertisingSetTerminated: return LEAdvertisingSetTerminated.subeventCode
            case .scanRequestReceived: return LEScanRequestReceived.subeventCode
            case .channelSelectionAlgorithm: return LEChannelSelectionAlgorithm.subeventCode
            case .enhancedConnectionCompleteV2: return LEEnhancedConnectionCompleteV2.subeventCode
            }
        }

        /// Reads the subevent code and the rest of the reader as that subevent's parameters.
        public init(from reader: inout ByteReader) throws(WireError) {
            let code = LESubeventCode(rawValue: try reader.readUInt8("HCI.LEMetaEvent.subeventCode"))
            guard let event = try LEMetaEvent.decode(subevent: code, parameters: reader.readRemaining()) else {
                throw WireError(field: "HCI.LEMetaEvent.subeventCode", reason: .unknownCode(UInt64(code.rawValue)))
            }
            self = event
        }

        /// Appends the subevent code and the subevent's parameters.
        public func encode(to writer: inout ByteWriter) {
            writer.write(subeventCode.rawValue)
            switch self {
            case let .connectionComplete(event): event.encode(to: &writer)
            case let .advertisingReport(event): event.encode(to: &writer)
            case let .connectionUpdateComplete(event): event.encode(to: &writer)
            case let .readRemoteFeaturesComplete(event): event.encode(to: &writer)
            case let .longTermKeyRequest(event): event.encode(to: &writer)
            case let .remoteConnectionParameterRequest(event): event.encode(to: &writer)
            case let .dataLengthChange(event): event.encode(to: &writer)
            case let .readLocalP256PublicKeyComplete(event): event.encode(to: &writer)
            case let .generateDHKeyComplete(event): event.encode(to: &writer)
            case let .enhancedConnectionComplete(event): event.encode(to: &writer)
            case let .directedAdvertisingReport(event): event.encode(to: &writer)
            case let .phyUpdateComplete(event): event.encode(to: &writer)
            case let .extendedAdvertisingReport(event): event.encode(to: &writer)
            case let .periodicAdvertisingSyncEstablished(event): event.encode(to: &writer)
            case let .periodicAdvertisingReport(event): event.encode(to: &writer)
            case let .periodicAdvertisingSyncLost(event): event.encode(to: &writer)
            case let .scanTimeout(event): event.encode(to: &writer)
            case let .advertisingSetTerminated(event): event.encode(to: &writer)
            case let .scanRequestReceived(event): event.encode(to: &writer)
            case let .channelSelectionAlgorithm(event): event.encode(to: &writer)
            case let .enhancedConnectionCompleteV2(event): event.encode(to: &writer)
            }
        }
    }
}
