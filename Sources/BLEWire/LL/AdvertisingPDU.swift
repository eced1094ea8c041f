extension LL {
    /// The PDU Type field of an advertising physical channel PDU header (Core 5.4, Vol 6,
    /// Part B, §2.3, Table 2.3). The same value names different PDUs on primary and secondary
    /// channels (e.g. 0b0011 is SCAN_REQ or AUX_SCAN_REQ); the legacy names are used here.
    public enum AdvertisingPDUType: UInt8, Hashable, Sendable, CaseIterable {
        /// ADV_IND: connectable and scannable undirected advertising (§2.3.1.1).
        case advInd = 0b0000
        /// ADV_DIRECT_IND: connectable directed advertising (§2.3.1.2).
        case advDirectInd = 0b0001
        /// ADV_NONCONN_IND: non-connectable, non-scannable undirected advertising (§2.3.1.3).
        case advNonconnInd = 0b0010
        /// SCAN_REQ (or AUX_SCAN_REQ on a secondary channel): a scanner asks for more data (§2.3.2.1).
        case scanReq = 0b0011
        /// SCAN_RSP: the advertiser's answer to SCAN_REQ (§2.3.2.2).
        case scanRsp = 0b0100
        /// CONNECT_IND (or AUX_CONNECT_REQ): an initiator opens a connection (§2.3.3.1).
        case connectInd = 0b0101
        /// ADV_SCAN_IND: scannable, non-connectable undirected advertising (§2.3.1.4).
        case advScanInd = 0b0110
        /// ADV_EXT_IND and the other extended advertising PDUs of type 0b0111 (§2.3.4).
        case advExtInd = 0b0111
        /// AUX_CONNECT_RSP, the answer to AUX_CONNECT_REQ on a secondary channel (§2.3.3.2).
        case auxConnectRsp = 0b1000
    }

    /// An advertising physical channel PDU (Core 5.4, Vol 6, Part B, §2.3): a 16-bit header
    /// (PDU Type, RFU, ChSel, TxAdd, RxAdd, Length) and a payload whose layout the type selects.
    ///
    /// TxAdd and RxAdd are not stored separately: they are the kinds (public or random) of
    /// the addresses in the payload. Header bits the specification leaves reserved for this
    /// PDU type (bit 4 always, RxAdd where the payload has one address) are kept raw in
    /// ``reservedBits`` so that decoding and encoding again reproduce the input.
    public struct AdvertisingPDU: WireCodable, Hashable {
        /// The header bit that is always reserved (bit 4).
        public static let alwaysReservedBit: UInt8 = 0x10
        /// The RxAdd header bit (bit 7), reserved for PDUs with a single address.
        public static let rxAddBit: UInt8 = 0x80
        /// The TxAdd header bit (bit 6).
        public static let txAddBit: UInt8 = 0x40
        /// The ChSel header bit (bit 5).
        public static let channelSelectionBit: UInt8 = 0x20
        /// The largest advertising or scan response data of a legacy PDU (§2.3.1).
        public static let maximumLegacyDataLength = 31

        /// The typed payload; it also decides the PDU type and the TxAdd/RxAdd bits.
        public var payload: Payload
        /// ChSel: the sender supports Channel Selection Algorithm #2 (§2.3); meaningful in
        /// ADV_IND, ADV_DIRECT_IND and CONNECT_IND, kept raw in the others.
        public var channelSelection: Bool
        /// Raw values of the header bits that are reserved for this PDU type, at their
        /// header positions (see ``reservedMask(for:)``). Zero when sending.
        public var reservedBits: UInt8

        /// A PDU with `payload`, the ChSel bit and reserved header bits (normally zero).
        public init(payload: Payload, channelSelection: Bool = false, reservedBits: UInt8 = 0) {
            self.payload = payload
            self.channelSelection = channelSelection
            self.reservedBits = reservedBits & AdvertisingPDU.reservedMask(for: payload.pduType)
        }

        /// The header bits reserved for a PDU of `type`: bit 4 always, plus RxAdd when the
        /// payload carries only the sender's address, plus TxAdd for the extended PDUs this
        /// type does not interpret.
        public static func reservedMask(for type: AdvertisingPDUType) -> UInt8 {
            switch type {
            case .advDirectInd, .scanReq, .connectInd: return alwaysReservedBit
            case .advInd, .advNonconnInd, .scanRsp, .advScanInd: return alwaysReservedBit | rxAddBit
            case .advExtInd, .auxConnectRsp: return alwaysReservedBit | rxAddBit | txAddBit
            }
        }

        /// The PDU type of the payload.
        public var pduType: AdvertisingPDUType { payload.pduType }

        /// Header (2 octets) and the longest payload.
        public var encodedCountEstimate: Int { 2 + 37 }

        /// Decodes header and payload: the Length must fit the octets present, the PDU type
        /// must not be reserved, and the payload must have its type's exact layout.
        public init(from reader: inout ByteReader) throws(WireError) {
            let header = try reader.readUInt8("LL.AdvertisingPDU.header")
            let rawType = header & 0x0F
            guard let type = AdvertisingPDUType(rawValue: rawType) else {
                throw WireError(field: "LL.AdvertisingPDU.pduType", reason: .invalidValue(UInt64(rawType)))
            }
            let length = Int(try reader.readUInt8("LL.AdvertisingPDU.length"))
            guard reader.remainingCount >= length else {
                throw WireError(
                    field: "LL.AdvertisingPDU.payload",
                    reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            var body = try reader.subReader(length, "LL.AdvertisingPDU.payload")
            let txKind: BluetoothAddress.Kind = header & AdvertisingPDU.txAddBit == 0 ? .public : .random
            let rxKind: BluetoothAddress.Kind = header & AdvertisingPDU.rxAddBit == 0 ? .public : .random
            payload = try Payload(type: type, txKind: txKind, rxKind: rxKind, from: &body)
            try body.expectEnd("LL.AdvertisingPDU.payload")
            channelSelection = header & AdvertisingPDU.channelSelectionBit != 0
            reservedBits = header & AdvertisingPDU.reservedMask(for: type)
        }

        /// Appends header and payload. Data longer than a legacy PDU allows (only possible
        /// when built by hand) is cut at 31 octets so the Length field stays within range.
        public func encode(to writer: inout ByteWriter) {
            let type = payload.pduType
            var header = type.rawValue | (reservedBits & AdvertisingPDU.reservedMask(for: type))
            if channelSelection { header |= AdvertisingPDU.channelSelectionBit }
            if payload.txAddIsRandom { header |= AdvertisingPDU.txAddBit }
            if payload.rxAddIsRandom { header |= AdvertisingPDU.rxAddBit }
            writer.write(header)
            let lengthIndex = writer.reserveLength8()
            payload.encode(to: &writer)
            writer.patchLength8(at: lengthIndex)
        }
    }
}
