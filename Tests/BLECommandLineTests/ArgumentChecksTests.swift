@testable import BLECommandLine
import ArgumentParser
import BLEWire
import Testing

@Suite("Arguments every command reads the same way")
struct ArgumentChecksTests {
    @Test("A negative number after a long option becomes its value; flags, -- and other words stay")
    func negativeNumbers() {
        #expect(NegativeNumberArguments.joined(["scan", "--seconds", "-5", "--json"]) == ["scan", "--seconds=-5", "--json"])
        #expect(NegativeNumberArguments.joined(["beacon", "emit", "--power", "-59.5"]) == ["beacon", "emit", "--power=-59.5"])
        #expect(NegativeNumberArguments.joined(["x", "--power", "-.5"]) == ["x", "--power=-.5"])
        #expect(NegativeNumberArguments.joined(["x", "--power=-5", "--json"]) == ["x", "--power=-5", "--json"])
        #expect(NegativeNumberArguments.joined(["x", "--json", "-h"]) == ["x", "--json", "-h"])
        #expect(NegativeNumberArguments.joined(["x", "--", "--a", "-5"]) == ["x", "--", "--a", "-5"])
        #expect(NegativeNumberArguments.joined(["x", "-n", "-5"]) == ["x", "-n", "-5"])
    }

    @Test("A UUID may be written with 0x, as handles and company identifiers are")
    func uuids() throws {
        #expect(ArgumentChecks.uuid("0x180D") == BluetoothUUID(0x180D))
        #expect(ArgumentChecks.uuid("0X180d") == BluetoothUUID(0x180D))
        #expect(ArgumentChecks.uuid("180D") == BluetoothUUID(0x180D))
        #expect(ArgumentChecks.uuid("0x0000180D") == ArgumentChecks.uuid("0000180D"))
        #expect(ArgumentChecks.uuid("0x18") == nil)
        #expect(ArgumentChecks.uuid("0x180G") == nil)
        #expect(throws: ValidationError.self) { try ArgumentChecks.uuids(["180D", "nope"], option: "--service") }
    }

    @Test("A duration's range is said as it is checked: more than 0, at most the maximum")
    func durations() throws {
        try ArgumentChecks.duration(nil, option: "--seconds", maximum: 10)
        try ArgumentChecks.duration(10, option: "--seconds", maximum: 10)
        for bad in [0, -5, 10.5, .infinity, .nan] {
            #expect(throws: ValidationError.self) { try ArgumentChecks.duration(bad, option: "--seconds", maximum: 10) }
        }
        do {
            try ArgumentChecks.duration(0, option: "--seconds", maximum: 86_400)
            Issue.record("0 s was accepted")
        } catch let error as ValidationError {
            #expect(error.message == "--seconds must be more than 0 and at most 86400 seconds; got 0.")
        }
    }
}
