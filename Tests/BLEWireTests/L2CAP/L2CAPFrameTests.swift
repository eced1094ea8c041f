import BLEWire
import Testing

@Suite("L2CAP B-frames and K-frame segmentation")
struct L2CAPFrameTests {
    private func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    @Test("A B-frame from the Bumble capture carries an ATT PDU on CID 0x0004")
    func basicFrameFromCapture() throws {
        // /work/shared/interop/NOTES.md §7, after the 4-octet ACL header.
        let bytes = hex("07 00 04 00 08 01 00 05 00 03 28")
        let frame = try L2CAP.BasicFrame(decoding: bytes)
        #expect(frame.channelIdentifier == .attributeProtocol)
        #expect(Array(frame.payload) == hex("08 01 00 05 00 03 28"))
        #expect(frame.header == L2CAP.BasicFrame.Header(length: 7, channelIdentifier: .attributeProtocol))
        #expect(frame.encoded() == bytes)
    }

    @Test("The header decodes alone from a first ACL fragment and gives the frame length")
    func headerAlone() throws {
        let firstFragment = hex("1b 00 04 00 09 07 02 00")
        var reader = ByteReader(firstFragment)
        let header = try L2CAP.BasicFrame.Header(from: &reader)
        #expect(header.length == 27)
        #expect(header.channelIdentifier == .attributeProtocol)
        #expect(header.frameLength == 31)
        #expect(reader.remainingCount == 4)
        #expect(throws: WireError.self) { try L2CAP.BasicFrame.Header(decoding: [0x1b, 0x00, 0x04]) }
    }

    @Test("A B-frame whose length disagrees with its payload is rejected")
    func lengthMismatch() {
        #expect(throws: WireError(field: "L2CAP.BasicFrame.length", reason: .lengthMismatch(declared: 7, actual: 6))) {
            try L2CAP.BasicFrame(decoding: Hex.decode("07 00 04 00 08 01 00 05 00 03") ?? [])
        }
        #expect(throws: WireError.self) {
            try L2CAP.BasicFrame(decoding: Hex.decode("07 00 04 00 08 01 00 05 00 03 28 00") ?? [])
        }
    }

    @Test("Channel identifiers name the LE fixed channels and the dynamic range")
    func channelIdentifiers() {
        #expect(L2CAP.ChannelIdentifier.attributeProtocol.rawValue == 0x0004)
        #expect(L2CAP.ChannelIdentifier.leSignaling.rawValue == 0x0005)
        #expect(L2CAP.ChannelIdentifier.securityManager.rawValue == 0x0006)
        #expect(L2CAP.ChannelIdentifier(rawValue: 0x0040).isLEDynamic)
        #expect(L2CAP.ChannelIdentifier(rawValue: 0x007F).isLEDynamic)
        #expect(!L2CAP.ChannelIdentifier(rawValue: 0x0080).isLEDynamic)
        #expect(!L2CAP.ChannelIdentifier.securityManager.isLEDynamic)
        #expect(L2CAP.ChannelIdentifier(rawValue: 0x0041).description == "0x0041")
    }

    @Test("The first K-frame payload carries the SDU length before the segment")
    func firstKFrame() throws {
        let bytes = hex("05 00 68 65 6c")
        let first = try L2CAP.FirstKFramePayload(decoding: bytes)
        #expect(first.sduLength == 5)
        #expect(Array(first.segment) == Array("hel".utf8))
        #expect(first.encoded() == bytes)
        #expect(throws: WireError.self) { try L2CAP.FirstKFramePayload(decoding: [0x05]) }
        #expect(throws: WireError.self) { try L2CAP.FirstKFramePayload(decoding: [0x01, 0x00, 0xAA, 0xBB]) }
    }

    @Test("Segmenting an SDU gives K-frame payloads no larger than the MPS that reassemble to it")
    func segmentation() throws {
        let sdu = Array(UInt8(0) ..< UInt8(100))
        let payloads = try #require(L2CAP.FirstKFramePayload.segment(sdu: sdu[...], mps: 23))
        #expect(payloads.count == 5)  // 21 + 23 + 23 + 23 + 10
        #expect(payloads.allSatisfy { $0.count <= 23 })
        let first = try L2CAP.FirstKFramePayload(decoding: payloads[0])
        #expect(first.sduLength == 100)
        #expect(Array(first.segment) + payloads.dropFirst().flatMap { $0 } == sdu)
        #expect(L2CAP.FirstKFramePayload.segment(sdu: [][...], mps: 23) == [[0x00, 0x00]])
        #expect(L2CAP.FirstKFramePayload.segment(sdu: sdu[...], mps: 2) == nil)
    }

    @Test("Generated B-frames and first K-frame payloads round trip")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 0x12CA_0001)
        for _ in 0 ..< 300 {
            let lead = Int.random(in: 0 ... 3, using: &random)
            let body = random.bytes(lead) + random.bytes(in: 0 ... 40)
            let frame = L2CAP.BasicFrame(channelIdentifier: .init(rawValue: UInt16.random(in: 0 ... .max, using: &random)),
                                         payload: body[lead...])
            #expect(try L2CAP.BasicFrame(decoding: frame.encoded()) == frame)
            let sduLength = UInt16.random(in: UInt16(body.count - lead) ... .max, using: &random)
            let first = L2CAP.FirstKFramePayload(sduLength: sduLength, segment: body[lead...])
            #expect(try L2CAP.FirstKFramePayload(decoding: first.encoded()) == first)
            let header = frame.header
            #expect(try L2CAP.BasicFrame.Header(decoding: header.encoded()) == header)
        }
    }

    @Test("Malformed frames never trap")
    func malformed() {
        let frame = hex("07 00 04 00 08 01 00 05 00 03 28")
        #expect(MalformedInput.check(frame, as: L2CAP.BasicFrame.self) > 0)
        #expect(MalformedInput.check(hex("1b 00 04 00"), as: L2CAP.BasicFrame.Header.self) > 0)
        #expect(MalformedInput.check(hex("05 00 68 65 6c"), as: L2CAP.FirstKFramePayload.self) > 0)
        for cut in 0 ..< frame.count {
            #expect(throws: WireError.self) { try L2CAP.BasicFrame(decoding: Array(frame.prefix(cut))) }
        }
    }
}
