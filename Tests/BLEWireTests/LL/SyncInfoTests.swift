import BLEWire
import Testing

/// SyncInfo against its field layout in Core 5.4, Vol 6, Part B, §2.3.4.6 (Figure 2.15).
@Suite("LL SyncInfo")
struct SyncInfoTests {
    @Test("Fields sit where Figure 2.15 puts them: offset, units, adjust, interval, ChM, SCA, AA, CRCInit, counter")
    func layout() throws {
        let info = LL.SyncInfo(
            syncPacketOffset: 0x1ABC, offsetUnit: .threeHundred, offsetAdjust: true, interval: 0x0050,
            channelMap: 0x1F_FFFF_FFFF, sleepClockAccuracy: 5, accessAddress: 0x8E89_BED6 ^ 0x1234_5678,
            crcInit: 0x55_5555, eventCounter: 0x0102)
        let bytes = info.encoded()
        #expect(bytes.count == LL.SyncInfo.length)
        // 0x1ABC | units (bit 13) | adjust (bit 14), little-endian.
        #expect(Array(bytes[0 ..< 2]) == [0xBC, 0x7A])
        #expect(Array(bytes[2 ..< 4]) == [0x50, 0x00])
        // 37 channel bits, then SCA in bits 37–39 of the five octets.
        #expect(Array(bytes[4 ..< 9]) == [0xFF, 0xFF, 0xFF, 0xFF, 0x1F | 5 << 5])
        #expect(Array(bytes[16 ..< 18]) == [0x02, 0x01])
        #expect(try LL.SyncInfo(decoding: bytes) == info)
        #expect(info.offsetMicroseconds == 0x1ABC * 300 + 2_457_600)
        #expect(throws: WireError.self) { try LL.SyncInfo(decoding: Array(bytes.dropLast())) }
    }

    @Test("An offset takes the 30 µs unit below 245,700 µs, 300 µs above, Offset Adjust from 2.4576 s")
    func offsetUnits() {
        #expect(LL.SyncInfo.offset(245_690)! == (8189, .thirty, false))
        #expect(LL.SyncInfo.offset(245_700)! == (819, .threeHundred, false))
        #expect(LL.SyncInfo.offset(2_457_600 + 3_000)! == (10, .threeHundred, true))
        #expect(LL.SyncInfo.offset(5_000_000) == nil)
    }
}
