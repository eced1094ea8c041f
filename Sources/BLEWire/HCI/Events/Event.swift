extension HCI {
    /// A typed HCI event (Core 5.4, Vol 4, Part E, §7.7): what a host switches on after
    /// reading an event packet from the controller.
    ///
    /// Decoding an event this library does not model is not an error — controllers send
    /// vendor and newer events — it becomes ``unknown(_:)`` or
    /// ``unknownLEMeta(subevent:parameters:)`` with every octet kept. A known event whose
    /// parameters are malformed throws. Decoding allocates nothing beyond what the event
    /// itself holds (an advertising report's array); payloads are views into the input.
    ///
    /// The wire form is the whole event packet: event code, parameter total length and
    /// parameters, as ``HCI/EventPacket`` frames it.
    public enum Event: WireCodable, Hashable {
        /// Disconnection Complete (0x05).
        case disconnectionComplete(DisconnectionComplete)
        /// Encryption Change [v1] (0x08).
        case encryptionChange(EncryptionChange)
        /// Read Remote Version Information Complete (0x0C).
        case readRemoteVersionInformationComplete(ReadRemoteVersionInformationComplete)
        /// Command Complete (0x0E).
        case commandComplete(CommandComplete)
        /// Command Status (0x0F).
        case commandStatus(CommandStatus)
        /// Hardware Error (0x10).
        case hardwareError(HardwareError)
        /// Number Of Completed Packets (0x13).
        case numberOfCompletedPackets(NumberOfCompletedPackets)
        /// Data Buffer Overflow (0x1A).
        case dataBufferOverflow(DataBufferOverflow)
        /// Encryption Key Refresh Complete (0x30).
        case encryptionKeyRefreshComplete(EncryptionKeyRefreshComplete)
        /// Authenticated Payload Timeout Expired (0x57).
        case authenticatedPayloadTimeoutExpired(AuthenticatedPayloadTimeoutExpired)
        /// Encryption Change [v2] (0x59).
        case encryptionChangeV2(EncryptionChangeV2)
        /// An LE Meta event (0x3E) with a subevent this library knows.
        case leMeta(LEMetaEvent)
        /// An event code this library does not model, kept whole.
        case unknown(EventPacket)
        /// An LE Meta event with a subevent this library does not model: the subevent code
        /// and the parameters after it.
        case unknownLEMeta(subevent: LESubeventCode, parameters: ArraySlice<UInt8>)

        /// The typed view of `packet`. Throws only if a known event's parameters are
        /// malformed (or an LE Meta event lacks its subevent code).
        public init(decoding packet: EventPacket) throws(WireError) {
            let parameters = packet.parameters
            // Raw values so the compiler can build a jump table.
            switch packet.eventCode.rawValue {
            case 0x05: self = .disconnectionComplete(try .init(decoding: parameters))
            case 0x08: self = .encryptionChange(try .init(decoding: parameters))
            case 0x0C: self = .readRemoteVersionInformationComplete(try .init(decoding: parameters))
            case 0x0E: self = .commandComplete(try .init(decoding: parameters))
            case 0x0F: self = .commandStatus(try .init(decoding: parameters))
            case 0x10: self = .hardwareError(try .init(decoding: parameters))
            case 0x13: self = .numberOfCompletedPackets(try .init(decoding: parameters))
            case 0x1A: self = .dataBufferOverflow(try .init(decoding: parameters))
            case 0x30: self = .encryptionKeyRefreshComplete(try .init(decoding: parameters))
            case 0x57: self = .authenticatedPayloadTimeoutExpired(try .init(decoding: parameters))
            case 0x59: self = .encryptionChangeV2(try .init(decoding: parameters))
            case 0x3E:
                guard let first = parameters.first else {
                    throw WireError(field: "HCI.LEMetaEvent.subeventCode", reason: .truncated(needed: 1, available: 0))
                }
                let code = LESubeventCode(rawValue: first)
                let rest = parameters.dropFirst()
                if let event = try LEMetaEvent.decode(subevent: code, parameters: rest) {
                    self = .leMeta(event)
                } else {
                    self = .unknownLEMeta(subevent: code, parameters: rest)
                }
            default:
                self = .unknown(packet)
            }
        }

        /// The largest event packet for advertising reports, whose size varies most; 64
        /// octets for the rest.
        public var encodedCountEstimate: Int {
            switch self {
            case .leMeta(.advertisingReport), .leMeta(.extendedAdvertisingReport), .leMeta(.directedAdvertisingReport),
                 .leMeta(.periodicAdvertisingReport):
                return 2 + EventPacket.maximumParameterLength
            case let .unknown(packet):
                return 2 + packet.parameters.count
            case let .unknownLEMeta(_, parameters):
                return 3 + parameters.count
            default:
                return 64
            }
        }

        /// Reads a whole event packet (code, length, parameters) and decodes it.
        public init(from reader: inout ByteReader) throws(WireError) {
            try self.init(decoding: try EventPacket(from: &reader))
        }

        /// The event code.
        public var eventCode: EventCode {
            switch self {
            case .disconnectionComplete: return DisconnectionComplete.eventCode
            case .encryptionChange: return EncryptionChange.eventCode
            case .readRemoteVersionInformationComplete: return ReadRemoteVersionInformationComplete.eventCode
            case .commandComplete: return CommandComplete.eventCode
            case .commandStatus: return CommandStatus.eventCode
            case .hardwareError: return HardwareError.eventCode
            case .numberOfCompletedPackets: return NumberOfCompletedPackets.eventCode
            case .dataBufferOverflow: return DataBufferOverflow.eventCode
            case .encryptionKeyRefreshComplete: return EncryptionKeyRefreshComplete.eventCode
            case .authenticatedPayloadTimeoutExpired: return AuthenticatedPayloadTimeoutExpired.eventCode
            case .encryptionChangeV2: return EncryptionChangeV2.eventCode
            case .leMeta, .unknownLEMeta: return .leMeta
            case let .unknown(packet): return packet.eventCode
            }
        }

        /// Appends the event's parameters (without the packet header).
        private func encodeParameters(to writer: inout ByteWriter) {
            switch self {
            case let .disconnectionComplete(event): event.encode(to: &writer)
            case let .encryptionChange(event): event.encode(to: &writer)
            case let .readRemoteVersionInformationComplete(event): event.encode(to: &writer)
            case let .commandComplete(event): event.encode(to: &writer)
            case let .commandStatus(event): event.encode(to: &writer)
            case let .hardwareError(event): event.encode(to: &writer)
            case let .numberOfCompletedPackets(event): event.encode(to: &writer)
            case let .dataBufferOverflow(event): event.encode(to: &writer)
            case let .encryptionKeyRefreshComplete(event): event.encode(to: &writer)
            case let .authenticatedPayloadTimeoutExpired(event): event.encode(to: &writer)
            case let .encryptionChangeV2(event): event.encode(to: &writer)
            case let .leMeta(event): event.encode(to: &writer)
            case let .unknown(packet): writer.write(contentsOf: packet.parameters)
            case let .unknownLEMeta(subevent, parameters):
                writer.write(subevent.rawValue)
                writer.write(contentsOf: parameters)
            }
        }

        /// The untyped packet for this event. Parameters over 255 octets (only possible
        /// when built by hand) are cut at 255.
        public var packet: EventPacket {
            var writer = ByteWriter(capacity: 64)
            encodeParameters(to: &writer)
            return EventPacket(eventCode: eventCode, parameters: writer.bytes.prefix(EventPacket.maximumParameterLength))
        }

        /// Appends event code, parameter total length and parameters. Parameters over 255
        /// octets (only possible when built by hand) are cut at 255 so the length stays true.
        public func encode(to writer: inout ByteWriter) {
            writer.write(eventCode.rawValue)
            let lengthIndex = writer.reserveLength8()
            encodeParameters(to: &writer)
            let excess = writer.count - lengthIndex - 1 - EventPacket.maximumParameterLength
            if excess > 0 { writer.bytes.removeLast(excess) }
            writer.patchLength8(at: lengthIndex)
        }
    }
}
