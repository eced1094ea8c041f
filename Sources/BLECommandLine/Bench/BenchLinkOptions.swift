import ArgumentParser
import BLEBench
import BLEWire
import BLEWorld

/// The options `ble bench notify` and `ble bench write` share: the world, how fast it runs,
/// and the link the two hosts make (interval, PHY, data length).
struct BenchLinkOptions: ParsableArguments {
    @Option(help: """
        The world's timing: ideal (no loss and no airtime: connection data goes from controller \
        to controller at once, as on Bumble's LocalLink) or realistic (the full radio model).
        """)
    var world: String = "ideal"

    /// What the "simulated time" line says in the ideal world, where data takes no airtime and
    /// a figure in simulated time (0 s, 0 per second) would say nothing.
    static let noAirtime = "  simulated time: n/a (the ideal world's data takes no airtime; --world realistic measures the air)"

    @Option(help: """
        max (default: the world in lock-step with the hosts, as fast as the processor allows; \
        the wall-clock figure is CPU-bound) or N times real time (the ideal world's data still \
        takes no airtime).
        """)
    var speed: String = "max"

    @Option(help: "Connection interval in milliseconds: a multiple of 1.25 from 7.5 to 4000.")
    var interval: Double = 7.5

    @Option(help: "The PHY both directions use: 1m or 2m.")
    var phy: String = "2m"

    @Option(name: .customLong("data-length"), help: "connMaxTxOctets the sending side asks for: 27 to 251.")
    var dataLength: Int = 251

    @Option(help: "The world's seed.")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON object of figures instead of sentences.")
    var json = false

    @Option(help: "Write DIR/peripheral.btsnoop and DIR/central.btsnoop of the two hosts' HCI traffic.")
    var snoop: String?

    /// The world's speed `--speed` names: simulated seconds per wall second, `.infinity`
    /// for lock-step.
    var worldSpeed: Double? {
        if speed.lowercased() == "max" { return .infinity }
        guard let value = Double(speed), value.isFinite, value > 0 else { return nil }
        return value
    }

    /// `--interval` in 1.25 ms units (Core 5.4, Vol 4, Part E, §7.8.12), when valid.
    var intervalUnits: UInt16? {
        let units = interval / 1.25
        guard units.isFinite, units == units.rounded(), (6 ... 3200).contains(units) else { return nil }
        return UInt16(units)
    }

    /// The PHY `--phy` names.
    var radioPHY: HCI.PHY? {
        switch phy.lowercased() {
        case "1m": return .le1M
        case "2m": return .le2M
        default: return nil
        }
    }

    func validate() throws {
        guard TimingMode(rawValue: world) != nil else { throw ValidationError("--world must be ideal or realistic.") }
        guard worldSpeed != nil else { throw ValidationError("--speed must be a positive number or max.") }
        guard intervalUnits != nil else { throw ValidationError("--interval must be a multiple of 1.25 ms from 7.5 to 4000.") }
        guard radioPHY != nil else { throw ValidationError("--phy must be 1m or 2m.") }
        guard (27 ... 251).contains(dataLength) else { throw ValidationError("--data-length must be from 27 to 251 octets.") }
    }

    /// The link the hosts are asked to make, the data going from the peripheral
    /// (notifications) or from the central (writes).
    func linkRequest(dataFromPeripheral: Bool) -> BenchLinkRequest {
        BenchLinkRequest(intervalUnits: intervalUnits ?? 6, phy: radioPHY ?? .le2M, dataLength: dataLength,
                         dataFromPeripheral: dataFromPeripheral)
    }

    /// Runs `body` in the bench world these options describe, then closes the world.
    func measure<T: Sendable>(_ body: @escaping @Sendable (BenchWorld) async throws -> T) async throws -> T {
        guard let timing = TimingMode(rawValue: world), let speed = worldSpeed else {
            throw CommandFailure("Invalid options; see ble bench --help.")
        }
        do {
            let bench = try BenchWorld(timing: timing, speed: speed, seed: seed, snoopDirectory: snoop, dataLength: dataLength,
                                       airtimeFreeIdeal: true)
            return try await bench.measureThenClose(body)
        } catch let failure as BenchFailure {
            throw CommandFailure(failure.description)
        }
    }

    /// `speed` for JSON: "max" or the number.
    var speedField: OutputLine.Value {
        guard let speed = worldSpeed else { return .null }
        return speed.isInfinite ? .string("max") : .number(speed)
    }
}
