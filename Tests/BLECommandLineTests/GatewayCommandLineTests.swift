@testable import BLECommandLine
import Testing

@Suite("ble gateway options")
struct GatewayCommandLineTests {
    @Test("--speed reads max as as fast as possible, a positive number as itself, and refuses anything else")
    func speeds() {
        #expect(GatewayCommand.speed("max") == .infinity)
        #expect(GatewayCommand.speed("MAX") == .infinity)
        #expect(GatewayCommand.speed("1") == 1)
        #expect(GatewayCommand.speed("12.5") == 12.5)
        #expect(GatewayCommand.speed("0") == nil)
        #expect(GatewayCommand.speed("-3") == nil)
        #expect(GatewayCommand.speed("inf") == nil)
        #expect(GatewayCommand.speed("fast") == nil)
    }

    @Test("--speed reaches the service's options; without it a simulated world runs in real time")
    func speedReachesTheService() throws {
        let paced = try GatewayCommand.parse(["--hci", "sim", "--name", "g1"])
        #expect(try paced.serviceOptions().speed == 1)
        let fast = try GatewayCommand.parse(["--hci", "sim", "--name", "g1", "--speed", "max"])
        #expect(try fast.serviceOptions().speed == .infinity)
        #expect(throws: (any Error).self) { try GatewayCommand.parse(["--hci", "sim", "--speed", "0"]).serviceOptions() }
    }
}
