extension L2CAP {
    /// Disconnection Request (Core 5.4, Vol 3, Part A, §4.6): close a channel. The CIDs
    /// are named from the receiver's side: the destination is the receiver's endpoint.
    public struct DisconnectionRequest: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/disconnectionRequest`` (0x06).
        public static let code = SignalingCode.disconnectionRequest

        /// The receiver's endpoint of the channel.
        public var destinationCID: ChannelIdentifier
        /// The sender's endpoint of the channel.
        public var sourceCID: ChannelIdentifier

        /// A request from its fields.
        public init(destinationCID: ChannelIdentifier, sourceCID: ChannelIdentifier) {
            self.destinationCID = destinationCID
            self.sourceCID = sourceCID
        }

        /// Reads destination and source CIDs.
        public init(from reader: inout ByteReader) throws(WireError) {
            destinationCID = try reader.readChannelIdentifier("L2CAP.DisconnectionRequest.destinationCID")
            sourceCID = try reader.readChannelIdentifier("L2CAP.DisconnectionRequest.sourceCID")
        }

        /// Writes destination and source CIDs.
        public func encode(to writer: inout ByteWriter) {
            writer.write(destinationCID)
            writer.write(sourceCID)
        }
    }

    /// Disconnection Response (Core 5.4, Vol 3, Part A, §4.7): the channel is closed; the
    /// CIDs echo the request's.
    public struct DisconnectionResponse: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/disconnectionResponse`` (0x07).
        public static let code = SignalingCode.disconnectionResponse

        /// The responder's endpoint (the request's destination).
        public var destinationCID: ChannelIdentifier
        /// The requester's endpoint (the request's source).
        public var sourceCID: ChannelIdentifier

        /// A response from its fields.
        public init(destinationCID: ChannelIdentifier, sourceCID: ChannelIdentifier) {
            self.destinationCID = destinationCID
            self.sourceCID = sourceCID
        }

        /// Reads destination and source CIDs.
        public init(from reader: inout ByteReader) throws(WireError) {
            destinationCID = try reader.readChannelIdentifier("L2CAP.DisconnectionResponse.destinationCID")
            sourceCID = try reader.readChannelIdentifier("L2CAP.DisconnectionResponse.sourceCID")
        }

        /// Writes destination and source CIDs.
        public func encode(to writer: inout ByteWriter) {
            writer.write(destinationCID)
            writer.write(sourceCID)
        }
    }

    /// Flow Control Credit Indication (Core 5.4, Vol 3, Part A, §4.24): the sender may
    /// send `credits` more K-frames on the channel.
    public struct FlowControlCreditIndication: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/flowControlCreditIndication`` (0x16).
        public static let code = SignalingCode.flowControlCreditIndication

        /// The sender's endpoint of the channel that receives the credits.
        public var cid: ChannelIdentifier
        /// Credits granted (1–65 535; 0 is invalid but decodes; the total may not pass 65 535).
        public var credits: UInt16

        /// An indication from its fields.
        public init(cid: ChannelIdentifier, credits: UInt16) {
            self.cid = cid
            self.credits = credits
        }

        /// Reads CID and credits.
        public init(from reader: inout ByteReader) throws(WireError) {
            cid = try reader.readChannelIdentifier("L2CAP.FlowControlCreditIndication.cid")
            credits = try reader.readUInt16("L2CAP.FlowControlCreditIndication.credits")
        }

        /// Writes CID and credits.
        public func encode(to writer: inout ByteWriter) {
            writer.write(cid)
            writer.write(credits)
        }
    }
}
