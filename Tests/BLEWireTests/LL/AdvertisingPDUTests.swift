import BLEWire
import Testing

@Suite("LL advertising-channel PDUs")
struct AdvertisingPDUTests {
    // Known bytes built field by field from Core 5.4, Vol 6, Part B, §2.3 (Figure 2.5 header:
    // PDU Type bits 0–3, RFU bit 4, ChSel bit 5, TxAdd bit 6, RxAdd bit 7, then Length) and
    // §2.3.1.1 / §2.3.3.1 payloads. The ADV_SCAN_IND header octet 0x46 (type 6, TxAdd random)
    // matches a Wireshark decode of a real capture ("Packet Header: 0x2146").
    static let advertiser = BluetoothAddress(0xC0_11_22_33_44_55, kind: .random)
    static let initiator = BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public)

    /// ADV_IND from a random address with the Flags AD structure (02 01 06).
    static let advIndBytes: [UInt8] = [0x40, 0x09, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x02, 0x01, 0x06]

    /// CONNECT_IND from a public initiator to a random advertiser, ChSel set.
    static let connectIndBytes: [UInt8] = [
        0xA5, 0x22,
        0x03, 0x02, 0x01, 0xDC, 0x1B, 0x00, // InitA
        0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, // AdvA
        0x78, 0x56, 0x34, 0x12, // AA 0x12345678
        0x33, 0x22, 0x11, // CRCInit 0x112233
        0x02, // WinSize
        0x00, 0x00, // WinOffset
        0x18, 0x00, // Interval 24 (30 ms)
        0x00, 0x00, // Latency
        0x48, 0x00, // Timeout 72 (720 ms)
        0xFF, 0xFF, 0xFF, 0xFF, 0x1F, // ChM: all 37
        0xA9, // Hop 9, SCA 5
    ]

    @Test("ADV_IND known bytes decode to AdvA and AdvData and encode back")
    func advIndKnownBytes() throws {
        let pdu = try LL.AdvertisingPDU(decoding: Self.advIndBytes)
        #expect(pdu.pduType == .advInd)
        #expect(pdu.channelSelection == false)
        guard case let .advInd(address, data) = pdu.payload else {
            Issue.record("not an ADV_IND: \(pdu.payload)")
            return
        }
        #expect(address == Self.advertiser)
        #expect(Array(data) == [0x02, 0x01, 0x06])
        #expect(pdu.encoded() == Self.advIndBytes)
    }

    @Test("CONNECT_IND known bytes carry InitA, AdvA with their kinds and the LLData")
    func connectIndKnownBytes() throws {
        let pdu = try LL.AdvertisingPDU(decoding: Self.connectIndBytes)
        #expect(pdu.channelSelection)
        guard case let .connectInd(initiator, advertiser, data) = pdu.payload else {
            Issue.record("not a CONNECT_IND")
            return
        }
        #expect(initiator == Self.initiator)
        #expect(advertiser == Self.advertiser)
        #expect(data.accessAddress == 0x1234_5678)
        #expect(data.crcInit == 0x11_2233)
        #expect(data.windowSize == 2)
        #expect(data.interval == 24)
        #expect(data.timeout == 72)
        #expect(data.channelMap == 0x1F_FFFF_FFFF)
        #expect(data.hopIncrement == 9)
        #expect(data.sleepClockAccuracy == 5)
        #expect(pdu.encoded() == Self.connectIndBytes)
    }

    @Test("SCAN_REQ puts ScanA kind in TxAdd and AdvA kind in RxAdd")
    func scanRequestAddressBits() throws {
        let pdu = LL.AdvertisingPDU(payload: .scanReq(scannerAddress: Self.initiator, advertiserAddress: Self.advertiser))
        let bytes = pdu.encoded()
        #expect(bytes[0] == 0x83)
        #expect(bytes[1] == 12)
        #expect(try LL.AdvertisingPDU(decoding: bytes) == pdu)
    }

    @Test("Reserved header bits survive a round trip; a reserved PDU type is rejected")
    func reservedBits() throws {
        var bytes = Self.advIndBytes
        bytes[0] |= 0x90 // RFU bit 4 and RxAdd (reserved in ADV_IND)
        let pdu = try LL.AdvertisingPDU(decoding: bytes)
        #expect(pdu.reservedBits == 0x90)
        #expect(pdu.encoded() == bytes)
        var reserved = Self.advIndBytes
        reserved[0] = 0x4F
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: reserved) }
    }

    @Test("Too much advertising data and wrong fixed lengths are rejected")
    func lengthRules() {
        let long: [UInt8] = [0x00, 38] + [UInt8](repeating: 0, count: 38)
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: long) }
        let shortDirect: [UInt8] = [0x01, 11] + [UInt8](repeating: 0, count: 11)
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: shortDirect) }
        let longScanRequest: [UInt8] = [0x03, 13] + [UInt8](repeating: 0, count: 13)
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: longScanRequest) }
    }

    @Test("Truncated PDUs are rejected")
    func truncation() {
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: Array(Self.advIndBytes.dropLast())) }
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: Array(Self.connectIndBytes.prefix(20))) }
        #expect(throws: WireError.self) { try LL.AdvertisingPDU(decoding: [0x40]) }
    }

    @Test("Generated PDUs of every type round-trip")
    func generatedRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xAD)
        for _ in 0 ..< 400 {
            let pdu = Self.randomPDU(using: &generator)
            #expect(try LL.AdvertisingPDU(decoding: pdu.encoded()) == pdu)
        }
    }

    @Test("Every mutation of valid PDUs decodes or throws, never traps")
    func malformedInput() {
        let advRejected = MalformedInput.check(Self.advIndBytes, as: LL.AdvertisingPDU.self)
        #expect(advRejected >= Self.advIndBytes.count)
        let connectRejected = MalformedInput.check(Self.connectIndBytes, as: LL.AdvertisingPDU.self)
        #expect(connectRejected >= Self.connectIndBytes.count)
        let scanRequest = LL.AdvertisingPDU(
            payload: .scanReq(scannerAddress: Self.initiator, advertiserAddress: Self.advertiser)).encoded()
        MalformedInput.check(scanRequest, as: LL.AdvertisingPDU.self)
    }

    static func randomAddress(using generator: inout SeededGenerator) -> BluetoothAddress {
        BluetoothAddress(generator.next(), kind: Bool.random(using: &generator) ? .public : .random)
    }

    static func randomPDU(using generator: inout SeededGenerator) -> LL.AdvertisingPDU {
        let first = randomAddress(using: &generator)
        let second = randomAddress(using: &generator)
        let data = generator.bytes(in: 0 ... 31)[...]
        let payload: LL.AdvertisingPDU.Payload
        switch Int.random(in: 0 ..< 9, using: &generator) {
        case 0: payload = .advInd(advertiserAddress: first, data: data)
        case 1: payload = .advDirectInd(advertiserAddress: first, targetAddress: second)
        case 2: payload = .advNonconnInd(advertiserAddress: first, data: data)
        case 3: payload = .scanReq(scannerAddress: first, advertiserAddress: second)
        case 4: payload = .scanRsp(advertiserAddress: first, data: data)
        case 5:
            let request = LL.ConnectionRequestData(
                accessAddress: UInt32.random(in: .min ... .max, using: &generator),
                crcInit: UInt32.random(in: 0 ... 0xFF_FFFF, using: &generator),
                windowSize: UInt8.random(in: .min ... .max, using: &generator),
                windowOffset: UInt16.random(in: .min ... .max, using: &generator),
                interval: UInt16.random(in: .min ... .max, using: &generator),
                latency: UInt16.random(in: .min ... .max, using: &generator),
                timeout: UInt16.random(in: .min ... .max, using: &generator),
                channelMap: UInt64.random(in: 0 ... 0x1F_FFFF_FFFF, using: &generator),
                hopIncrement: UInt8.random(in: 0 ... 31, using: &generator),
                sleepClockAccuracy: UInt8.random(in: 0 ... 7, using: &generator))
            payload = .connectInd(initiatorAddress: first, advertiserAddress: second, linkLayerData: request)
        case 6: payload = .advScanInd(advertiserAddress: first, data: data)
        case 7: payload = .extended(type: .advExtInd, payload: generator.bytes(in: 0 ... 255)[...])
        default: payload = .extended(type: .auxConnectRsp, payload: generator.bytes(in: 0 ... 14)[...])
        }
        return LL.AdvertisingPDU(
            payload: payload, channelSelection: Bool.random(using: &generator),
            reservedBits: UInt8.random(in: .min ... .max, using: &generator))
    }
}
