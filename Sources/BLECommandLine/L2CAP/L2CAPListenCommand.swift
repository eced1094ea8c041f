import ArgumentParser
import BLEHost
import BLEWire
import Foundation

/// `ble l2cap listen`: a connectable advertiser that accepts LE credit-based channels on one
/// SPSM (Core 5.4, Vol 3, Part A, §4.22) and sends every SDU straight back, printing one
/// line per connection and channel event.
struct L2CAPListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Advertise, accept LE credit-based channels on a PSM and echo every SDU back.",
        discussion: """
            Advertises connectably under --advertise and restarts advertising after each \
            disconnection. Prints one line per event: listening, connected, channel opened, \
            channel closed (with the SDUs and octets echoed), disconnected.
            """
    )

    @Option(help: "The LE SPSM to accept channels on, decimal or 0x hex (0x80 to 0xFF are dynamic).")
    var psm: String

    @Option(help: "The largest SDU this server accepts, in octets.")
    var mtu: Int = 2048

    @Option(help: "The credits announced for each channel, topped up as SDUs are read.")
    var credits: Int = 16

    @Option(help: "The complete local name to advertise.")
    var advertise: String = "SwiftBLE L2CAP"

    @Option(help: "How long to serve, in seconds (default: until interrupted).")
    var seconds: Double?

    @Flag(help: "One JSON object per line and event instead of sentences.")
    var json = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet through the host to this btsnoop file.")
    var snoop: String?

    func validate() throws {
        try validateChannelOptions(psm: psm, mtu: mtu, credits: credits)
        if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400 * 365) {
            throw ValidationError("--seconds must be a positive number of seconds.")
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let psm = parseSPSM(self.psm) ?? 0x80
        let advertising: GAPAdvertisingParameters
        do {
            var parameters = try GAPAdvertisingContent(name: advertise).parameters(kind: .connectable, intervalMilliseconds: 100)
            parameters.restartAfterDisconnection = true
            advertising = parameters
        } catch {
            throw CommandFailure("Cannot advertise that name: \(error).")
        }
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        let host = opened.host
        let json = self.json
        var tasks: [Task<Void, Never>] = []
        do {
            let info = try await host.start()
            let events = host.events
            let channels = await host.listen(psm: psm, parameters: HostChannelParameters(
                mtu: UInt16(mtu), mps: 247, initialCredits: UInt16(credits)))
            let sessions = EchoSessions()
            tasks.append(Task { await Self.report(events, sessions: sessions, json: json) })
            tasks.append(Task { await Self.serve(channels, on: host, sessions: sessions, json: json) })
            try await host.startAdvertising(advertising)
            let address = info.address.map { "\($0)" } ?? "the controller's address"
            let psmText = "PSM 0x" + String(psm, radix: 16, uppercase: true).leftPadded(to: 4)
            OutputLine(text: "Listening on \(psmText) (MTU \(mtu)), advertising \"\(advertise)\" from \(address)",
                       fields: [("event", .string("listening")), ("psm", .integer(Int(psm))), ("mtu", .integer(mtu)),
                                ("name", .string(advertise)), ("address", info.address.map { .string("\($0)") } ?? .null)])
                .print(json: json)
            // The user asked to serve for this long (or until interrupted): everything is
            // event-driven; the command only waits out the duration, on the host's clock.
            try await host.clock.sleep(seconds: seconds ?? 86_400 * 365)
        } catch {
            for task in tasks { task.cancel() }
            await opened.close()
            throw CommandFailure("Serving L2CAP failed: \(error).")
        }
        for task in tasks { task.cancel() }
        await opened.close()
    }

    /// Prints connections and disconnections as they happen; a disconnection after the
    /// closing lines of its channels.
    private static func report(_ events: AsyncStream<GAPEvent>, sessions: EchoSessions, json: Bool) async {
        for await event in events {
            switch event {
            case let .connected(link):
                let peer = PeerAddress(link.peer, type: link.peerAddressType)
                OutputLine(text: "Connected to \(peer) (handle \(link.handle))",
                           fields: [("event", .string("connected")), ("peer", .string("\(link.peer)")),
                                    ("peerAddressType", .string(peer.typeName)), ("handle", .integer(Int(link.handle)))])
                    .print(json: json)
            case let .disconnected(handle, reason):
                await sessions.finish(handle: handle)
                OutputLine(text: "Disconnected handle \(handle): \(reason)",
                           fields: [("event", .string("disconnected")), ("handle", .integer(Int(handle))),
                                    ("reason", .string(reason.name))])
                    .print(json: json)
            default:
                break
            }
        }
    }

    /// Echoes on every channel that opens, each in its own task.
    private static func serve(_ channels: AsyncStream<HostChannel>, on host: BLEHost.Host, sessions: EchoSessions,
                              json: Bool) async {
        for await channel in channels {
            OutputLine(text: "Channel opened: \(channel.psmText) on \(channel.id) (MTU \(channel.localMTU)/\(channel.peerMTU), MPS \(channel.peerMPS))",
                       fields: [("event", .string("channelOpened"))] + channel.jsonFields)
                .print(json: json)
            await sessions.add(Task { await echo(on: channel, host: host, json: json) }, handle: channel.id.handle)
        }
    }

    /// Sends each SDU back until the channel closes, then reports what it echoed.
    private static func echo(on channel: HostChannel, host: BLEHost.Host, json: Bool) async {
        var sdus = 0, octets = 0
        var failure: String?
        do {
            while let sdu = try await host.receive(on: channel.id) {
                try await host.send(sdu, on: channel.id)
                sdus += 1
                octets += sdu.count
            }
        } catch HostChannelError.closed {
            // The channel went down while an echo waited for credits: the peer left.
        } catch {
            failure = "\(error)"
            await host.closeChannel(channel.id)
        }
        var fields: [(String, OutputLine.Value)] = [("event", .string("channelClosed")), ("handle", .integer(Int(channel.id.handle))),
                                                    ("cid", .integer(Int(channel.id.localCID.rawValue))), ("sdus", .integer(sdus)),
                                                    ("bytes", .integer(octets))]
        if let failure { fields.append(("error", .string(failure))) }
        OutputLine(text: "Channel closed: \(channel.id) after echoing \(sdus) SDUs, \(octets) bytes" + (failure.map { " (\($0))" } ?? ""),
                   fields: fields)
            .print(json: json)
    }
}

/// The echo tasks of each connection, so a disconnection is reported after its channels.
actor EchoSessions {
    private var tasks: [UInt16: [Task<Void, Never>]] = [:]

    /// Records the echo task of a channel on `handle`.
    func add(_ task: Task<Void, Never>, handle: UInt16) { tasks[handle, default: []].append(task) }

    /// Waits for every echo task of `handle` to end; they end as their channels close.
    func finish(handle: UInt16) async {
        for task in tasks.removeValue(forKey: handle) ?? [] { await task.value }
    }
}
