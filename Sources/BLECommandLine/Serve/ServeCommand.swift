import ArgumentParser
import BLEAdapter
import BLEHost
import BLEServe
import BLEWire
import Foundation

/// `ble serve FILE.yaml`: publishes the file's GATT services, advertises connectably and
/// answers clients, logging every request as one JSON line (DESIGN.md).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the GATT services of a YAML file and log every request as a JSON line.",
        discussion: """
            Values given in the file are answered by the stack; values left out are dynamic: \
            they start empty, each write is stored (standard services' writes checked first), \
            reads answer the stored value from their offset (Invalid Offset past its end), and \
            a write is notified or indicated to the clients subscribed. Lines on stdout: \
            {"time", "event": "database" | "advertising" | "connected" | "disconnected" | "mtu" \
            | "read" | "write" | "subscribe" | "streamed" | "oob" (--oob-show: our Secure \
            Connections OOB data, address, confirm, random, ad), "connection", "handle", "uuid", \
            "offset", "value"}. --stream UUID:COUNT:SIZE sends COUNT values of SIZE octets \
            (a 4-octet little-endian sequence number first) to each client that subscribes to \
            UUID, as notifications or indications as it subscribed. Advertising goes on after \
            a disconnection.
            """
    )

    @Argument(help: "The serve file (see Examples/serve/thermometer.yaml).")
    var file: String

    @Option(help: "Serve for this many seconds, then exit (default: until interrupted).")
    var seconds: Double?

    @Option(help: "UUID:COUNT:SIZE — stream values to a client that subscribes to UUID (repeatable).")
    var stream: [String] = []

    @Option(help: "Advertise from this random static address (e.g. C0:5F:00:00:00:01) instead of the controller's public one.")
    var ownAddress: String?

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet through the host to this btsnoop file.")
    var snoop: String?

    @OptionGroup(title: "Pairing and bonds") var security: SecurityOptions

    @OptionGroup(title: "Privacy") var privacyOptions: PrivacyOptions

    func validate() throws {
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be positive.") }
        for text in stream where ServeStream(parsing: text) == nil {
            throw ValidationError("--stream \(text) must be UUID:COUNT:SIZE with COUNT at least 1 and SIZE from 4 to 512.")
        }
        try ArgumentChecks.ownAddress(ownAddress)
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let served: ServeFile
        do {
            served = try ServeFile.load(path: file)
        } catch {
            throw CommandFailure("\(error.description).")
        }
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        do {
            try await serve(served, host: opened.host, simulatedAddress: opened.simulatedAddress)
        } catch let failure as CommandFailure {
            await opened.close()
            throw failure
        } catch {
            await opened.close()
            throw CommandFailure("Serving \(file) failed: \(error).")
        }
        await opened.close()
    }

    private func serve(_ served: ServeFile, host: BLEHost.Host, simulatedAddress: BluetoothAddress?) async throws {
        let info = try await host.start()
        try await privacyOptions.enable(on: host, hci: hci, bonds: security.bonds)
        let own = ownAddress.flatMap { BluetoothAddress($0, kind: .random) }
        if let own { try await host.setRandomStaticAddress(own) }
        let database: GATTDatabase
        do {
            database = try await host.publishGATT(served.services, configuration: GATTDatabase.Configuration(
                deviceName: served.name ?? "SwiftBLE"))
        } catch {
            throw CommandFailure("\(file) cannot be served: \(error).")
        }
        let address = own ?? info.address ?? simulatedAddress
        let layout = served.advertisingData()
        let advertising = GAPAdvertisingParameters(data: layout.data, scanResponse: layout.scanResponse,
                                                   useRandomAddress: own != nil, restartAfterDisconnection: true)
        // --oob-show: our OOB data for this run, logged before advertising for the client to take.
        let local = try security.makeLocalOutOfBand()
        let keeper = security.isRequested ? try await security.install(on: host, hci: hci, localOutOfBand: local, json: true) : nil
        let runtime = ServeRuntime(host: host, file: served, database: database, streams: stream.compactMap(ServeStream.init(parsing:)),
                                   advertising: advertising, keeper: keeper) { seconds, event in
            Self.printLine(seconds: seconds, event.logName, .object(event.logFields))
        }
        var document = GATTDocument(serving: database, address: address.map { "\($0)" } ?? "unknown", mtu: ATTBearerConfiguration.maximumMTU)
        document.addressType = address.map { $0.kind == .random ? "random" : "public" }
        Self.printLine(seconds: runtime.elapsedSeconds, "database", JSONText.object(document.jsonFields))
        if let local { Self.printLine(seconds: runtime.elapsedSeconds, "oob", .object(local.jsonFields(address: address))) }
        try await host.startAdvertising(advertising)
        Self.printLine(seconds: runtime.elapsedSeconds, "advertising", .object([("name", served.name.map { .string($0) } ?? .null),
                                                                               ("address", address.map { .string("\($0)") } ?? .null)]))
        await runtime.run(seconds: seconds)
    }

    /// Prints `{"time": seconds, "event": event, …fields}`, `time` in seconds on the host's
    /// clock since the run began.
    static func printLine(seconds: Double, _ event: String, _ fields: JSONText) {
        var entries: [(String, JSONText)] = [("time", .number(seconds)), ("event", .string(event))]
        if case let .object(more) = fields { entries += more }
        FileHandle.standardOutput.write(Data((JSONText.object(entries).rendered + "\n").utf8))
    }
}
