import BLEWorld

/// Why a coverage map could not be made or written: each case names the value that is
/// wrong, why, and what would be accepted (STYLE.md, "What people see").
public enum CoverageMapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A chosen transmitter is not a device of the scenario; `known` lists the devices.
    case unknownDevice(String, known: [String])
    /// The scenario has no transmitter to draw: no device advertises and none was chosen.
    case nothingToDraw(scenario: String)
    /// A number out of its range: the option, the value given and what is accepted.
    case invalidNumber(option: String, value: Double, accepted: String)
    /// The grid would hold more cells than a map draws; a coarser resolution fits.
    case tooManyCells(cells: Int, limit: Int, resolution: Double)
    /// The output's name ends in neither .svg nor .png.
    case unsupportedFormat(path: String)
    /// The output cannot be written there.
    case unwritableOutput(path: String, reason: String)
    /// A PNG was asked for and `rsvg-convert` is not on the PATH.
    case pngConverterMissing
    /// `rsvg-convert` ran and failed.
    case pngConversionFailed(status: Int32, message: String)
    /// The scenario could not be built into a world.
    case scenario(ScenarioError)

    /// One sentence that says what is wrong and what to do.
    public var description: String {
        switch self {
        case let .unknownDevice(name, known):
            return "No device \"\(name)\" in the scenario; its devices are: " + known.map { "\"\($0)\"" }.joined(separator: ", ") + "."
        case let .nothingToDraw(scenario):
            return "Scenario \"\(scenario)\" has nothing to draw: no device advertises; name a transmitter with --device."
        case let .invalidNumber(option, value, accepted):
            return "\(option) must be \(accepted); got \(value)."
        case let .tooManyCells(cells, limit, resolution):
            return "A \(resolution) m resolution makes \(cells) cells, more than the \(limit) a map draws; give a coarser --resolution."
        case let .unsupportedFormat(path):
            return "Cannot tell the format of \"\(path)\": the output must end in .svg or .png."
        case let .unwritableOutput(path, reason):
            return "Cannot write \"\(path)\": \(reason)."
        case .pngConverterMissing:
            return "Writing PNG needs rsvg-convert, which is not on the PATH: install it (Debian/Ubuntu: apt-get install librsvg2-bin) "
                + "or write .svg instead."
        case let .pngConversionFailed(status, message):
            return "rsvg-convert failed with status \(status)" + (message.isEmpty ? "." : ": \(message)")
        case let .scenario(error):
            return "The scenario cannot be built: \(error)"
        }
    }
}
