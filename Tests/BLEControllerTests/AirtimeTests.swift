@testable import BLEController
import Testing

@Suite("Airtime")
struct AirtimeTests {
    @Test("A 27-octet data PDU takes 296 µs and an empty PDU 80 µs on LE 1M")
    func oneMegabit() {
        #expect(Airtime.duration(pduOctets: 2 + 27, phy: .le1M) == 296)
        #expect(Airtime.duration(pduOctets: 2, phy: .le1M) == 80)
    }

    @Test("LE 2M halves the octet time and has a 2-octet preamble")
    func twoMegabit() {
        #expect(Airtime.duration(pduOctets: 2 + 251, phy: .le2M) == (2 + 4 + 253 + 3) * 4)
        #expect(Airtime.duration(pduOctets: 2, phy: .le2M) == 44)
    }

    /// The LE Coded packet of Core 5.4, Vol 6, Part B, §2.2, field by field: an 80 µs
    /// preamble; FEC block 1 at S=8 (8 µs a bit): 32 bits of access address, 2 of Coding
    /// Indicator, 3 of TERM1; FEC block 2 at S µs a bit: the PDU, 24 bits of CRC, 3 of TERM2.
    static func codedAirtime(pduOctets: Int, s: Int64) -> Microseconds {
        let preamble: Int64 = 80
        let block1: Int64 = (32 + 2 + 3) * 8
        let block2: Int64 = (Int64(pduOctets) * 8 + 24 + 3) * s
        return preamble + block1 + block2
    }

    @Test("An ADV_EXT_IND with a 37-octet payload lasts 3,088 µs at S=8, as §2.2's fields add up")
    func codedAdvertisingIndication() {
        let airtime = Airtime.duration(pduOctets: 2 + 37, phy: .leCoded(.s8))
        #expect(airtime == Self.codedAirtime(pduOctets: 2 + 37, s: 8))
        #expect(airtime == 3088)
    }

    @Test("An empty PDU lasts 462 µs at S=2 and 720 µs at S=8")
    func codedEmptyPDU() {
        #expect(Airtime.duration(pduOctets: 2, phy: .leCoded(.s2)) == Self.codedAirtime(pduOctets: 2, s: 2))
        #expect(Airtime.duration(pduOctets: 2, phy: .leCoded(.s2)) == 462)
        #expect(Airtime.duration(pduOctets: 2, phy: .leCoded(.s8)) == 720)
    }

    @Test("27 octets with a MIC take 2,704 µs at S=8, the LE Coded connMaxTxTime of §4.5.10, and fit it exactly")
    func codedLongestDefaultPacket() {
        #expect(Airtime.duration(pduOctets: 2 + 27 + 4, phy: .leCoded(.s8)) == 2704)
        for s in LECoding.allCases {
            let longest = Airtime.duration(pduOctets: 2 + 27 + 4, phy: .leCoded(s))
            #expect(LinkLayerConnection.maximumTransmitPayload(octets: 251, time: UInt16(longest), encrypted: true, phy: .leCoded(s)) == 27)
            #expect(LinkLayerConnection.maximumTransmitPayload(octets: 251, time: UInt16(longest - 1), encrypted: true, phy: .leCoded(s)) == 26)
        }
    }

    @Test("A Coded receiver decodes either coding and nothing on 1M or 2M; a 1M receiver no Coded packet")
    func phyDecoding() {
        #expect(RadioPHY.leCoded(.s8).decodes(.leCoded(.s2)))
        #expect(RadioPHY.leCoded(.s2).decodes(.leCoded(.s8)))
        #expect(!RadioPHY.leCoded(.s8).decodes(.le1M))
        #expect(!RadioPHY.le1M.decodes(.leCoded(.s8)))
        #expect(!RadioPHY.le2M.decodes(.le1M))
        #expect(RadioPHY.allCases.map(\.hciPHY) == [.le1M, .le2M, .leCoded, .leCoded])
    }
}
