@testable import BLECommandLine
import Testing

/// `ble sim run --energy [--battery …]`: what it accepts and refuses (the model itself is
/// tested in BLEWorldTests' EnergyTests).
@Suite("ble sim run --energy")
struct SimRunEnergyTests {
    @Test("--battery takes a battery for every device or DEVICE=BATTERY, the device's own first")
    func batteries() throws {
        let command = try SimRunCommand.parse(["neighbourhood", "--energy", "--battery", "cr2032", "--battery", "Thermometer=1000mAh"])
        #expect(command.energyOptions.energy)
        #expect(command.energyOptions.battery(of: "iBeacon Door")?.name == "CR2032")
        #expect(command.energyOptions.battery(of: "Thermometer")?.milliampHours == 1_000)
        #expect(try SimRunCommand.parse(["neighbourhood", "--energy"]).energyOptions.battery(of: "Thermometer") == nil)
        // A device name may itself hold "=": the battery is after the last one.
        #expect(EnergyOptions.parse("a=b=phone")?.device == "a=b")
    }

    @Test("--battery without --energy, or with no battery it knows, is a usage error", arguments: [
        ["neighbourhood", "--battery", "cr2032"], ["neighbourhood", "--energy", "--battery", "AA"],
        ["neighbourhood", "--energy", "--battery", "=cr2032"], ["neighbourhood", "--energy", "--battery", "door=-3"],
    ])
    func refuses(arguments: [String]) {
        #expect(throws: (any Error).self) { try SimRunCommand.parse(arguments) }
    }

    @Test("--battery naming no device of the scenario is refused with the scenario's devices")
    func unknownDevice() throws {
        let options = try SimRunCommand.parse(["neighbourhood", "--energy", "--battery", "Fridge=cr2032"]).energyOptions
        let error = #expect(throws: CommandFailure.self) { try options.check(deviceNames: ["local", "Thermometer"], scenario: "neighbourhood") }
        #expect(error?.description.contains("\"Fridge\", which is not a device") == true)
        #expect(error?.description.contains("local, Thermometer") == true)
    }

    @Test("Lifetimes read as hours, days, or days and years")
    func lifetimeText() {
        #expect(EnergyOptions.lifetimeText(days: 0.5) == "12.0 hours")
        #expect(EnergyOptions.lifetimeText(days: 40.4) == "40 days")
        #expect(EnergyOptions.lifetimeText(days: 730.5) == "731 days (2.0 years)")
    }
}
