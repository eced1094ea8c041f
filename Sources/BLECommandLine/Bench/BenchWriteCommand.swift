import ArgumentParser
import BLEBench

/// `ble bench write`: GATT write-with-response round trips between two of our hosts in an
/// embedded world, the figure `scripts/compare-bumble-gatt.py` sets beside Bumble-to-Bumble.
struct BenchWriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "GATT write-with-response round trips between two of our hosts in an embedded world.",
        discussion: """
            Two hosts connect as for ble bench notify; the central discovers the bench service \
            and writes --count values of --size octets with Write Requests, each after the \
            previous Write Response; the peripheral's server stores each value and answers by \
            itself. Fails unless every write is acknowledged and stored in order.

            Figures, from the first request to the last response: writesPerSecond on the wall \
            clock (CPU-bound with --speed max, the default: the figure set beside Bumble) and \
            simulatedWritesPerSecond in the world's time (what the air allows: a round trip \
            takes at least one connection event).
            """
    )

    @Option(help: "Value size in octets (4 to 512; at most ATT_MTU − 3).")
    var size: Int = 20

    @Option(help: "How many writes to make.")
    var count: Int = 1000

    @OptionGroup var link: BenchLinkOptions

    func validate() throws {
        guard (4 ... 512).contains(size) else { throw ValidationError("--size must be from 4 to 512 octets.") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let rate = GATTWriteRate(size: size, count: count, request: link.linkRequest(dataFromPeripheral: false))
        let result = try await link.measure { try await rate.run(in: $0) }
        line(result).print(json: link.json)
        guard result.acknowledged == count, result.stored == count, result.storedInOrder == count else {
            let why = result.failure.map { " (\($0))" } ?? ""
            throw CommandFailure("\(result.acknowledged) of \(count) writes acknowledged, \(result.storedInOrder) stored in order\(why).")
        }
    }

    private func line(_ result: GATTWriteResult) -> OutputLine {
        let span = result.span
        let rate = Double(result.acknowledged) / span.wallSeconds
        let simulatedRate = span.simulatedSeconds > 0 ? Double(result.acknowledged) / span.simulatedSeconds : 0
        let events = simulatedRate > 0 ? 1e6 / simulatedRate / Double(result.link.intervalMicroseconds) : 0
        let text = """
            \(result.acknowledged) writes of \(size) octets acknowledged, \(result.storedInOrder) stored in order \
            (LE \(result.link.phyName) PHY, \(result.link.centralTxOctets)-octet PDUs, \
            \(result.link.intervalMilliseconds.formatted(decimals: 2)) ms interval, world \(link.world) at speed \(link.speed)):
              wall clock:     \(span.wallSeconds.formatted(decimals: 3)) s, \(rate.formatted(decimals: 1)) writes/s
            """ + "\n" + (link.world == "ideal" ? BenchLinkOptions.noAirtime : """
              simulated time: \(span.simulatedSeconds.formatted(decimals: 3)) s, \(simulatedRate.formatted(decimals: 1)) writes/s, \
            \(events.formatted(decimals: 2)) connection events per round trip
            """)
        return OutputLine(text: text, fields: [
            ("writes", .integer(result.acknowledged)), ("stored", .integer(result.stored)),
            ("storedInOrder", .integer(result.storedInOrder)), ("size", .integer(size)),
            ("wallSeconds", .number(span.wallSeconds)), ("writesPerSecond", .number(rate)),
            ("bytesPerSecond", .number(rate * Double(size))),
            ("simulatedSeconds", .number(span.simulatedSeconds)), ("simulatedWritesPerSecond", .number(simulatedRate)),
            ("eventsPerRoundTrip", .number(events)),
            ("world", .string(link.world)), ("speed", link.speedField), ("phy", .string(result.link.phyName)),
            ("attMTU", .integer(result.mtu)), ("maxTxOctets", .integer(result.link.centralTxOctets)),
            ("connectionIntervalMilliseconds", .number(result.link.intervalMilliseconds)),
        ])
    }
}
