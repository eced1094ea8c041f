extension ByteReader {
    /// Reads a list of CIDs that fills the rest of a command: between `minimum` and 5.
    mutating func readChannelIdentifierList(minimum: Int, _ field: String) throws(WireError) -> [L2CAP.ChannelIdentifier] {
        let count = remainingCount / 2
        guard remainingCount % 2 == 0, count >= minimum, count <= 5 else {
            throw WireError(field: field, reason: .constraint("\(remainingCount) octets are not \(minimum) to 5 CIDs"))
        }
        var list: [L2CAP.ChannelIdentifier] = []
        list.reserveCapacity(count)
        while !isAtEnd { list.append(try readChannelIdentifier(field)) }
        return list
    }
}

extension L2CAP {
    /// Credit Based Connection Request (Core 5.4, Vol 3, Part A, §4.25): open one to five
    /// credit-based channels with the same SPSM and parameters at once (Enhanced Credit
    /// Based Flow Control Mode).
    public struct CreditBasedConnectionRequest: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/creditBasedConnectionRequest`` (0x17).
        public static let code = SignalingCode.creditBasedConnectionRequest

        /// The Simplified Protocol/Service Multiplexer to connect to.
        public var spsm: UInt16
        /// The largest SDU the requester can receive on each channel (at least 64).
        public var mtu: UInt16
        /// The largest K-frame payload the requester can receive (at least 64).
        public var mps: UInt16
        /// K-frames the responder may send on each channel before waiting for credits.
        public var initialCredits: UInt16
        /// The requester's endpoints, one per channel: one to five.
        public var sourceCIDs: [ChannelIdentifier]

        /// A request from its fields.
        public init(spsm: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16, sourceCIDs: [ChannelIdentifier]) {
            self.spsm = spsm
            self.mtu = mtu
            self.mps = mps
            self.initialCredits = initialCredits
            self.sourceCIDs = sourceCIDs
        }

        /// Reads SPSM, MTU, MPS, initial credits and one to five source CIDs.
        public init(from reader: inout ByteReader) throws(WireError) {
            spsm = try reader.readUInt16("L2CAP.CreditBasedConnectionRequest.spsm")
            mtu = try reader.readUInt16("L2CAP.CreditBasedConnectionRequest.mtu")
            mps = try reader.readUInt16("L2CAP.CreditBasedConnectionRequest.mps")
            initialCredits = try reader.readUInt16("L2CAP.CreditBasedConnectionRequest.initialCredits")
            sourceCIDs = try reader.readChannelIdentifierList(minimum: 1, "L2CAP.CreditBasedConnectionRequest.sourceCIDs")
        }

