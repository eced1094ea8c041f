import ArgumentParser
import BLEController
import BLEWorld

/// `ble sim run --energy [--battery [DEVICE=]BATTERY]…`: after the run, what each device's
/// radio drew under the energy model (``RadioCurrentModel/nRF52832``, docs/energy.md), and with
/// a battery how long it would last at that duty.
struct EnergyOptions: ParsableArguments {
    @Flag(help: "After the run, print each device's radio time, charge and average current (docs/energy.md).")
    var energy = false

    @Option(help: ArgumentHelp("With --energy: project each device's lifetime on this battery (cr2032, phone or a capacity "
                               + "in mAh), or only DEVICE's with DEVICE=BATTERY; repeatable.", valueName: "[device=]battery"))
    var battery: [String] = []

    func validate() throws {
        if !battery.isEmpty, !energy { throw ValidationError("--battery needs --energy.") }
        for text in battery where Self.parse(text) == nil {
            throw ValidationError("--battery takes cr2032, phone or a capacity in mAh (e.g. 500 or 500mAh), optionally "
                                  + "after DEVICE=; got \(text).")
        }
    }

    /// `BATTERY` (for every device, device `nil`) or `DEVICE=BATTERY`.
    static func parse(_ text: String) -> (device: String?, battery: Battery)? {
        if let equals = text.lastIndex(of: "=") {
            let device = String(text[..<equals])
            guard !device.isEmpty, let battery = Battery(parsing: String(text[text.index(after: equals)...])) else { return nil }
            return (device, battery)
        }
        return Battery(parsing: text).map { (nil, $0) }
    }

    /// The battery `device` is projected on, if any: its own, else the one for all.
    func battery(of device: String) -> Battery? {
        let parsed = battery.compactMap(Self.parse)
        return parsed.last { $0.device == device }?.battery ?? parsed.last { $0.device == nil }?.battery
    }

    /// Refuses a `DEVICE=` that names no device of the scenario.
    func check(deviceNames: [String], scenario: String) throws {
        for case let (device?, _) in battery.compactMap(Self.parse) where !deviceNames.contains(device) {
            throw CommandFailure("--battery names \"\(device)\", which is not a device of scenario \"\(scenario)\" "
                                 + "(its devices: \(deviceNames.joined(separator: ", "))).")
        }
    }

    /// Each device's energy so far, by name, in the order given.
    static func measure(_ devices: [(name: String, id: DeviceID)], in world: World) -> [DeviceEnergyLine] {
        devices.map { DeviceEnergyLine(name: $0.name, energy: world.energy(of: $0.id)) }
    }

    /// Prints one line per device (a table, or with `json` one object per device) of a run of `seconds`.
    func report(_ devices: [DeviceEnergyLine], seconds: Double, json: Bool) {
        let header = ["device", "packets", "airtime ms", "receiving ms", "charge µAh", "average µA", "lifetime"]
        var rows: [[String]] = []
        for (name, energy) in devices.map({ ($0.name, $0.energy) }) {
            let activity = energy.activity
            let battery = self.battery(of: name)
            let days = battery.flatMap { energy.lifetimeDays(on: $0) }
            if json {
                let line = OutputLine(text: "", fields: [
                    ("event", .string("energy")), ("device", .string(name)), ("packets", .integer(activity.transmissions)),
                    ("airtimeMs", .number(Double(activity.transmitMicroseconds) / 1_000)),
                    ("receivingMs", .number(Double(activity.receiveMicroseconds) / 1_000)),
                    ("receiverWindows", .integer(activity.receiverWindows)),
                    ("chargeMicroampHours", .number(energy.chargeMicroampHours)),
                    ("averageMicroamps", .number(energy.averageMicroamps)),
                    ("battery", battery.map { .string($0.name) } ?? .null),
                    ("lifetimeDays", days.map { .number($0) } ?? .null),
                ])
                print(line.json)
                continue
            }
            let lifetime = battery.map { battery in days.map { "\(Self.lifetimeText(days: $0)) on \(battery)" } ?? "nothing drawn" } ?? "-"
            rows.append([name, String(activity.transmissions), (Double(activity.transmitMicroseconds) / 1_000).formatted(decimals: 1),
                         (Double(activity.receiveMicroseconds) / 1_000).formatted(decimals: 1),
                         energy.chargeMicroampHours.formatted(decimals: 3), energy.averageMicroamps.formatted(decimals: 2), lifetime])
        }
        guard !json else { return }
        print("Energy (nRF52832 radio model, docs/energy.md) over \(seconds.formatted(decimals: 1)) s simulated")
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.indices.map { column in
                // Names and the lifetime read left to right; numbers line up on the right.
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return column == 0 || column == row.count - 1 ? row[column] + padding : padding + row[column]
            }
            print("  " + cells.joined(separator: "  ").trimmingTrailingSpaces)
        }
    }

    /// `412 days (1.1 years)`, or hours below two days.
    static func lifetimeText(days: Double) -> String {
        if days < 2 { return "\((days * 24).formatted(decimals: 1)) hours" }
        if days < 365 { return "\(days.formatted(decimals: 0)) days" }
        return "\(days.formatted(decimals: 0)) days (\((days / 365.25).formatted(decimals: 1)) years)"
    }
}

/// One device's energy, named, carried out of the world's thread to be printed.
struct DeviceEnergyLine: Sendable {
    /// The scenario's name for the device.
    var name: String
    /// What it drew.
    var energy: DeviceEnergy
}

private extension String {
    /// The text without the spaces that pad its last column.
    var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
