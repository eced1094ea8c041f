@testable import BLECommandLine
import Testing

/// `ble sim serve --loss` and `--drop-link-after`: what they accept and refuse.
@Suite("ble sim serve fault options")
struct SimFaultOptionsTests {
    @Test("--loss 0.1 and --drop-link-after 20 parse into the fault options")
    func parses() throws {
        let command = try SimServeCommand.parse(["--devices", "2", "--loss", "0.1", "--drop-link-after", "20"])
        #expect(command.faults.loss == 0.1)
        #expect(command.faults.dropLinkAfter == 20)
        let plain = try SimServeCommand.parse([])
        #expect(plain.faults.loss == 0)
        #expect(plain.faults.dropLinkAfter == nil)
    }

    @Test("A loss outside 0 to 1 and a negative drop time are refused")
    func refuses() {
        #expect(throws: (any Error).self) { try SimServeCommand.parse(["--loss", "1.5"]) }
        #expect(throws: (any Error).self) { try SimServeCommand.parse(["--loss", "-0.1"]) }
        #expect(throws: (any Error).self) { try SimServeCommand.parse(["--drop-link-after", "-1"]) }
    }
}
