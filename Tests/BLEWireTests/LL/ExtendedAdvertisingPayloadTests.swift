import BLEWire
import Testing

/// The Common Extended Advertising Payload Format (Core 5.4, Vol 6, Part B, §2.3.4).
@Suite("Extended advertising payload")
struct ExtendedAdvertisingPayloadTests {
    typealias Payload = LL.ExtendedAdvertisingPayload

    @Test("An ADV_EXT_IND with ADI and AuxPtr encodes to the spec's bit layout")
    func knownBytes() throws {
        let pointer = Payload.AuxiliaryPointer(channelIndex: 12, offsetUnit: .thirty, offset: 15, phy: .le2M)
        let payload = Payload(dataInfo: .init(dataID: 0x123, setID: 5), auxiliaryPointer: pointer)
        // Length 6 | AdvMode 0; flags ADI (bit 3) + AuxPtr (bit 4); ADI = DID | SID << 12;
        // AuxPtr: channel 12 | CA (bit 6); offset 15 | AUX PHY 1 (2M) << 13.
        let expected: [UInt8] = [0x06, 0x18, 0x23, 0x51, 0x4C, 0x0F, 0x20]
        #expect(payload.encoded() == expected)
        #expect(payload.encodedCount == expected.count)
        let decoded = try Payload(decoding: expected[...], txKind: .public, rxKind: .public)
        #expect(decoded == payload)
        #expect(decoded.auxiliaryPointer?.offsetMicroseconds == 450)
    }

    @Test("AdvA, TxPower and data round-trip, with the address kind in the header's TxAdd bit")
    func roundTrip() throws {
        let address = BluetoothAddress(0xC1_2233_4455, kind: .random)
        let payload = Payload(
            advertiserAddress: address, dataInfo: .init(dataID: 7, setID: 15), txPower: -4, data: [1, 2, 3, 4][...])
        #expect(payload.headerBits == LL.AdvertisingPDU.txAddBit)
        let pdu = try LL.AdvertisingPDU(decoding: payload.pdu.encoded())
        guard case let .extended(type, bytes) = pdu.payload else {
            Issue.record("not an extended PDU")
            return
        }
        #expect(type == .advExtInd)
        let decoded = try Payload(decoding: bytes, txKind: pdu.reservedBits & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public, rxKind: .public)
        #expect(decoded == payload)
    }

    @Test("A header longer than the payload, a reserved AdvMode or a reserved AUX PHY is a typed error")
    func malformed() {
        #expect(throws: WireError.self) { try Payload(decoding: [0x05, 0x01, 0x02][...], txKind: .public, rxKind: .public) }
        #expect(throws: WireError.self) { try Payload(decoding: [0xC0][...], txKind: .public, rxKind: .public) }
        #expect(throws: WireError.self) { try Payload(decoding: [0x04, 0x10, 0x01, 0x00, 0xE0][...], txKind: .public, rxKind: .public) }
        #expect(throws: WireError.self) { try Payload(decoding: [][...], txKind: .public, rxKind: .public) }
    }
}
