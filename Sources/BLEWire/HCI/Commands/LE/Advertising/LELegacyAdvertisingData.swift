extension HCI {
    /// The longest legacy advertising or scan response payload (Core 5.4, Vol 4, Part E,
    /// §7.8.7): the data field is always 31 octets on the wire.
    public static let legacyAdvertisingDataLength = 31

    /// HCI_LE_Set_Advertising_Data (Core 5.4, Vol 4, Part E, §7.8.7): the AD structures of
    /// legacy advertising PDUs.
    public struct LESetAdvertisingData: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetAdvertisingData``.
        public static let opcode = Opcode.leSetAdvertisingData

        /// The significant octets, at most 31. On the wire a length octet precedes them and
        /// zeros pad them to 31; an encoder given more than 31 sends the first 31.
        public var advertisingData: ArraySlice<UInt8>

        /// The command carrying `advertisingData`.
        public init(advertisingData: ArraySlice<UInt8>) { self.advertisingData = advertisingData }

        public init(from reader: inout ByteReader) throws(WireError) {
            advertisingData = try readLegacyData(&reader, type: "HCI.LESetAdvertisingData")
        }

        public func encode(to writer: inout ByteWriter) { writeLegacyData(advertisingData, to: &writer) }
    }

    /// HCI_LE_Set_Scan_Response_Data (Core 5.4, Vol 4, Part E, §7.8.8): the AD structures
    /// sent in answer to a scan request.
    public struct LESetScanResponseData: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetScanResponseData``.
        public static let opcode = Opcode.leSetScanResponseData

        /// The significant octets, at most 31. On the wire a length octet precedes them and
        /// zeros pad them to 31; an encoder given more than 31 sends the first 31.
        public var scanResponseData: ArraySlice<UInt8>

        /// The command carrying `scanResponseData`.
        public init(scanResponseData: ArraySlice<UInt8>) { self.scanResponseData = scanResponseData }

        public init(from reader: inout ByteReader) throws(WireError) {
            scanResponseData = try readLegacyData(&reader, type: "HCI.LESetScanResponseData")
        }

        public func encode(to writer: inout ByteWriter) { writeLegacyData(scanResponseData, to: &writer) }
    }
}

/// Reads a length octet (at most 31) and the fixed 31-octet field, keeping only the
/// significant part (padding is ignored, as the specification says).
private func readLegacyData(_ reader: inout ByteReader, type: String) throws(WireError) -> ArraySlice<UInt8> {
    let length = Int(try reader.readUInt8(type + ".dataLength"))
    guard length <= HCI.legacyAdvertisingDataLength else {
        throw WireError(field: type + ".dataLength", reason: .invalidValue(UInt64(length)))
    }
    let field = try reader.readBytes(HCI.legacyAdvertisingDataLength, type + ".data")
    return field.prefix(length)
}

/// Writes the length octet, the significant octets and zero padding to 31 octets.
private func writeLegacyData(_ data: ArraySlice<UInt8>, to writer: inout ByteWriter) {
    let significant = data.prefix(HCI.legacyAdvertisingDataLength)
    writer.write(UInt8(significant.count))
    writer.write(contentsOf: significant)
    for _ in significant.count ..< HCI.legacyAdvertisingDataLength { writer.write(UInt8(0)) }
}
