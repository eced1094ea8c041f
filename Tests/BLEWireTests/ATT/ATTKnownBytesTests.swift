import BLEWire
import Testing

@Suite("ATT PDUs from known bytes")
struct ATTKnownBytesTests {
    private func hex(_ text: String) -> [UInt8] { ATTFixtures.hex(text) }

    @Test("Read By Type Request from the Bumble capture discovers characteristics 0x0001–0x0005")
    func readByTypeRequestFromCapture() throws {
        // H4 ACL packet 02 01 20 0b 00 | L2CAP 07 00 04 00 | ATT 08 01 00 05 00 03 28.
        let h4 = hex("02 01 20 0b 00 07 00 04 00 08 01 00 05 00 03 28")
        let frame = try L2CAP.BasicFrame(decoding: h4[5...])
        #expect(frame.channelIdentifier == .attributeProtocol)
        let pdu = try ATT.ReadByTypeRequest(decoding: frame.payload)
        #expect(pdu.startingHandle == 0x0001)
        #expect(pdu.endingHandle == 0x0005)
        #expect(pdu.attributeType == BluetoothUUID(0x2803))
        #expect(pdu.attributeType.width == .bits16)
        #expect(pdu.encoded() == Array(h4[9...]))
    }

    @Test("Error Response names the failed request, handle and reason (BlueZ)")
    func errorResponse() throws {
        let bytes = hex("01 10 11 00 0a")
        let pdu = try ATT.ErrorResponse(decoding: bytes)
        #expect(pdu.requestOpcodeInError == .readByGroupTypeRequest)
        #expect(pdu.attributeHandleInError == 0x0011)
        #expect(pdu.errorCode == .attributeNotFound)
        #expect(pdu.encoded() == bytes)
    }

    @Test("Exchange MTU carries 512 little-endian (BlueZ)")
    func exchangeMTU() throws {
        #expect(try ATT.ExchangeMTURequest(decoding: hex("02 00 02")).clientRxMTU == 512)
        #expect(try ATT.ExchangeMTUResponse(decoding: hex("03 17 00")).serverRxMTU == 23)
        #expect(ATT.ExchangeMTURequest(clientRxMTU: 517).encoded() == hex("02 05 02"))
    }

    @Test("Find Information Response in 16-bit format lists handle 0x0008 as a CCCD (BlueZ)")
    func findInformation16() throws {
        let bytes = hex("05 01 08 00 01 29")
        let pdu = try ATT.FindInformationResponse(decoding: bytes)
        #expect(pdu.format == .handlesAnd16BitUUIDs)
        #expect(pdu.entries == [.init(handle: 0x0008, attributeType: BluetoothUUID(0x2901))])
        #expect(pdu.encoded() == bytes)
    }

    @Test("Find Information Response in 128-bit format keeps the 128-bit width")
    func findInformation128() throws {
        let bytes = hex("05 02 09 00 fb 34 9b 5f 80 00 00 80 00 10 00 00 02 29 00 00")
        let pdu = try ATT.FindInformationResponse(decoding: bytes)
        #expect(pdu.format == .handlesAnd128BitUUIDs)
        #expect(pdu.entries.first?.handle == 0x0009)
        #expect(pdu.entries.first?.attributeType == BluetoothUUID(0x2902))
        #expect(pdu.encoded() == bytes)
    }

    @Test("Find By Type Value looks for primary service 0x1800 and finds 0x0001–0x0007 (BlueZ)")
    func findByTypeValue() throws {
        let request = try ATT.FindByTypeValueRequest(decoding: hex("06 01 00 ff ff 00 28 00 18"))
        #expect(request.startingHandle == 0x0001)
        #expect(request.endingHandle == 0xFFFF)
        #expect(request.attributeType == 0x2800)
        #expect(Array(request.attributeValue) == [0x00, 0x18])
        let response = try ATT.FindByTypeValueResponse(decoding: hex("07 01 00 07 00"))
        #expect(response.handlesInformationList == [.init(foundAttributeHandle: 1, groupEndHandle: 7)])
    }

    @Test("Read By Type Response splits entries by the Length octet (BlueZ)")
    func readByTypeResponse() throws {
        let bytes = hex("09 07 02 00 04 00 00 19 00")
        let pdu = try ATT.ReadByTypeResponse(decoding: bytes)
        #expect(pdu.attributeDataList.count == 1)
        #expect(pdu.attributeDataList.first?.attributeHandle == 0x0002)
        #expect(pdu.attributeDataList.first.map { Array($0.attributeValue) } == [0x04, 0x00, 0x00, 0x19, 0x00])
        #expect(pdu.encoded() == bytes)
    }

