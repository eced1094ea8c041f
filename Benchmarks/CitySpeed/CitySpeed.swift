import BLEScenarios
import BLEWorld
import Glibc

/// How fast the world runs a city (issue 31): a scenario file, typically one written by
/// scripts/make-city-scenario.py, loaded and run for a number of simulated seconds, with
/// its figures as one JSON object: load time, simulated seconds per wall second, receptions
/// (packets a receiver got, ``World/onReception``) per simulated and per wall second, and
/// peak memory (getrusage's maxrss). docs/world-benchmarks.md has the table and the commands.
///
/// Usage: `CitySpeed FILE.yaml [SECONDS]` (60 simulated seconds by default).
@main
enum CitySpeed {
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The peak resident set of this process so far, in MiB (Linux reports maxrss in KiB).
    static func peakMemoryMiB() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// Writes `message` and a newline to standard error and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }

    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, arguments.count <= 3 else {
            fail("usage: CitySpeed FILE.yaml [SECONDS]", status: 64)
        }
        let simulated = arguments.count == 3 ? Double(arguments[2]) : 60
        guard let simulated, simulated > 0, simulated.isFinite else {
            fail("CitySpeed: SECONDS must be a positive number of simulated seconds, not \(arguments[2])", status: 64)
        }
        let loadStart = ContinuousClock.now
        let runner: ScenarioRunner
        do {
            runner = try ScenarioRunner(scenario: ScenarioLoader.load(path: arguments[1]))
        } catch {
            fail("CitySpeed: \(error)", status: 65)
        }
        let loadSeconds = seconds(since: loadStart)
        let loadedMiB = peakMemoryMiB()
        var receptions = 0
        runner.world.onReception = { _ in receptions += 1 }
        let runStart = ContinuousClock.now
        let timeline = runner.run(until: simulated)
        let wall = seconds(since: runStart)
        let statistics = runner.world.statistics
        print("{\"devices\": \(runner.world.devices.count), \"loadSeconds\": \(loadSeconds), \"simulatedSeconds\": \(simulated), "
            + "\"wallSeconds\": \(wall), \"simulatedSecondsPerWallSecond\": \(simulated / wall), "
            + "\"transmissions\": \(statistics.transmissions), \"receptions\": \(receptions), "
            + "\"receptionsPerSimulatedSecond\": \(Double(receptions) / simulated), \"receptionsPerWallSecond\": \(Double(receptions) / wall), "
            + "\"timelineEvents\": \(timeline.events.count), \"peakMemoryMiBAfterLoad\": \(loadedMiB), \"peakMemoryMiB\": \(peakMemoryMiB())}")
    }
}
