extension ByteReader {
    /// Reads an attribute type that fills the rest of a PDU: 2 octets for a 16-bit UUID or
    /// 16 for a 128-bit one, as in Read By Type and Read By Group Type Requests
    /// (Core 5.4, Vol 3, Part F, §3.4.4.1 and §3.4.4.9). 32-bit UUIDs are not allowed in ATT.
    mutating func readATTAttributeType(_ field: @autoclosure () -> String) throws(WireError) -> BluetoothUUID {
        switch remainingCount {
        case 2: return try BluetoothUUID(from: &self, width: .bits16, field: field())
        case 16: return try BluetoothUUID(from: &self, width: .bits128, field: field())
        default:
            throw WireError(field: field(), reason: .constraint("an attribute type is 2 or 16 octets, not \(remainingCount)"))
        }
    }
}

extension ByteWriter {
    /// Writes an attribute type in 2 octets when it has the 16-bit width, else in 16:
    /// ATT has no 32-bit form (Core 5.4, Vol 3, Part F, §3.2.1).
    mutating func writeATTAttributeType(_ type: BluetoothUUID) {
        if type.width == .bits16 {
            type.encode(to: &self)
        } else {
            write(type.value)
        }
    }
}
