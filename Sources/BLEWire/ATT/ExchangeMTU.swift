extension ATT {
    /// Exchange MTU Request (Core 5.4, Vol 3, Part F, §3.4.2.1): the client's receive MTU,
    /// sent once per connection to raise ATT_MTU above the default 23.
    public struct ExchangeMTURequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/exchangeMTURequest`` (0x02).
        public static let opcode = Opcode.exchangeMTURequest

        /// The largest ATT PDU the client can receive. Values below 23 are invalid for the
        /// protocol but are carried as sent; the server uses 23 instead (§3.4.2.2).
        public var clientRxMTU: UInt16

        /// A request from the client's receive MTU.
        public init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }

        /// Reads opcode and Client Rx MTU.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ExchangeMTURequest.opcode")
            clientRxMTU = try reader.readUInt16("ATT.ExchangeMTURequest.clientRxMTU")
        }

        /// Writes opcode and Client Rx MTU.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(clientRxMTU)
        }
    }

    /// Exchange MTU Response (Core 5.4, Vol 3, Part F, §3.4.2.2): the server's receive MTU;
    /// both sides then use the smaller of the two as ATT_MTU.
    public struct ExchangeMTUResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/exchangeMTUResponse`` (0x03).
        public static let opcode = Opcode.exchangeMTUResponse

        /// The largest ATT PDU the server can receive.
        public var serverRxMTU: UInt16

        /// A response from the server's receive MTU.
        public init(serverRxMTU: UInt16) { self.serverRxMTU = serverRxMTU }

        /// Reads opcode and Server Rx MTU.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ExchangeMTUResponse.opcode")
            serverRxMTU = try reader.readUInt16("ATT.ExchangeMTUResponse.serverRxMTU")
        }

        /// Writes opcode and Server Rx MTU.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(serverRxMTU)
        }
    }
}
