import BLEWire
import Testing

/// A capture read as it grows: the buffer hands out each record once, when it is whole.
@Suite("btsnoop record buffer")
struct BTSnoopRecordBufferTests {
    @Test("A capture fed in uneven pieces gives the header, then exactly the records a whole read gives")
    func piecewise() throws {
        let bytes = try BTSnoopPacketDecoderTests.fixture()
        var whole = try BTSnoop.Reader(bytes)
        let expected = try whole.readAll()
        var buffer = BTSnoop.RecordBuffer()
        var header: BTSnoop.Header?
        var records: [BTSnoop.Record] = []
        var offset = 0
        var piece = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            buffer.append(Array(bytes[offset ..< end]))
            offset = end
            piece = piece % 97 + 7
            if header == nil { header = try buffer.header() }
            if header != nil { records += try buffer.completeRecords() }
        }
        #expect(header == whole.header)
        #expect(records == expected)
        #expect(buffer.pendingCount == 0)
    }

    @Test("A file cut inside a record leaves its octets pending")
    func truncated() throws {
        let bytes = try BTSnoopPacketDecoderTests.fixture()
        var buffer = BTSnoop.RecordBuffer()
        buffer.append(Array(bytes.dropLast(3)))
        #expect(try buffer.header() != nil)
        let records = try buffer.completeRecords()
        #expect(records.count == 233)
        #expect(buffer.pendingCount > 0)
    }
}