    @Test("Read By Type Response with two entries shares the input's storage")
    func readByTypeResponseTwoEntries() throws {
        let bytes = hex("09 04 03 00 aa bb 05 00 cc dd")
        let pdu = try ATT.ReadByTypeResponse(decoding: bytes)
        #expect(pdu.attributeDataList.map(\.attributeHandle) == [3, 5])
        #expect(pdu.attributeDataList.map { Array($0.attributeValue) } == [[0xAA, 0xBB], [0xCC, 0xDD]])
        #expect(pdu.attributeDataList.last?.attributeValue.startIndex == 8)
    }

    @Test("Read By Type Response rejects a Length below 2 and a partial entry")
    func readByTypeResponseInvalid() {
        #expect(throws: WireError(field: "ATT.ReadByTypeResponse.length", reason: .invalidValue(1))) {
            try ATT.ReadByTypeResponse(decoding: ATTFixtures.hex("09 01 03"))
        }
        #expect(throws: WireError.self) { try ATT.ReadByTypeResponse(decoding: ATTFixtures.hex("09 04 03 00 aa bb 05 00 cc")) }
        #expect(throws: WireError.self) { try ATT.ReadByTypeResponse(decoding: ATTFixtures.hex("09 04")) }
    }

    @Test("Read By Type Request with a 128-bit type, and a 4-octet type is rejected")
    func readByTypeRequest128() throws {
        let bytes = hex("08 01 00 ff ff fb 34 9b 5f 80 00 00 80 00 10 00 00 0d 18 00 00")
        let pdu = try ATT.ReadByTypeRequest(decoding: bytes)
        #expect(pdu.attributeType == BluetoothUUID(0x180D))
        #expect(pdu.attributeType.width == .bits128)
        #expect(pdu.encoded() == bytes)
        #expect(throws: WireError.self) { try ATT.ReadByTypeRequest(decoding: ATTFixtures.hex("08 01 00 ff ff 0d 18 00 00")) }
    }

    @Test("A range whose start is above its end still decodes")
    func invertedRange() throws {
        let pdu = try ATT.ReadByGroupTypeRequest(decoding: hex("10 09 00 01 00 00 28"))
        #expect(pdu.startingHandle == 9)
        #expect(pdu.endingHandle == 1)
        let info = try ATT.FindInformationRequest(decoding: hex("04 00 00 00 00"))
        #expect(info.startingHandle == 0)
    }

    @Test("Read By Group Type discovers GAP and GATT services (BlueZ)")
    func readByGroupType() throws {
        let request = try ATT.ReadByGroupTypeRequest(decoding: hex("10 01 00 ff ff 00 28"))
        #expect(request.attributeGroupType == BluetoothUUID(0x2800))
        let bytes = hex("11 06 01 00 04 00 01 18")
        let response = try ATT.ReadByGroupTypeResponse(decoding: bytes)
        #expect(response.attributeDataList.count == 1)
        #expect(response.attributeDataList.first?.attributeHandle == 1)
        #expect(response.attributeDataList.first?.endGroupHandle == 4)
        #expect(response.attributeDataList.first.map { Array($0.attributeValue) } == [0x01, 0x18])
        #expect(response.encoded() == bytes)
        #expect(throws: WireError.self) { try ATT.ReadByGroupTypeResponse(decoding: ATTFixtures.hex("11 03 01 00 04")) }
    }

    @Test("Read Multiple needs at least two handles")
    func readMultiple() throws {
        #expect(try ATT.ReadMultipleRequest(decoding: hex("0e 03 00 05 00")).setOfHandles == [3, 5])
        #expect(throws: WireError.self) { try ATT.ReadMultipleRequest(decoding: ATTFixtures.hex("0e 03 00")) }
        #expect(throws: WireError.self) { try ATT.ReadMultipleVariableRequest(decoding: ATTFixtures.hex("20 03 00 05")) }
    }

    @Test("Read Multiple Variable Response keeps a value cut by ATT_MTU")
    func readMultipleVariableCut() throws {
        let bytes = hex("21 02 00 aa bb 03 00 cc")
        let pdu = try ATT.ReadMultipleVariableResponse(decoding: bytes)
        #expect(pdu.lengthValueTuples.count == 2)
        #expect(pdu.lengthValueTuples.first?.isComplete == true)
        #expect(pdu.lengthValueTuples.last?.valueLength == 3)
        #expect(pdu.lengthValueTuples.last.map { Array($0.attributeValue) } == [0xCC])
        #expect(!pdu.isComplete)
        #expect(pdu.encoded() == bytes)
    }

    @Test("Read Multiple Variable Response keeps a length field cut after its first octet")
    func readMultipleVariableCutLength() throws {
        let bytes = hex("21 01 00 aa 05")
        let pdu = try ATT.ReadMultipleVariableResponse(decoding: bytes)
        #expect(pdu.lengthValueTuples == [.init(valueLength: 1, attributeValue: [0xAA])])
        #expect(pdu.partialLengthOctet == 0x05)
        #expect(!pdu.isComplete)
        #expect(pdu.encoded() == bytes)
        let whole = try ATT.ReadMultipleVariableResponse(decoding: hex("21 01 00 aa 00 00"))
        #expect(whole.isComplete)
        #expect(whole.lengthValueTuples.count == 2)
    }

    @Test("Signed Write Command splits value and the last 12 octets of signature")
    func signedWrite() throws {
        let bytes = hex("d2 04 00 01 02 01 00 00 00 11 22 33 44 55 66 77 88")
        let pdu = try ATT.SignedWriteCommand(decoding: bytes)
        #expect(pdu.attributeHandle == 4)
        #expect(Array(pdu.attributeValue) == [0x01, 0x02])
        #expect(pdu.authenticationSignature.signCounter == 1)
        #expect(pdu.authenticationSignature.messageAuthenticationCode == 0x8877_6655_4433_2211)
        #expect(pdu.encoded() == bytes)
        #expect(ATT.SignedWriteCommand.opcode.hasAuthenticationSignature)
        #expect(ATT.SignedWriteCommand.opcode.isCommand)
        #expect(ATT.SignedWriteCommand.opcode.method == 0x12)
        #expect(throws: WireError.self) { try ATT.SignedWriteCommand(decoding: ATTFixtures.hex("d2 04 00 01 02 03 04 05 06 07 08 09 0a 0b")) }
    }

    @Test("Execute Write accepts flags 0 and 1 only")
    func executeWriteFlags() throws {
        #expect(try ATT.ExecuteWriteRequest(decoding: hex("18 00")).flags == .cancelAllPreparedWrites)
        #expect(try ATT.ExecuteWriteRequest(decoding: hex("18 01")).flags == .writeAllPendingPreparedValues)
        #expect(throws: WireError(field: "ATT.ExecuteWriteRequest.flags", reason: .invalidValue(2))) {
            try ATT.ExecuteWriteRequest(decoding: ATTFixtures.hex("18 02"))
        }
    }

    @Test("Multiple Handle Value Notification needs two whole tuples")
    func multipleNotification() throws {
        let pdu = try ATT.MultipleHandleValueNotification(decoding: hex("23 03 00 01 00 aa 05 00 02 00 bb cc"))
        #expect(pdu.handleLengthValueTuples.map(\.attributeHandle) == [3, 5])
        #expect(pdu.handleLengthValueTuples.map { Array($0.attributeValue) } == [[0xAA], [0xBB, 0xCC]])
        #expect(throws: WireError.self) { try ATT.MultipleHandleValueNotification(decoding: ATTFixtures.hex("23 03 00 01 00 aa")) }
        #expect(throws: WireError.self) { try ATT.MultipleHandleValueNotification(decoding: ATTFixtures.hex("23 03 00 01 00 aa 05 00 03 00 bb cc")) }
    }

    @Test("A PDU decoder rejects another PDU's opcode")
    func wrongOpcode() {
        #expect(throws: WireError(field: "ATT.ReadRequest.opcode", reason: .invalidValue(0x0C))) {
            try ATT.ReadRequest(decoding: ATTFixtures.hex("0c 03 00"))
        }
    }

    @Test("Error codes are total and keep their octet")
    func errorCodes() {
        for raw in UInt8.min ... UInt8.max {
            #expect(ATT.ErrorCode(rawValue: raw).rawValue == raw)
        }
        #expect(ATT.ErrorCode(rawValue: 0x0A) == .attributeNotFound)
        #expect(ATT.ErrorCode(rawValue: 0x13) == .valueNotAllowed)
        #expect(ATT.ErrorCode(rawValue: 0x85) == .application(0x85))
        #expect(ATT.ErrorCode(rawValue: 0xFD) == .clientCharacteristicConfigurationDescriptorImproperlyConfigured)
        #expect(ATT.ErrorCode(rawValue: 0x40) == .unlisted(0x40))
        #expect(ATT.ErrorCode.insufficientEncryption.description == "Insufficient Encryption (0x0F)")
    }

    @Test("Opcode flags split method, command and signature bits")
    func opcodeBits() {
        #expect(ATT.Opcode.writeCommand.isCommand)
        #expect(!ATT.Opcode.writeCommand.hasAuthenticationSignature)
        #expect(ATT.Opcode.writeCommand.method == ATT.Opcode.writeRequest.method)
        #expect(!ATT.Opcode.readRequest.isCommand)
        #expect(ATT.Opcode.handleValueNotification.description == "0x1B")
    }
}
