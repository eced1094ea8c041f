@testable import BLECommandLine
import BLELogging
import Logging
import Testing

@Suite("ble's logging options and SWIFTBLE_LOG's syntax")
struct LoggingArgumentsTests {
    @Test("--log-level and --log are taken out wherever they stand; a layer's own level wins over the general one")
    func split() throws {
        let (rest, spec) = try LoggingArguments.split(["gatt", "--log", "gap=trace", "dump", "--log-level=debug", "X", "--log=smp=info"])
        #expect(rest == ["gatt", "dump", "X"])
        let setting = try #require(spec)
        #expect(try BLELog.level(of: "gap", under: setting) == .trace)
        #expect(try BLELog.level(of: "smp", under: setting) == .info)
        #expect(try BLELog.level(of: "hci", under: setting) == .debug)
        #expect(try LoggingArguments.split(["scan", "--seconds", "1"]).spec == nil)
        #expect(try LoggingArguments.split(["sim", "run", "--", "--log", "x"]).rest == ["sim", "run", "--", "--log", "x"])
    }

    @Test("Unknown levels and layers, and an option without its value, are refused by name")
    func refused() throws {
        #expect(throws: BLELog.SpecError.self) { try LoggingArguments.split(["--log-level", "loud"]) }
        #expect(throws: BLELog.SpecError.self) { try LoggingArguments.split(["--log", "radio=debug"]) }
        #expect(throws: BLELog.SpecError.self) { try LoggingArguments.split(["scan", "--log"]) }
        #expect(throws: BLELog.SpecError.self) { try BLELog.level(of: "gap", under: "gap=") }
        #expect(try BLELog.level(of: "gap", under: "ble.gap=error") == .error)
        #expect(try BLELog.level(of: "world", under: "") == .warning, "quiet by default")
    }
}
