import ArgumentParser
import BLEAdapter
import BLEScenarios
import BLEWorld

/// `ble sim map SCENARIO --output FILE`: a coverage picture of a scenario (docs/map.md).
/// A thin shell: BLEScenarios' ``CoverageMap`` computes the grid from the world's radio
/// model, ``CoverageSVG`` draws it and ``CoverageMapOutput`` writes SVG or, through
/// rsvg-convert, PNG.
struct SimMapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw where a phone would hear a scenario's transmitters, shaded by mean RSSI, as SVG or PNG.",
        discussion: """
            The powers come from the radio model the world runs: path loss, antenna patterns and headings, \
            obstacles (the bus stop's metal pole shadows its north side) and the receiver's sensitivity. \
            --within N adds contours of the probability of hearing a transmitter at least once within N seconds. \
            PNG needs rsvg-convert (Debian: librsvg2-bin).
            """
    )

    @Argument(help: ArgumentHelp("A scenario file (.yaml) or a built-in scenario: " + Adapter.scenarioNames.joined(separator: ", ") + ".",
                                 valueName: "scenario"))
    var scenario: String

    @Option(name: .customLong("device"), help: ArgumentHelp("A transmitter to draw, by name (repeatable; default: every advertiser).",
                                                            valueName: "name"))
    var devices: [String] = []

    @Option(help: ArgumentHelp("The receiver's height in metres.", valueName: "metres"))
    var receiverHeight: Double = 1.2

    @Option(help: ArgumentHelp("The side of a grid cell in metres (default: about 300 cells across).", valueName: "metres"))
    var resolution: Double?

    @Option(help: ArgumentHelp("The simulated time to draw, in seconds: moving devices are where the scenario puts them then.",
                               valueName: "seconds"))
    var at: Double = 0

    @Option(help: ArgumentHelp("Also draw where a phone hears a transmitter within this many seconds with 50 % and 90 % probability.",
                               valueName: "seconds"))
    var within: Double?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the map: a .svg or .png file.", valueName: "file"))
    var output: String

    /// What the options ask the library for.
    var request: CoverageRequest {
        CoverageRequest(devices: devices, receiverHeight: receiverHeight, resolution: resolution, atSeconds: at, withinSeconds: within)
    }

    func validate() throws {
        if let problem = Adapter.scenarioProblem(scenario) { throw ValidationError(problem) }
        do { try request.validate() } catch { throw ValidationError(error.description) }
        do { _ = try CoverageMapOutput.format(of: output) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let scenario = try loadScenario(self.scenario)
        do {
            try CoverageMapOutput.check(output)
            let map = try CoverageMap(scenario: scenario, request: request)
            try CoverageMapOutput.write(CoverageSVG(map: map).document(), to: output)
            let grid = map.grid
            print("Wrote \(output): \(map.layers.count) transmitter(s), \(grid.columns) × \(grid.rows) cells of "
                  + "\(grid.resolution.formatted(decimals: 2)) m at t = \(request.atSeconds.formatted(decimals: 1)) s")
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
