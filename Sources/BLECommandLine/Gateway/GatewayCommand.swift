import ArgumentParser
import BLEFleetStore
import BLEAdapter
import BLEGateway
import Foundation

/// `ble gateway`: scan continuously and keep what the filters name as sightings in the fleet's
/// store (docs/gateway.md), as ESPresense or Theengs Gateway do, with a durable spool for
/// database outages and Prometheus metrics.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Scan continuously and write what the filters keep, as sightings, to SQLite or PostgreSQL.",
        discussion: """
            With no filter, every iBeacon, Eddystone-UID/EID and AltBeacon frame is kept. Sightings are written in \
            batches through a spool on disk, so a database that is away loses nothing (up to --spool-limit; then the \
            oldest are dropped, and the log and metrics say how many). --database takes sqlite:PATH (the default, \
            ble-fleet.sqlite) or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with the PG* variables filling \
            what a postgres:// URL leaves out, as psql reads them. SIGINT or SIGTERM writes the last batch and exits.
            """
    )

    @Option(help: ArgumentHelp(ControllerOption.help, valueName: "hci"))
    var hci: String?

    @Option(help: "The gateway's name, unique in the fleet (default: this machine's host name).")
    var name: String?

    @Option(help: "The zone the gateway reports for (default: its name).")
    var zone: String?

    @Option(help: "Run the gateways of a fleet file instead (a list gateways: of {name, hci, zone, keep, active}).")
    var fleet: String?

    @Option(help: "sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var database: String = DatabaseURL.defaultURL

    @Option(help: "The folder of the gateways' spools.")
    var spool: String = "ble-gateway-spool"

    @Option(help: "The most each spool may hold: bytes, or with K, M or G.")
    var spoolLimit: String = "256M"

    @Option(help: "Keep iBeacons of UUID[:MAJOR[:MINOR]] (repeatable).")
    var ibeacon: [String] = []

    @Option(help: "Keep Eddystone-UID frames of NAMESPACE[:INSTANCE], in hex (repeatable).")
    var eddystone: [String] = []

    @Option(help: "Keep AltBeacons whose beacon ID starts with these hex octets (repeatable).")
    var altbeacon: [String] = []

    @Option(help: "Keep advertisers listing this service UUID, under their address (repeatable).")
    var service: [String] = []

    @Option(help: "Keep advertisers with this local name (repeatable).")
    var localName: [String] = []

    @Option(help: "Keep this advertiser, by address (repeatable).")
    var address: [String] = []

    @Option(help: "Store resolvable private addresses made with this IRK as one identity: [NAME=]32 hex digits (repeatable).")
    var irk: [String] = []

    @Flag(help: "Active scanning: ask for scan responses (names and services often live there).")
    var active = false

    @Option(help: "Cut a batch every N sightings.")
    var batchSize: Int = 500

    @Option(help: "Cut a batch at least every MS milliseconds.")
    var batchAge: Double = 250

    @Option(help: "Serve Prometheus metrics at /metrics on this port.")
    var metricsPort: Int?

    @Option(help: "The address the metrics are served on (0.0.0.0 for every interface).")
    var metricsAddress: String = "127.0.0.1"

    @Option(help: "Stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    @Option(help: "The simulated world's seed, for sim controllers.")
    var seed: UInt64?

    @Option(help: "Simulated seconds per wall second, for sim controllers: 1 (real time), a number, or max (as fast as the processor allows; --seconds then counts simulated seconds).")
    var speed: String = "1"

    @Flag(help: "Check the configuration, the spool and the database (opened and migrated), then exit.")
    var check = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let options = try serviceOptions()
        let service = GatewayService(options: options)
        if check {
            do {
                for line in try await service.check() { print("ok: " + line) }
            } catch {
                throw CommandFailure("Check failed: \(error)")
            }
            return
        }
        let summaries = try await cancellingOnInterrupt { try await service.run(onLog: { printError($0) }) }
        var failed: [String] = []
        for summary in summaries {
            print("gateway \"\(summary.name)\": \(summary.counts.received) advertisements, \(summary.counts.kept) sightings kept, "
                  + "\(summary.pipeline.stored) stored, \(summary.spooled) still spooled, \(summary.pipeline.dropped) dropped")
            if let failure = summary.failure { failed.append("\(summary.name): \(failure)") }
        }
        if !failed.isEmpty { throw CommandFailure("A gateway stopped: " + failed.joined(separator: "; ")) }
    }

    /// The service's options from the command line's.
    func serviceOptions() throws -> GatewayService.Options {
        let url: DatabaseURL
        do {
            url = try DatabaseURL(parsing: database)
        } catch {
            throw ValidationError("--database: \(error)")
        }
        guard let limit = Self.bytes(spoolLimit), limit >= 64 * 1024 else {
            throw ValidationError("--spool-limit \"\(spoolLimit)\" must be a size of at least 64K, e.g. 500M or 2G")
        }
        guard batchSize >= 1, batchSize <= 100_000 else { throw ValidationError("--batch-size must be 1 to 100000") }
        guard batchAge.isFinite, batchAge >= 0, batchAge <= 60_000 else { throw ValidationError("--batch-age must be 0 to 60000 ms") }
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be a positive number") }
        if let metricsPort, !(0 ... 65535).contains(metricsPort) { throw ValidationError("--metrics-port must be 0 to 65535") }
        guard let worldSpeed = Self.speed(speed) else { throw ValidationError("--speed must be a positive number or max") }
        var gateways: [GatewayConfiguration]
        if let fleet {
            guard name == nil, hci == nil, zone == nil, rules.isEmpty else {
                throw ValidationError("--fleet names the gateways, controllers and filters; leave out --name, --hci, --zone and the filters")
            }
            do {
                gateways = try FleetFile.load(path: fleet)
            } catch {
                throw ValidationError("\(error)")
            }
        } else {
            let filter: GatewayFilter
            do {
                filter = try GatewayFilter(parsing: rules)
            } catch {
                throw ValidationError("\(error)")
            }
            let gatewayName = name ?? ProcessInfo.processInfo.hostName
            var configuration = GatewayConfiguration(name: gatewayName, hci: hci ?? Adapter.defaultSpec,
                                                     zone: zone ?? gatewayName, filter: filter)
            configuration.scanning.active = active
            do {
                try configuration.validate()
            } catch {
                throw ValidationError("--name: \(error)")
            }
            gateways = [configuration]
        }
        for index in gateways.indices {
            gateways[index].batching = .init(maximumCount: batchSize, maximumAge: Int64((batchAge * 1000).rounded()))
        }
        return GatewayService.Options(gateways: gateways, database: url, spoolDirectory: spool, spoolLimit: limit,
                                      metrics: metricsPort.map { (metricsAddress, $0) }, seconds: seconds, seed: seed,
                                      speed: worldSpeed)
    }

    /// The filter options as `(kind, value)` pairs, in the order of `ble gateway --help`.
    var rules: [(kind: String, value: String)] {
        ibeacon.map { ("ibeacon", $0) } + eddystone.map { ("eddystone", $0) } + altbeacon.map { ("altbeacon", $0) }
            + service.map { ("service", $0) } + localName.map { ("name", $0) } + address.map { ("address", $0) } + irk.map { ("irk", $0) }
    }

    /// `max` → `.infinity`, `10` → 10; `nil` when the text is no positive speed.
    static func speed(_ text: String) -> Double? {
        if text.lowercased() == "max" { return .infinity }
        guard let value = Double(text), value.isFinite, value > 0 else { return nil }
        return value
    }

    /// `500M` → 524288000; `nil` when the text is no size.
    static func bytes(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = text.uppercased()
        var unit = 1
        if let last = digits.last, let scale = units[last] {
            unit = scale
            digits.removeLast()
        }
        if digits.hasSuffix("I") { return nil }
        guard let value = Int(digits), value >= 0, value <= Int.max / unit else { return nil }
        return value * unit
    }
}
