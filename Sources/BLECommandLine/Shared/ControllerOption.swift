import ArgumentParser
import BLEAdapter
import BLETransport

/// The `--hci` option of every command that opens a controller, with one rule for all
/// (DESIGN.md, "The command line"): the option, else `$SWIFTBLE_HCI`, else `sim`.
struct ControllerOption: ParsableArguments {
    @Option(name: .customLong("hci"), help: ArgumentHelp(ControllerOption.help, valueName: "hci"))
    var given: String?

    /// The controller spec to open: `--hci`, else ``BLEAdapter/Adapter/defaultSpec``.
    var spec: String { given ?? Adapter.defaultSpec }

    /// A spec that names no controller, or a `sim:NAME` naming no scenario, is a usage
    /// error, found before anything opens.
    func validate() throws {
        do {
            _ = try HCITransportSpec(parsing: spec)
        } catch {
            throw ValidationError("--hci \(spec) is not a controller: \(error).")
        }
        guard spec.hasPrefix("sim:") else { return }
        if let problem = Adapter.scenarioProblem(String(spec.dropFirst("sim:".count))) {
            throw ValidationError("--hci \(spec): \(problem)")
        }
    }

    /// The help every `--hci` shows.
    static let help = "The controller: sim, sim:SCENARIO (a bundled name or a .yaml file), tcp:HOST:PORT, unix:PATH, serial:DEV[@BAUD] or hci:N "
        + "(default: $SWIFTBLE_HCI, else sim)."
}