        /// Writes the fields and the CIDs.
        public func encode(to writer: inout ByteWriter) {
            writer.write(spsm)
            writer.write(mtu)
            writer.write(mps)
            writer.write(initialCredits)
            for cid in sourceCIDs { writer.write(cid) }
        }
    }

    /// Credit Based Connection Response (Core 5.4, Vol 3, Part A, §4.26): the responder's
    /// parameters and one destination CID per requested channel, 0x0000 for a refused one.
    ///
    /// The decoder accepts zero to five CIDs: matching the count to the request's is the
    /// channel layer's job, since only it knows the request.
    public struct CreditBasedConnectionResponse: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/creditBasedConnectionResponse`` (0x18).
        public static let code = SignalingCode.creditBasedConnectionResponse

        /// The largest SDU the responder can receive on each channel.
        public var mtu: UInt16
        /// The largest K-frame payload the responder can receive.
        public var mps: UInt16
        /// K-frames the requester may send on each channel before waiting for credits.
        public var initialCredits: UInt16
        /// Whether (and which) channels were opened.
        public var result: CreditBasedConnectionResult
        /// The responder's endpoints in request order; ``ChannelIdentifier/null`` for a refused channel.
        public var destinationCIDs: [ChannelIdentifier]

        /// A response from its fields.
        public init(mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: CreditBasedConnectionResult,
                    destinationCIDs: [ChannelIdentifier]) {
            self.mtu = mtu
            self.mps = mps
            self.initialCredits = initialCredits
            self.result = result
            self.destinationCIDs = destinationCIDs
        }

        /// Reads MTU, MPS, initial credits, result and zero to five destination CIDs.
        public init(from reader: inout ByteReader) throws(WireError) {
            mtu = try reader.readUInt16("L2CAP.CreditBasedConnectionResponse.mtu")
            mps = try reader.readUInt16("L2CAP.CreditBasedConnectionResponse.mps")
            initialCredits = try reader.readUInt16("L2CAP.CreditBasedConnectionResponse.initialCredits")
            result = CreditBasedConnectionResult(rawValue: try reader.readUInt16("L2CAP.CreditBasedConnectionResponse.result"))
            destinationCIDs = try reader.readChannelIdentifierList(minimum: 0, "L2CAP.CreditBasedConnectionResponse.destinationCIDs")
        }

        /// Writes the fields and the CIDs.
        public func encode(to writer: inout ByteWriter) {
            writer.write(mtu)
            writer.write(mps)
            writer.write(initialCredits)
            writer.write(result.rawValue)
            for cid in destinationCIDs { writer.write(cid) }
        }
    }

    /// Credit Based Reconfigure Request (Core 5.4, Vol 3, Part A, §4.27): raise the MTU
    /// and MPS of one to five channels opened with Credit Based Connection Request.
    public struct CreditBasedReconfigureRequest: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/creditBasedReconfigureRequest`` (0x19).
        public static let code = SignalingCode.creditBasedReconfigureRequest

        /// The new largest SDU the requester can receive.
        public var mtu: UInt16
        /// The new largest K-frame payload the requester can receive.
        public var mps: UInt16
        /// The requester's endpoints of the channels to change (named "Destination CID"
        /// by the specification), one to five.
        public var destinationCIDs: [ChannelIdentifier]

        /// A request from its fields.
        public init(mtu: UInt16, mps: UInt16, destinationCIDs: [ChannelIdentifier]) {
            self.mtu = mtu
            self.mps = mps
            self.destinationCIDs = destinationCIDs
        }

        /// Reads MTU, MPS and one to five CIDs.
        public init(from reader: inout ByteReader) throws(WireError) {
            mtu = try reader.readUInt16("L2CAP.CreditBasedReconfigureRequest.mtu")
            mps = try reader.readUInt16("L2CAP.CreditBasedReconfigureRequest.mps")
            destinationCIDs = try reader.readChannelIdentifierList(minimum: 1, "L2CAP.CreditBasedReconfigureRequest.destinationCIDs")
        }

        /// Writes MTU, MPS and the CIDs.
        public func encode(to writer: inout ByteWriter) {
            writer.write(mtu)
            writer.write(mps)
            for cid in destinationCIDs { writer.write(cid) }
        }
    }

    /// Credit Based Reconfigure Response (Core 5.4, Vol 3, Part A, §4.28): whether the new
    /// MTU and MPS were accepted.
    public struct CreditBasedReconfigureResponse: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/creditBasedReconfigureResponse`` (0x1A).
        public static let code = SignalingCode.creditBasedReconfigureResponse

        /// The Result field (Table 4.19); reserved values are rejected.
        public enum Result: UInt16, Hashable, Sendable {
            /// 0x0000: reconfiguration successful.
            case successful = 0x0000
            /// 0x0001: failed, reducing the MTU is not allowed.
            case mtuReductionNotAllowed = 0x0001
            /// 0x0002: failed, reducing the MPS is not allowed for more than one channel at a time.
            case mpsReductionNotAllowed = 0x0002
            /// 0x0003: failed, one or more destination CIDs invalid.
            case invalidDestinationCID = 0x0003
            /// 0x0004: failed, other unacceptable parameters.
            case unacceptableParameters = 0x0004
        }

        /// The outcome.
        public var result: Result

        /// A response with `result`.
        public init(result: Result) { self.result = result }

        /// Reads the result; a reserved value throws.
        public init(from reader: inout ByteReader) throws(WireError) {
            let raw = try reader.readUInt16("L2CAP.CreditBasedReconfigureResponse.result")
            guard let result = Result(rawValue: raw) else {
                throw WireError(field: "L2CAP.CreditBasedReconfigureResponse.result", reason: .invalidValue(UInt64(raw)))
            }
            self.result = result
        }

        /// Writes the result.
        public func encode(to writer: inout ByteWriter) {
            writer.write(result.rawValue)
        }
    }
}
