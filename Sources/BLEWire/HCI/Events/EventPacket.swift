/// An HCI event with typed parameters (Core 5.4, Vol 4, Part E, §5.4.4 and §7.7).
///
/// The wire form of a conforming value is the event's *parameters* only; the packet
/// header (event code and parameter total length) is added by ``HCI/EventPacket``.
public protocol HCIEvent: WireCodable, Hashable {
    /// The event code that identifies this event.
    static var eventCode: HCI.EventCode { get }
}

/// An LE Meta subevent with typed parameters (Core 5.4, Vol 4, Part E, §7.7.65).
///
/// The wire form of a conforming value is the parameters *after* the Subevent_Code
/// octet; ``HCI/EventPacket/init(leMeta:)`` adds that octet and the LE Meta header.
public protocol HCILEMetaEvent: WireCodable, Hashable {
    /// The subevent code that identifies this subevent.
    static var subeventCode: HCI.LESubeventCode { get }
}

extension HCI {
    /// An HCI event packet without its H4 type octet: event code, parameter total length
    /// and parameters (Core 5.4, Vol 4, Part E, §5.4.4).
    ///
    /// This is the untyped form a transport sees first; ``HCI/Event`` gives the typed
    /// view. The parameters are a view into the received octets, not a copy.
    public struct EventPacket: WireCodable, Hashable {
        /// The largest parameter block the one-octet length field can describe.
        public static let maximumParameterLength = 255

        /// The event's code.
        public var eventCode: EventCode
        /// The event parameters, at most 255 octets.
        public var parameters: ArraySlice<UInt8>

        /// A packet carrying `parameters` for `eventCode`.
        public init(eventCode: EventCode, parameters: ArraySlice<UInt8> = []) {
            self.eventCode = eventCode
            self.parameters = parameters
        }

        /// The packet for a typed event; throws if its parameters exceed 255 octets.
        public init(_ event: some HCIEvent) throws(WireError) {
            try self.init(checkedEventCode: type(of: event).eventCode, parameters: event.encoded()[...])
        }

        /// The LE Meta packet (event code 0x3E) for a typed LE subevent: the subevent code
        /// octet followed by the subevent's parameters; throws if they exceed 255 octets.
        public init(leMeta subevent: some HCILEMetaEvent) throws(WireError) {
            var writer = ByteWriter(capacity: 64)
            writer.write(type(of: subevent).subeventCode.rawValue)
            subevent.encode(to: &writer)
            try self.init(checkedEventCode: .leMeta, parameters: writer.bytes[...])
        }

        /// Checks the length before building, so a packet built from typed values always
        /// encodes with a true length field.
        private init(checkedEventCode eventCode: EventCode, parameters: ArraySlice<UInt8>) throws(WireError) {
            guard parameters.count <= EventPacket.maximumParameterLength else {
                throw WireError(
                    field: "HCI.EventPacket.parameterTotalLength",
                    reason: .constraint("\(parameters.count) octets of parameters exceed 255")
                )
            }
            self.init(eventCode: eventCode, parameters: parameters)
        }

        /// The typed event; throws if the event code is not `Event`'s or its parameters
        /// are malformed.
        public func decode<Event: HCIEvent>(as type: Event.Type) throws(WireError) -> Event {
            guard eventCode == Event.eventCode else {
                throw WireError(field: "HCI.EventPacket.eventCode", reason: .invalidValue(UInt64(eventCode.rawValue)))
            }
            return try Event(decoding: parameters)
        }

        /// The typed LE subevent; throws unless this is an LE Meta event with `Event`'s
        /// subevent code and well-formed parameters.
        public func decode<Event: HCILEMetaEvent>(asLEMeta type: Event.Type) throws(WireError) -> Event {
            guard eventCode == .leMeta else {
                throw WireError(field: "HCI.EventPacket.eventCode", reason: .invalidValue(UInt64(eventCode.rawValue)))
            }
            var reader = ByteReader(parameters)
            let code = try reader.readUInt8("HCI.LEMetaEvent.subeventCode")
            guard code == Event.subeventCode.rawValue else {
                throw WireError(field: "HCI.LEMetaEvent.subeventCode", reason: .invalidValue(UInt64(code)))
            }
            return try Event(decoding: reader.readRemaining())
        }

        /// Header plus parameters.
        public var encodedCountEstimate: Int { 2 + parameters.count }

        public init(from reader: inout ByteReader) throws(WireError) {
            eventCode = EventCode(rawValue: try reader.readUInt8("HCI.EventPacket.eventCode"))
            let length = Int(try reader.readUInt8("HCI.EventPacket.parameterTotalLength"))
            guard reader.remainingCount >= length else {
                throw WireError(
                    field: "HCI.EventPacket.parameters",
                    reason: .lengthMismatch(declared: length, actual: reader.remainingCount)
                )
            }
            parameters = try reader.readBytes(length, "HCI.EventPacket.parameters")
        }

        /// Appends event code, length and parameters. A parameter block over 255 octets
        /// (only possible when built by hand) is cut at 255 so the length field stays true;
        /// the typed initialisers refuse such blocks up front.
        public func encode(to writer: inout ByteWriter) {
            writer.write(eventCode.rawValue)
            let length = min(parameters.count, EventPacket.maximumParameterLength)
            writer.write(UInt8(length))
            writer.write(contentsOf: parameters.prefix(length))
        }
    }
}
