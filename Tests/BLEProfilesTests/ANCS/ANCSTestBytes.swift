import BLEWire

/// Hex text as octets, for byte-exact expectations.
func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

/// A UUID as ATT PDUs carry it: 128 bits, least significant octet first.
func wire(_ uuid: BluetoothUUID) -> [UInt8] {
    var writer = ByteWriter()
    uuid.encode(to: &writer, width: .bits128)
    return writer.bytes
}
