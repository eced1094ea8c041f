import ArgumentParser
import BLEBench

/// `ble bench notify`: GATT notifications between two of our hosts in an embedded world,
/// the figure `scripts/compare-bumble-gatt.py` sets beside Bumble-to-Bumble.
struct BenchNotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "GATT notification throughput between two of our hosts in an embedded world.",
        discussion: """
            Two hosts connect (7.5 ms interval, LE 2M, 251-octet data PDUs unless told \
            otherwise), the central exchanges ATT_MTU (517), discovers the bench service and \
            subscribes, and the peripheral notifies --count values of --size octets, each \
            starting with its sequence number, as fast as its host takes them (it suspends \
            while the controller's buffers are full). The central checks that every value \
            arrives, in order. Fails when one is missing or out of order.

            Figures, over the span from the first notify call to the last value received:
              wall clock (notificationsPerSecond, bytesPerSecond): what this machine pushes \
            through two hosts and two controllers (and, in the realistic world, the simulated \
            air). In the ideal world (the default) connection data takes no airtime: each \
            controller hands it straight to the other, through both controllers' ACL buffers \
            and Number Of Completed Packets, as Bumble's LocalLink does; with --speed max (the \
            default) the hosts run it as fast as the processor allows: the figure set beside \
            Bumble.
              simulated time (simulated...): what the air carried, against the analytic ATT \
            ceiling worked out from airtimes (full empty-PDU/data-PDU exchanges per \
            connection event, T_IFS between packets). In the realistic world this is the \
            figure that counts; in the ideal world data takes no simulated time.
            """
    )

    @Option(help: "Value size in octets (4 to 514; at most ATT_MTU − 3).")
    var size: Int = 20

    @Option(help: "How many notifications to send.")
    var count: Int = 1000

    @OptionGroup var link: BenchLinkOptions

    func validate() throws {
        guard (4 ... 514).contains(size) else { throw ValidationError("--size must be from 4 to 514 octets.") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let throughput = GATTNotifyThroughput(size: size, count: count, request: link.linkRequest(dataFromPeripheral: true))
        let result = try await link.measure { try await throughput.run(in: $0) }
        line(result).print(json: link.json)
        guard result.received == count, result.inOrder == count else {
            throw CommandFailure("\(result.inOrder) of \(count) notifications arrived in order (\(result.received) arrived); run with --snoop DIR to see why.")
        }
    }

    private func line(_ result: GATTNotifyResult) -> OutputLine {
        let span = result.span
        let octets = Double(result.received * size)
        let rate = Double(result.received) / span.wallSeconds
        let simulatedRate = span.simulatedSeconds > 0 ? Double(result.received) / span.simulatedSeconds : 0
        let ceiling = ATTCeiling(size: size, dataLength: result.link.peripheralTxOctets, phy: result.link.phy,
                                 intervalMicroseconds: result.link.intervalMicroseconds)
        let percent = ceiling.notificationsPerSecond > 0 ? simulatedRate / ceiling.notificationsPerSecond * 100 : 0
        let order = result.received == count && result.inOrder == count
            ? "all in order" : "\(result.inOrder) of \(count) in order, \(result.received) arrived"
        let wall = """
              wall clock:     \(span.wallSeconds.formatted(decimals: 3)) s, \(rate.formatted(decimals: 1)) notifications/s, \
            \((octets / span.wallSeconds / 1000).formatted(decimals: 1)) kB/s
            """
        let simulated = link.world == "ideal" ? BenchLinkOptions.noAirtime : """
              simulated time: \(span.simulatedSeconds.formatted(decimals: 3)) s, \(simulatedRate.formatted(decimals: 1)) notifications/s, \
            \((simulatedRate * Double(size) * 8 / 1e6).formatted(decimals: 3)) Mbit/s of values: \(percent.formatted(decimals: 1))% of the \
            ATT ceiling (\(ceiling.notificationsPerSecond.formatted(decimals: 1))/s, \
            \((ceiling.bytesPerSecond * 8 / 1e6).formatted(decimals: 3)) Mbit/s, \(ceiling.pdusPerEvent) PDUs per event)
            """
        let header = """
            \(result.received) notifications of \(size) octets, \(order) (ATT_MTU \(result.mtu), LE \(result.link.phyName) PHY, \
            \(result.link.peripheralTxOctets)-octet PDUs, \(result.link.intervalMilliseconds.formatted(decimals: 2)) ms interval, \
            world \(link.world) at speed \(link.speed)):
            """
        // The realistic world's figure is the air's: simulated time first.
        var text = header + "\n" + (link.world == "realistic" ? simulated + "\n" + wall : wall + "\n" + simulated)
        if let phases = result.phases {
            text += "\n  lock-step:      \(phases.worldSeconds.formatted(decimals: 3)) s running the world, "
                + "\(phases.settleSeconds.formatted(decimals: 3)) s waiting for the hosts in \(phases.settles) settles"
        }
        return OutputLine(text: text, fields: [
            ("notifications", .integer(result.received)), ("inOrder", .integer(result.inOrder)), ("size", .integer(size)),
            ("bytes", .integer(result.received * size)),
            ("wallSeconds", .number(span.wallSeconds)), ("notificationsPerSecond", .number(rate)),
            ("bytesPerSecond", .number(octets / span.wallSeconds)),
            ("simulatedSeconds", .number(span.simulatedSeconds)), ("simulatedNotificationsPerSecond", .number(simulatedRate)),
            ("simulatedBytesPerSecond", .number(simulatedRate * Double(size))),
            ("ceilingNotificationsPerSecond", .number(ceiling.notificationsPerSecond)),
            ("ceilingBytesPerSecond", .number(ceiling.bytesPerSecond)), ("ceilingPDUsPerEvent", .integer(ceiling.pdusPerEvent)),
            ("percentOfCeiling", .number(percent)),
            ("world", .string(link.world)), ("speed", link.speedField), ("phy", .string(result.link.phyName)),
            ("attMTU", .integer(result.mtu)), ("maxTxOctets", .integer(result.link.peripheralTxOctets)),
            ("connectionIntervalMilliseconds", .number(result.link.intervalMilliseconds)),
            ("worldSeconds", result.phases.map { .number($0.worldSeconds) } ?? .null),
            ("settleSeconds", result.phases.map { .number($0.settleSeconds) } ?? .null),
            ("settles", result.phases.map { .integer($0.settles) } ?? .null),
        ])
    }
}
