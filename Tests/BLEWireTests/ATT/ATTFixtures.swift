import BLEWire

/// Known ATT PDUs, opcode first. Where marked "BlueZ", the octets are from BlueZ's
/// unit/test-gatt.c GATT conversations; "Bumble" is the capture in
/// /work/shared/interop/NOTES.md §7; the rest are built by hand from the field tables
/// of Core 5.4, Vol 3, Part F, §3.4 (the specification gives no ATT sample data).
enum ATTFixtures {
    /// Octets from hex text; an invalid literal gives an empty array, which the tests notice.
    static func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    /// The fewest octets a valid PDU of each opcode has (opcode included): a cut below
    /// this must be rejected. Longer cuts of variable-length PDUs can be valid PDUs.
    static let minimumLength: [UInt8: Int] = [
        0x01: 5, 0x02: 3, 0x03: 3, 0x04: 5, 0x05: 6, 0x06: 7, 0x07: 5, 0x08: 7, 0x09: 4,
        0x0A: 3, 0x0B: 1, 0x0C: 5, 0x0D: 1, 0x0E: 5, 0x0F: 1, 0x10: 7, 0x11: 6, 0x12: 3,
        0x13: 1, 0x16: 5, 0x17: 5, 0x18: 2, 0x19: 1, 0x1B: 3, 0x1D: 3, 0x1E: 1, 0x20: 5,
        0x21: 1, 0x23: 9, 0x52: 3, 0xD2: 15,
    ]

    /// One valid sample per PDU type, with the type to decode it as.
    static let samples: [(name: String, bytes: [UInt8], type: any ATTPDU.Type)] = [
        ("Error Response (BlueZ)", hex("01 10 11 00 0a"), ATT.ErrorResponse.self),
        ("Exchange MTU Request (BlueZ)", hex("02 00 02"), ATT.ExchangeMTURequest.self),
        ("Exchange MTU Response (BlueZ)", hex("03 00 02"), ATT.ExchangeMTUResponse.self),
        ("Find Information Request (BlueZ)", hex("04 08 00 08 00"), ATT.FindInformationRequest.self),
        ("Find Information Response 16-bit (BlueZ)", hex("05 01 08 00 01 29"), ATT.FindInformationResponse.self),
        ("Find Information Response 128-bit",
         hex("05 02 09 00 fb 34 9b 5f 80 00 00 80 00 10 00 00 02 29 00 00"), ATT.FindInformationResponse.self),
        ("Find By Type Value Request (BlueZ)", hex("06 01 00 ff ff 00 28 00 18"), ATT.FindByTypeValueRequest.self),
        ("Find By Type Value Response (BlueZ)", hex("07 01 00 07 00"), ATT.FindByTypeValueResponse.self),
        ("Read By Type Request (Bumble)", hex("08 01 00 05 00 03 28"), ATT.ReadByTypeRequest.self),
        ("Read By Type Response (BlueZ)", hex("09 07 02 00 04 00 00 19 00"), ATT.ReadByTypeResponse.self),
        ("Read Request", hex("0a 03 00"), ATT.ReadRequest.self),
        ("Read Response", hex("0b 42 75 6d 62 6c 65"), ATT.ReadResponse.self),
        ("Read Blob Request", hex("0c 03 00 16 00"), ATT.ReadBlobRequest.self),
        ("Read Blob Response", hex("0d 01 02 03"), ATT.ReadBlobResponse.self),
        ("Read Multiple Request", hex("0e 03 00 05 00"), ATT.ReadMultipleRequest.self),
        ("Read Multiple Response", hex("0f 01 02 03 04"), ATT.ReadMultipleResponse.self),
        ("Read By Group Type Request (BlueZ)", hex("10 01 00 ff ff 00 28"), ATT.ReadByGroupTypeRequest.self),
        ("Read By Group Type Response (BlueZ)", hex("11 06 01 00 04 00 01 18"), ATT.ReadByGroupTypeResponse.self),
        ("Write Request", hex("12 04 00 01 00"), ATT.WriteRequest.self),
        ("Write Response", hex("13"), ATT.WriteResponse.self),
        ("Prepare Write Request", hex("16 05 00 00 00 aa bb"), ATT.PrepareWriteRequest.self),
        ("Prepare Write Response", hex("17 05 00 00 00 aa bb"), ATT.PrepareWriteResponse.self),
        ("Execute Write Request", hex("18 01"), ATT.ExecuteWriteRequest.self),
        ("Execute Write Response", hex("19"), ATT.ExecuteWriteResponse.self),
        ("Handle Value Notification", hex("1b 0f 00 48 00"), ATT.HandleValueNotification.self),
        ("Handle Value Indication", hex("1d 0f 00 01"), ATT.HandleValueIndication.self),
        ("Handle Value Confirmation", hex("1e"), ATT.HandleValueConfirmation.self),
        ("Read Multiple Variable Request", hex("20 03 00 05 00"), ATT.ReadMultipleVariableRequest.self),
        ("Read Multiple Variable Response", hex("21 02 00 aa bb 03 00 cc"), ATT.ReadMultipleVariableResponse.self),
        ("Multiple Handle Value Notification", hex("23 03 00 01 00 aa 05 00 02 00 bb cc"), ATT.MultipleHandleValueNotification.self),
        ("Write Command", hex("52 04 00 01 00"), ATT.WriteCommand.self),
        ("Signed Write Command", hex("d2 04 00 01 02 01 00 00 00 11 22 33 44 55 66 77 88"), ATT.SignedWriteCommand.self),
    ]
}
