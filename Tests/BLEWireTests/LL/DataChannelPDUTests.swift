import BLEWire
import Testing

/// Octets from a hex string with spaces.
private func hex(_ text: String) -> [UInt8] {
    text.split(separator: " ").compactMap { UInt8($0, radix: 16) }
}

@Suite("LL data channel and control PDUs")
struct DataChannelPDUTests {
    // MARK: Known bytes

    @Test("The specification's encrypted LL_START_ENC_RSP and data packet decode as their headers say")
    func sampleDataPackets() throws {
        // Core 5.4, Vol 6, Part C, §1 (encryption sample data): central's LL_START_ENC_RSP.
        let startResponse = try LL.DataChannelPDU(decoding: hex("0f 05 9f cd a7 f4 48"))
        #expect(startResponse.llid == .control)
        #expect(startResponse.nextExpectedSequenceNumber && startResponse.sequenceNumber && !startResponse.moreData)
        #expect(startResponse.payload == hex("9f cd a7 f4 48")[...])
        #expect(startResponse.encoded() == hex("0f 05 9f cd a7 f4 48"))
        // The peripheral's LL_START_ENC_RSP: NESN 1, SN 0.
        let peripheral = try LL.DataChannelPDU(decoding: hex("07 05 a3 4c 13 a4 15"))
        #expect(peripheral.nextExpectedSequenceNumber && !peripheral.sequenceNumber)
        // Data packet 1: an L2CAP start (LLID 10), 27 octets plus the MIC.
        let data = try LL.DataChannelPDU(decoding: [0x0E, 0x1F] + hex("7a 70 d6 64 15 22 6d f2 6b 17 83 9a 06 04 05 59 6b d6 56 4f 79 6b 5b 9c e6 ff 32 f7 5a 6d 33"))
        #expect(data.llid == .start && data.payload.count == 31 && data.firstHeaderOctet == 0x0E)
    }

    @Test("An empty PDU is LLID 01 with no payload; MD, CP and the RFU bits sit where §2.4 puts them")
    func headerBits() throws {
        let empty = LL.DataChannelPDU(llid: .continuationOrEmpty, nextExpectedSequenceNumber: true, sequenceNumber: false, moreData: true, payload: [])
        #expect(empty.encoded() == [0x15, 0x00])
        #expect(empty.isEmpty)
        let withCTE = try LL.DataChannelPDU(decoding: [0xE2, 0x01, 0x54, 0xAB])
        #expect(withCTE.cteInfo == 0x54 && withCTE.reservedBits == 0b11 && withCTE.payload == [0xAB][...])
        #expect(withCTE.encoded() == [0xE2, 0x01, 0x54, 0xAB])
        #expect(throws: WireError.self) { try LL.DataChannelPDU(decoding: [0x00, 0x00]) }
    }

