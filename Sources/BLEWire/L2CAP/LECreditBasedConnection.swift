extension L2CAP {
    /// LE Credit Based Connection Request (Core 5.4, Vol 3, Part A, §4.22): open one
    /// credit-based channel to a protocol or service (SPSM).
    ///
    /// Values are carried as sent; range checks (MTU ≥ 23, MPS 23–65 533, SPSM ranges)
    /// belong to the responder, which answers with a result rather than a Command Reject.
    public struct LECreditBasedConnectionRequest: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/leCreditBasedConnectionRequest`` (0x14).
        public static let code = SignalingCode.leCreditBasedConnectionRequest

        /// The Simplified Protocol/Service Multiplexer to connect to.
        public var spsm: UInt16
        /// The requester's endpoint.
        public var sourceCID: ChannelIdentifier
        /// The largest SDU the requester can receive.
        public var mtu: UInt16
        /// The largest K-frame payload the requester can receive.
        public var mps: UInt16
        /// K-frames the responder may send before waiting for more credits.
        public var initialCredits: UInt16

        /// A request from its fields.
        public init(spsm: UInt16, sourceCID: ChannelIdentifier, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
            self.spsm = spsm
            self.sourceCID = sourceCID
            self.mtu = mtu
            self.mps = mps
            self.initialCredits = initialCredits
        }

        /// Reads SPSM, source CID, MTU, MPS and initial credits (10 octets).
        public init(from reader: inout ByteReader) throws(WireError) {
            spsm = try reader.readUInt16("L2CAP.LECreditBasedConnectionRequest.spsm")
            sourceCID = try reader.readChannelIdentifier("L2CAP.LECreditBasedConnectionRequest.sourceCID")
            mtu = try reader.readUInt16("L2CAP.LECreditBasedConnectionRequest.mtu")
            mps = try reader.readUInt16("L2CAP.LECreditBasedConnectionRequest.mps")
            initialCredits = try reader.readUInt16("L2CAP.LECreditBasedConnectionRequest.initialCredits")
        }

        /// Writes the five fields.
        public func encode(to writer: inout ByteWriter) {
            writer.write(spsm)
            writer.write(sourceCID)
            writer.write(mtu)
            writer.write(mps)
            writer.write(initialCredits)
        }
    }

    /// LE Credit Based Connection Response (Core 5.4, Vol 3, Part A, §4.23): the
    /// responder's endpoint and parameters, or why it refused (then the other fields are 0).
    public struct LECreditBasedConnectionResponse: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/leCreditBasedConnectionResponse`` (0x15).
        public static let code = SignalingCode.leCreditBasedConnectionResponse

        /// The responder's endpoint.
        public var destinationCID: ChannelIdentifier
        /// The largest SDU the responder can receive.
        public var mtu: UInt16
        /// The largest K-frame payload the responder can receive.
        public var mps: UInt16
        /// K-frames the requester may send before waiting for more credits.
        public var initialCredits: UInt16
        /// Whether the channel was opened.
        public var result: CreditBasedConnectionResult

        /// A response from its fields.
        public init(destinationCID: ChannelIdentifier, mtu: UInt16, mps: UInt16, initialCredits: UInt16,
                    result: CreditBasedConnectionResult) {
            self.destinationCID = destinationCID
            self.mtu = mtu
            self.mps = mps
            self.initialCredits = initialCredits
            self.result = result
        }

        /// Reads destination CID, MTU, MPS, initial credits and result (10 octets).
        public init(from reader: inout ByteReader) throws(WireError) {
            destinationCID = try reader.readChannelIdentifier("L2CAP.LECreditBasedConnectionResponse.destinationCID")
            mtu = try reader.readUInt16("L2CAP.LECreditBasedConnectionResponse.mtu")
            mps = try reader.readUInt16("L2CAP.LECreditBasedConnectionResponse.mps")
            initialCredits = try reader.readUInt16("L2CAP.LECreditBasedConnectionResponse.initialCredits")
            result = CreditBasedConnectionResult(rawValue: try reader.readUInt16("L2CAP.LECreditBasedConnectionResponse.result"))
        }

        /// Writes the five fields.
        public func encode(to writer: inout ByteWriter) {
            writer.write(destinationCID)
            writer.write(mtu)
            writer.write(mps)
            writer.write(initialCredits)
            writer.write(result.rawValue)
        }
    }
}
