import ArgumentParser
import BLEHost
import BLEWire
import Foundation
import Synchronization

/// `ble l2cap connect ADDRESS`: connects as central (Core 5.4, Vol 3, Part C, §9.3.6), opens
/// an LE credit-based channel (Vol 3, Part A, §4.22), sends SDUs of pseudo-random contents
/// and checks that each comes back byte for byte from an echo server such as
/// `ble l2cap listen`; prints what it achieved and exits non-zero on any difference.
struct L2CAPConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect, open an LE credit-based channel, send SDUs and check every echo byte for byte.",
        discussion: """
            ADDRESS is written as ble scan prints it: C0:11:22:33:44:55 for a public address, \
            C0:11:22:33:44:55/random (or --random) for a random one. SDU sizes and contents \
            come from --seed, so a failing run repeats exactly. Exits with a non-zero status \
            if any echo differs, the channel closes early, or no echo arrives for --timeout seconds.
            """
    )

    @Argument(help: "The peer: its address (C0:11:22:33:44:55 or C0:11:22:33:44:55/random) or its name.")
    var address: String

    @Option(help: "The LE SPSM to open, decimal or 0x hex.")
    var psm: String

    @Flag(help: "The address is a random one (same as writing /random after it).")
    var random = false

    @Option(help: "How many SDUs to send.")
    var count: Int = 100

    @Option(help: "SDU size in octets: N, or MIN-MAX for sizes drawn between the two.")
    var size: String = "1-512"

    @Option(help: "The largest SDU this client accepts (it must hold the echoes).")
    var mtu: Int = 2048

    @Option(help: "The credits announced to the server, topped up as echoes are read.")
    var credits: Int = 16

    @Option(help: "Seed of the SDU sizes and contents.")
    var seed: UInt64 = 1

    @Option(help: "Seconds to wait for the connection, and at most between two echoes.")
    var timeout: Double = 10

    @Flag(help: "One JSON object per line and event instead of sentences.")
    var json = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet through the host to this btsnoop file.")
    var snoop: String?

    func validate() throws {
        guard PeerQuery(address, random: random) != nil else {
            throw ValidationError("\(address) is not an address (write it as C0:11:22:33:44:55, optionally with /random or /public) nor a device name.")
        }
        try validateChannelOptions(psm: psm, mtu: mtu, credits: credits)
        guard count >= 1 else { throw ValidationError("--count must be at least 1.") }
        guard let sizes = SDUPattern.sizes(parsing: size) else {
            throw ValidationError("--size must be N or MIN-MAX with 1 <= MIN <= MAX, e.g. 2000 or 1-512.")
        }
        guard sizes.upperBound <= mtu else {
            throw ValidationError("--size up to \(sizes.upperBound) needs --mtu of at least \(sizes.upperBound) to take the echoes.")
        }
        try ArgumentChecks.duration(timeout, option: "--timeout", maximum: 3600)
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        guard let query = PeerQuery(address, random: random), let sizes = SDUPattern.sizes(parsing: size),
              let psm = parseSPSM(self.psm) else { throw CommandFailure("Invalid arguments; see ble l2cap connect --help.") }
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        let outcome: Result<EchoSummary, CommandFailure>
        do {
            _ = try await opened.host.start()
            let peer = try await query.resolve(on: opened.host, within: min(timeout, 3), hci: hci)
            outcome = try await exchange(with: peer, psm: psm, pattern: SDUPattern(sizes: sizes, seed: seed), host: opened.host)
        } catch let failure as CommandFailure {
            await opened.close()
            throw failure
        } catch {
            await opened.close()
            throw CommandFailure("The L2CAP exchange failed: \(error).")
        }
        await opened.close()
        let summary = try outcome.get()
        if let failure = summary.failure { throw CommandFailure(failure) }
    }

    /// Connects, opens the channel, runs the echo exchange and prints the summary; the
    /// failure inside the result is the exchange's, thrown after the link is closed.
    private func exchange(with peer: PeerAddress, psm: UInt16, pattern: SDUPattern,
                          host: BLEHost.Host) async throws -> Result<EchoSummary, CommandFailure> {
        let request = GAPConnectRequest(
            peer: peer.address, peerAddressType: peer.hciType,
            parameters: HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 24, maxLatency: 0,
                                                   supervisionTimeout: 400),
            timeout: HostTime(timeout * 1_000_000))
        let link: GAPConnection
        do {
            link = try await host.connect(request)
        } catch HostError.gap(.timeout) {
            let otherType = peer.address.kind == .random ? "drop /random if it uses a public one" : "append /random if it uses a random one"
            return .failure(CommandFailure(
                "No device answered at \(peer) within \(timeout.formatted(decimals: 1)) s: check that it is advertising "
                + "connectably and in range, and that the address type is right (\(otherType))."))
        }
        OutputLine(text: "Connected to \(peer) (handle \(link.handle))",
                   fields: [("event", .string("connected")), ("peer", .string("\(peer.address)")),
                            ("peerAddressType", .string(peer.typeName)), ("handle", .integer(Int(link.handle)))])
            .print(json: json)
        // Longer data PDUs make the exchange faster where the controllers support them;
        // where they do not, the link simply keeps 27 octets (Vol 6, Part B, §5.1.9).
        try? await host.setDataLength(link.handle)
        let channel: HostChannel
        do {
            channel = try await host.openChannel(psm: psm, on: link.handle, parameters: HostChannelParameters(
                mtu: UInt16(mtu), mps: 247, initialCredits: UInt16(credits)))
        } catch let HostChannelError.refused(result) {
            try? await host.disconnect(link.handle)
            let psmText = "PSM 0x" + String(psm, radix: 16, uppercase: true).leftPadded(to: 4)
            return .failure(CommandFailure("\(peer) refused a channel on \(psmText) (\(result)); check that it listens on that PSM."))
        }
        OutputLine(text: "Channel opened: \(channel.psmText) on \(channel.id) (MTU \(channel.localMTU)/\(channel.peerMTU), MPS \(channel.peerMPS))",
                   fields: [("event", .string("channelOpened"))] + channel.jsonFields)
            .print(json: json)
        guard pattern.sizes.upperBound <= Int(channel.peerMTU) else {
            await host.closeChannel(channel.id)
            try? await host.disconnect(link.handle)
            return .failure(CommandFailure("The server takes SDUs of at most \(channel.peerMTU) octets; use --size up to \(channel.peerMTU)."))
        }
        let summary = await EchoExchange(host: host, channel: channel, pattern: pattern, count: count,
                                         idleTimeout: timeout).run()
        summary.line.print(json: json)
        await host.closeChannel(channel.id)
        try? await host.disconnect(link.handle)
        return .success(summary)
    }
}
