import ArgumentParser
import BLEBench
import BLEWire
import BLEWorld

/// `ble bench l2cap`: CoC throughput of two of our hosts in an embedded world, the figure
/// `scripts/compare-bumble-l2cap.sh` sets beside Bumble-to-Bumble `bumble-bench`.
struct BenchL2CAPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "l2cap",
        abstract: "LE credit-based channel throughput between two of our hosts in an embedded world.",
        discussion: """
            Two hosts connect at a 7.5 ms interval, move to the LE 2M PHY and 251-octet data PDUs, \
            and the central sends --count SDUs of --size octets on an LE credit-based channel as \
            fast as credits allow while the peripheral reads them (bumble-bench's L2CAP "send" \
            scenario). Prints SDUs/s and bytes/s in wall-clock time, and the same in the world's \
            simulated time.

            --speed decides what the wall-clock figure means:
              1    (default) realistic: the air is simulated in real time and the hosts run \
            on the wall clock, as with real radios. Throughput is the link layer's limit \
            (airtime, T_IFS, packets per 7.5 ms connection event): about 165 kB/s for \
            2000-octet SDUs on LE 2M with 251-octet PDUs. Wall and simulated figures agree.
              max  CPU-bound: the world runs as fast as the processor allows but in lock-step \
            with the hosts, stopping while a host owes an answer: each host answers within 3 ms \
            of simulated time, before its controller's buffers run dry. The simulated figure \
            stays at the air's limit (a check that the hosts kept up); the wall figure is what \
            this machine pushes per second through two hosts, two controllers and the simulated \
            air. This is the figure to set beside Bumble-to-Bumble, whose virtual link has no \
            airtime at all.
              N    the world paced at N times real time, the hosts on the wall clock. The air \
            carries N times more per wall second; once that is more than the processor can push \
            the wall figure is CPU-bound too, but where that happens depends on the machine and \
            its load, and beyond it the world falls behind its clock and the figure collapses. \
            For exploring, not for comparing. (Without lock-step, a world run at infinite speed \
            races ahead of the hosts through empty connection events and its figures mean \
            nothing: that is why max is lock-step.)
            """
    )

    @Option(help: "SDU size in octets.")
    var size: Int = 2000

    @Option(help: "How many SDUs to send.")
    var count: Int = 1000

    @Option(help: "The world's timing: ideal (no packet loss; the stack is measured) or realistic.")
    var world: String = "ideal"

    @Option(help: "1 (realistic, air-limited), max (lock-step, CPU-bound) or N times real time; see above.")
    var speed: String = "1"

    @Option(help: "The credits each side announces for the channel.")
    var credits: Int = 128

    @Option(help: "The world's seed.")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON object of figures instead of sentences.")
    var json = false

    @Option(help: "Write DIR/peripheral.btsnoop and DIR/central.btsnoop of the two hosts' HCI traffic.")
    var snoop: String?

    /// The runner's speed `--speed` names.
    private var worldSpeed: Double? {
        if speed.lowercased() == "max" { return .infinity }
        guard let value = Double(speed), value.isFinite, value > 0 else { return nil }
        return value
    }

    func validate() throws {
        guard (1 ... 65_535).contains(size) else { throw ValidationError("--size must be from 1 to 65535 octets.") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1.") }
        guard TimingMode(rawValue: world) != nil else { throw ValidationError("--world must be ideal or realistic.") }
        guard worldSpeed != nil else { throw ValidationError("--speed must be a positive number or max.") }
        guard (1 ... 65_535).contains(credits) else { throw ValidationError("--credits must be from 1 to 65535.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        guard let timing = TimingMode(rawValue: world), let speed = worldSpeed else { throw CommandFailure("Invalid options; see ble bench l2cap --help.") }
        let throughput = L2CAPThroughput(size: size, count: count, credits: UInt16(credits))
        let result: L2CAPThroughputResult
        do {
            let bench = try BenchWorld(timing: timing, speed: speed, seed: seed, snoopDirectory: snoop)
            result = try await bench.measureThenClose { try await throughput.run(in: $0) }
        } catch let failure as BenchFailure {
            throw CommandFailure(failure.description)
        }
        line(result, speed: speed).print(json: json)
    }

    private func line(_ result: L2CAPThroughputResult, speed: Double) -> OutputLine {
        let bytesPerSecond = Double(result.octets) / result.wallSeconds
        let simulatedBytesPerSecond = result.simulatedSeconds > 0 ? Double(result.octets) / result.simulatedSeconds : 0
        let sdusPerSecond = Double(result.sdus) / result.wallSeconds
        let phy = result.phy == .le2M ? "2M" : result.phy == .leCoded ? "coded" : "1M"
        let text = """
            \(result.sdus) SDUs of \(size) octets, \(result.octets) bytes (LE \(phy) PHY, \(result.maxTxOctets)-octet PDUs, \
            \(result.intervalMilliseconds.formatted(decimals: 1)) ms interval, world \(world) at speed \(self.speed)):
              wall clock:     \(result.wallSeconds.formatted(decimals: 3)) s, \(sdusPerSecond.formatted(decimals: 1)) SDUs/s, \
            \((bytesPerSecond / 1000).formatted(decimals: 1)) kB/s
              simulated time: \(result.simulatedSeconds.formatted(decimals: 3)) s, \((simulatedBytesPerSecond / 1000).formatted(decimals: 1)) kB/s
            """
        return OutputLine(text: text, fields: [
            ("sdus", .integer(result.sdus)), ("bytes", .integer(result.octets)), ("size", .integer(size)),
            ("wallSeconds", .number(result.wallSeconds)), ("sdusPerSecond", .number(sdusPerSecond)),
            ("bytesPerSecond", .number(bytesPerSecond)), ("simulatedSeconds", .number(result.simulatedSeconds)),
            ("simulatedBytesPerSecond", .number(simulatedBytesPerSecond)),
            ("speed", speed.isInfinite ? .string("max") : .number(speed)), ("world", .string(world)),
            ("phy", .string(phy)), ("maxTxOctets", .integer(result.maxTxOctets)),
            ("connectionIntervalMilliseconds", .number(result.intervalMilliseconds)),
        ])
    }
}
