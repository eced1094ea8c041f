import BLEHost
import Testing

@Suite("Host time")
struct HostTimeTests {
    @Test("Host time counts microseconds in a 64-bit integer")
    func microseconds() {
        let oneHour: HostTime = 3_600_000_000
        #expect(oneHour / 1_000_000 == 3_600)
    }
}