    @Test("Control PDUs built from the specification's sample values encode field by field")
    func sampleControlPDUs() throws {
        // LL_ENC_REQ with Rand, EDIV, SKDm and IVm of Vol 6, Part C, §1.
        let request = LL.ControlPDU.encryptionRequest(.init(
            random: 0xABCD_EF12_3456_7890, encryptedDiversifier: 0x2474,
            sessionKeyDiversifierCentral: 0xACBD_CEDF_E0F1_0213, initializationVectorCentral: 0xBADC_AB24))
        let requestBytes = hex("03 90 78 56 34 12 ef cd ab 74 24 13 02 f1 e0 df ce bd ac 24 ab dc ba")
        #expect(request.encoded() == requestBytes)
        #expect(try LL.ControlPDU(decoding: requestBytes) == request)
        // LL_ENC_RSP with SKDs and IVs of the same sample.
        let responseBytes = hex("04 79 68 57 46 35 24 13 02 be ba af de")
        #expect(try LL.ControlPDU(decoding: responseBytes) == .encryptionResponse(.init(
            sessionKeyDiversifierPeripheral: 0x0213_2435_4657_6879, initializationVectorPeripheral: 0xDEAF_BABE)))
        // The plaintext of the sample LL_START_ENC_RSP is its opcode alone.
        #expect(try LL.ControlPDU(decoding: [0x06]) == .startEncryptionResponse)
        #expect(try LL.ControlPDU(decoding: [0x02, 0x13]) == .terminateIndication(errorCode: .remoteUserTerminatedConnection))
        #expect(try LL.ControlPDU(decoding: hex("14 fb 00 48 08 fb 00 48 08")) == .lengthRequest(.init(maxRxOctets: 251, maxRxTime: 2120, maxTxOctets: 251, maxTxTime: 2120)))
        #expect(try LL.ControlPDU(decoding: hex("0c 0d 5f 00 34 12")) == .versionIndication(.init(version: 0x0D, companyIdentifier: 0x005F, subversion: 0x1234)))
        #expect(try LL.ControlPDU(decoding: hex("18 02 01 10 00")) == .phyUpdateIndication(.init(centralToPeripheralPHY: 2, peripheralToCentralPHY: 1, instant: 16)))
        #expect(try LL.ControlPDU(decoding: hex("00 01 02 00 18 00 00 00 c8 00 34 12")) == .connectionUpdateIndication(.init(
            windowSize: 1, windowOffset: 2, interval: 24, latency: 0, timeout: 200, instant: 0x1234)))
        #expect(try LL.ControlPDU(decoding: hex("01 ff ff ff ff 1f 05 00")) == .channelMapIndication(.init(channelMap: 0x1F_FFFF_FFFF, instant: 5)))
        #expect(try LL.ControlPDU(decoding: hex("11 03 06")) == .rejectExtendedIndication(rejectOpcode: 0x03, errorCode: .pinOrKeyMissing))
        #expect(try LL.ControlPDU(decoding: hex("0f 01 02")) == .unknown(opcode: 0x0F, data: [0x01, 0x02][...]))
    }

    @Test("A modelled opcode with too few or too many CtrData octets is rejected")
    func wrongLengths() {
        #expect(throws: WireError.self) { try LL.ControlPDU(decoding: [0x02]) }
        #expect(throws: WireError.self) { try LL.ControlPDU(decoding: [0x05, 0x00]) }
        #expect(throws: WireError.self) { try LL.ControlPDU(decoding: hex("03 90 78 56")) }
        #expect(throws: WireError.self) { try LL.ControlPDU(decoding: []) }
        #expect(throws: WireError.self) { try LL.DataChannelPDU(decoding: [0x02, 0x05, 0x01]) }
    }

    // MARK: Generated round trips

    static func randomControl(_ g: inout SeededGenerator) -> LL.ControlPDU {
        func u8() -> UInt8 { UInt8.random(in: 0 ... .max, using: &g) }
        func u16() -> UInt16 { UInt16.random(in: 0 ... .max, using: &g) }
        func u32() -> UInt32 { UInt32.random(in: 0 ... .max, using: &g) }
        func u64() -> UInt64 { UInt64.random(in: 0 ... .max, using: &g) }
        func code() -> HCI.StatusCode { HCI.StatusCode(rawValue: u8()) }
        switch Int.random(in: 0 ..< 24, using: &g) {
        case 0: return .connectionUpdateIndication(.init(windowSize: u8(), windowOffset: u16(), interval: u16(), latency: u16(), timeout: u16(), instant: u16()))
        case 1: return .channelMapIndication(.init(channelMap: u64() & 0xFF_FFFF_FFFF, instant: u16()))
        case 2: return .terminateIndication(errorCode: code())
        case 3: return .encryptionRequest(.init(random: u64(), encryptedDiversifier: u16(), sessionKeyDiversifierCentral: u64(), initializationVectorCentral: u32()))
        case 4: return .encryptionResponse(.init(sessionKeyDiversifierPeripheral: u64(), initializationVectorPeripheral: u32()))
        case 5: return .startEncryptionRequest
        case 6: return .startEncryptionResponse
        case 7: return .unknownResponse(unknownType: u8())
        case 8: return .featureRequest(featureSet: u64())
        case 9: return .featureResponse(featureSet: u64())
        case 10: return .pauseEncryptionRequest
        case 11: return .pauseEncryptionResponse
        case 12: return .versionIndication(.init(version: u8(), companyIdentifier: u16(), subversion: u16()))
        case 13: return .rejectIndication(errorCode: code())
        case 14: return .peripheralFeatureRequest(featureSet: u64())
        case 15: return .rejectExtendedIndication(rejectOpcode: u8(), errorCode: code())
        case 16: return .pingRequest
        case 17: return .pingResponse
        case 18: return .lengthRequest(.init(maxRxOctets: u16(), maxRxTime: u16(), maxTxOctets: u16(), maxTxTime: u16()))
        case 19: return .lengthResponse(.init(maxRxOctets: u16(), maxRxTime: u16(), maxTxOctets: u16(), maxTxTime: u16()))
        case 20: return .phyRequest(.init(txPHYs: u8(), rxPHYs: u8()))
        case 21: return .phyResponse(.init(txPHYs: u8(), rxPHYs: u8()))
        case 22: return .phyUpdateIndication(.init(centralToPeripheralPHY: u8(), peripheralToCentralPHY: u8(), instant: u16()))
        default:
            // Opcodes this library does not model: 0x0F, 0x10 and 0x19 upwards.
            let opcode = [UInt8(0x0F), 0x10, 0x19, 0x20, 0x3F, 0xFF][Int.random(in: 0 ..< 6, using: &g)]
            return .unknown(opcode: opcode, data: g.bytes(in: 0 ... 30)[...])
        }
    }

    @Test("Every control PDU round-trips through its wire form")
    func controlRoundTrip() throws {
        var g = SeededGenerator(seed: 0x11)
        var opcodes = Set<UInt8>()
        for _ in 0 ..< 600 {
            let pdu = Self.randomControl(&g)
            opcodes.insert(pdu.opcode)
            #expect(try LL.ControlPDU(decoding: pdu.encoded()) == pdu)
        }
        #expect(opcodes.isSuperset(of: Set(LL.ControlOpcode.allCases.map(\.rawValue))))
    }

    @Test("Data channel PDUs round-trip through their wire form")
    func dataRoundTrip() throws {
        var g = SeededGenerator(seed: 0x22)
        for _ in 0 ..< 400 {
            let pdu = LL.DataChannelPDU(
                llid: LL.DataChannelPDU.LLID.allCases[Int.random(in: 0 ..< 3, using: &g)],
                nextExpectedSequenceNumber: Bool.random(using: &g), sequenceNumber: Bool.random(using: &g),
                moreData: Bool.random(using: &g), cteInfo: Bool.random(using: &g) ? UInt8.random(in: 0 ... .max, using: &g) : nil,
                reservedBits: UInt8.random(in: 0 ... 3, using: &g), payload: g.bytes(in: 0 ... 255)[...])
            #expect(try LL.DataChannelPDU(decoding: pdu.encoded()) == pdu)
        }
    }

    // MARK: Malformed input

    @Test("Malformed data channel PDUs throw, never trap")
    func malformedData() {
        let valid = hex("0e 05 01 02 03 04 05")
        let rejected = MalformedInput.check(valid, as: LL.DataChannelPDU.self)
        #expect(rejected >= valid.count)
        #expect(throws: WireError.self) { try LL.DataChannelPDU(decoding: Array(valid.dropLast())) }
    }

    @Test("Malformed control PDUs throw, never trap")
    func malformedControl() {
        var g = SeededGenerator(seed: 0x33)
        for _ in 0 ..< 60 {
            let valid = Self.randomControl(&g).encoded()
            MalformedInput.check(valid, as: LL.ControlPDU.self)
        }
        let request = hex("03 90 78 56 34 12 ef cd ab 74 24 13 02 f1 e0 df ce bd ac 24 ab dc ba")
        #expect(MalformedInput.check(request, as: LL.ControlPDU.self) >= request.count)
        #expect(throws: WireError.self) { try LL.ControlPDU(decoding: Array(request.dropLast())) }
    }
}
