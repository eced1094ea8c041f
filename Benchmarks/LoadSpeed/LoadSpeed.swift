import BLEWorld
import Foundation

/// How fast scenario files load (issue 31, item 3): each file given is read with
/// `ScenarioLoader.load(path:)` several times and the best wall time printed, with the best
/// processor time of this process (what a shared, loaded machine disturbs least) and the number
/// of devices, one line per file. docs/world-benchmarks.md has the figures and the command.
///
/// Usage: `LoadSpeed FILE.yaml...`; `RUNS` sets the number of loads per file (3 by default).
@main
enum LoadSpeed {
    static func main() {
        let runs = max(1, Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 3)
        for path in CommandLine.arguments.dropFirst() {
            var best = Double.infinity
            var bestProcessor = Double.infinity
            var devices = 0
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let processorStart = processorSeconds()
                do {
                    devices = try ScenarioLoader.load(path: path).devices.count
                } catch {
                    FileHandle.standardError.write(Data("\(error)\n".utf8))
                    exit(1)
                }
                let elapsed = ContinuousClock.now - start
                best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                bestProcessor = min(bestProcessor, processorSeconds() - processorStart)
            }
            print(String(format: "%@: %d devices loaded in %.3f s, %.3f s of processor time (best of %d)",
                         path, devices, best, bestProcessor, runs))
        }
    }

    /// The processor time this process has used so far (`CLOCK_PROCESS_CPUTIME_ID`), in seconds.
    static func processorSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
