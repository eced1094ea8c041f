import BLEScenarios
import BLEWorld
import Glibc

/// How fast the world runs a city and how much memory it keeps (issue 31): a scenario file,
/// typically one written by scripts/make-city-scenario.py, loaded and run for a number of
/// simulated seconds, with its figures as one JSON object: load time, simulated seconds per
/// wall second, receptions (packets a receiver got, ``World/onReception``) per simulated and
/// per wall second, peak memory (getrusage's maxrss) and the resident memory after loading,
/// after each simulated minute, and a digest of every reception with the collision and
/// below-sensitivity counts, to show that two builds give the same run. The runner streams its timeline
/// (``ScenarioRecording/streaming(events:receptions:)``): the benchmark only counts the
/// events, so the run keeps none of them. docs/world-benchmarks.md has the tables and
/// the commands.
///
/// Usage: `CitySpeed FILE.yaml [SECONDS]` (60 simulated seconds by default). With
/// `CITYSPEED_BEACONS=through-host` in the environment, plain beacons run a full controller
/// and scripted host each (``ScenarioBeacons/throughHost``) instead of a `BeaconController`:
/// the same results, the cost of the HCI they skip.
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

    /// The resident set of this process now, in MiB (the second field of /proc/self/statm,
    /// in pages), or -1 where that file cannot be read.
    static func residentMemoryMiB() -> Double {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return -1 }
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return -1 }
        return Double(pages * sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Writes `message` and a newline to standard error and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }

    /// A number rounded to one decimal, for the JSON.
    static func tenth(_ value: Double) -> String {
        String(Double((value * 10).rounded()) / 10)
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
        let throughHost = getenv("CITYSPEED_BEACONS").map { String(cString: $0) } == "through-host"
        let loadStart = ContinuousClock.now
        let runner: ScenarioRunner
        var timelineEvents = 0
        do {
            runner = try ScenarioRunner(scenario: ScenarioLoader.load(path: arguments[1]),
                                        recording: .streaming(events: { _ in timelineEvents += 1 }),
                                        beacons: throughHost ? .throughHost : .direct)
        } catch {
            fail("CitySpeed: \(error)", status: 65)
        }
        let loadSeconds = seconds(since: loadStart)
        let loadedMiB = peakMemoryMiB()
        let residentAfterLoad = residentMemoryMiB()
        var receptions = 0
        // A digest of every reception (time, receiver, sender, channel, RSSI), so that two
        // builds can be shown to give the same run, not only the same counts.
        var digest: UInt64 = 0
        runner.world.onReception = { reception in
            receptions += 1
            for value in [UInt64(bitPattern: reception.time), UInt64(reception.receiver.rawValue), UInt64(reception.sender.rawValue),
                          UInt64(reception.channel), UInt64(UInt8(bitPattern: reception.rssi))] {
                digest = WorldRandom.mix(digest ^ value)
            }
        }
        let runStart = ContinuousClock.now
        // The world runs a simulated minute at a time so that its resident memory can be
        // sampled between minutes.
        var residentByMinute: [Double] = []
        var reached = 0.0
        while reached < simulated {
            reached = Swift.min(simulated, reached + 60)
            runner.world.run(until: .init((reached * 1_000_000).rounded()))
            residentByMinute.append(residentMemoryMiB())
        }
        let wall = seconds(since: runStart)
        let statistics = runner.world.statistics
        let beacons = throughHost ? "through-host" : "direct"
        print("{\"devices\": \(runner.world.devices.count), \"beacons\": \"\(beacons)\", "
            + "\"loadSeconds\": \(loadSeconds), \"simulatedSeconds\": \(simulated), "
            + "\"wallSeconds\": \(wall), \"simulatedSecondsPerWallSecond\": \(simulated / wall), "
            + "\"transmissions\": \(statistics.transmissions), \"receptions\": \(receptions), "
            + "\"receptionsPerSimulatedSecond\": \(Double(receptions) / simulated), \"receptionsPerWallSecond\": \(Double(receptions) / wall), "
            + "\"receptionDigest\": \"\(String(digest, radix: 16))\", \"collisions\": \(statistics.collisions), "
            + "\"belowSensitivity\": \(statistics.belowSensitivity), "
            + "\"timelineEvents\": \(timelineEvents), \"peakMemoryMiBAfterLoad\": \(loadedMiB), \"peakMemoryMiB\": \(peakMemoryMiB()), "
            + "\"residentMiBAfterLoad\": \(tenth(residentAfterLoad)), "
            + "\"residentMiBByMinute\": [\(residentByMinute.map(tenth).joined(separator: ", "))]}")
    }
}
