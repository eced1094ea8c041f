import BLEController
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
}
