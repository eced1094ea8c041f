import BLEWorld
import Foundation

/// How fast scenario files load (issue 31, item 3): each file given is read with
/// `ScenarioLoader.load(path:)` several times and the best wall time printed, with the number
/// of devices, one line per file. docs/world-benchmarks.md has the figures and the command.
///
/// Usage: `LoadSpeed FILE.yaml...`; `RUNS` sets the number of loads per file (3 by default).
@main
enum LoadSpeed {
    static func main() {
        let runs = max(1, Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 3)
        for path in CommandLine.arguments.dropFirst() {
            var best = Double.infinity
            var devices = 0
            for _ in 0..<runs {
                let start = ContinuousClock.now
                do {
                    devices = try ScenarioLoader.load(path: path).devices.count
                } catch {
                    FileHandle.standardError.write(Data("\(error)\n".utf8))
                    exit(1)
                }
                let elapsed = ContinuousClock.now - start
                best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            print(String(format: "%@: %d devices loaded in %.3f s (best of %d)", path, devices, best, runs))
        }
    }
}
