import ArgumentParser
import BLEHost
import BLEWire
import Foundation

/// `ble periodic sync ADDRESS SID`: synchronises to an advertiser's periodic train (Core 5.4,
/// Vol 3, Part C, §9.5.2; Vol 4, Part E, §7.8.67) and prints each periodic event's data,
/// whole, one line each, as `btmon` names the fields.
struct PeriodicSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Synchronise to a periodic advertising train and print each event's data.",
        discussion: """
        ADDRESS and SID name the advertising set as `ble scan --extended` prints them. An extended \
        scan runs until the train is found. Needs a controller with the LE Periodic Advertising \
        feature (`ble sim serve`'s have it unless --no-extended).
        """
    )

    @Argument(help: "The advertiser's address as ble scan prints it, e.g. C0:FF:EE:00:00:01 or C0:FF:EE:00:00:01/random.")
    var address: String

    @Argument(help: "The advertising set's SID, 0 to 15.")
    var sid: Int

    @Option(help: "Give up when the train is not found within S seconds, or is silent for S seconds once followed (0.1 to 163.84).")
    var timeout: Double = 5

    @Option(help: "Stop after N periodic events (default: until interrupted or the sync is lost).")
    var count: Int?

    @Option(help: "Periodic events the controller may skip after one it received (0 to 499).")
    var skip: Int = 0

    @Flag(help: "One JSON object per line and periodic event instead of text.")
    var json = false

    @Flag(help: "The address is a random one (or write ADDRESS/random).")
    var random = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet of the controller to this btsnoop file.")
    var snoop: String?

    @Option(help: "The simulated world's seed (default: the scenario's).")
    var seed: UInt64?

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func validate() throws {
        guard PeerAddress(parsing: address, random: random) != nil else {
            throw ValidationError("ADDRESS \(address) is not a Bluetooth address: give it as ble scan prints it, e.g. C0:FF:EE:00:00:01 or C0:FF:EE:00:00:01/random.")
        }
        guard (0 ... 15).contains(sid) else { throw ValidationError("SID \(sid) is outside 0 to 15, the Advertising SIDs a set may have.") }
        guard timeout.isFinite, (0.1 ... 163.84).contains(timeout) else {
            throw ValidationError("--timeout \(timeout) is outside 0.1 to 163.84 seconds, the sync timeouts a controller takes.")
        }
        if let count, count < 1 { throw ValidationError("--count \(count) must be at least 1.") }
        guard (0 ... Int(GAPPeriodicSyncRequest.largestSkip)).contains(skip) else {
            throw ValidationError("--skip \(skip) is outside 0 to \(GAPPeriodicSyncRequest.largestSkip) events.")
        }
    }

    func run() async throws {
        let opened = try await openAdapter(hci: hci, seed: seed, snoop: snoop)
        do {
            try await follow(on: opened.host)
        } catch {
            await opened.close()
            if let failure = error as? CommandFailure { throw failure }
            throw CommandFailure("Synchronising failed: \(Self.sentence(error)).")
        }
        await opened.close()
    }

    private func follow(on host: BLEHost.Host) async throws {
        _ = try await host.start()
        guard let peer = PeerAddress(parsing: address, random: random) else { return }
        let microseconds = Int64((timeout * 1_000_000).rounded())
        let request = GAPPeriodicSyncRequest(
            advertiser: peer.address, advertiserAddressType: peer.hciType, sid: UInt8(sid), skip: UInt16(skip),
            syncTimeout: UInt16((timeout * 100).rounded()), findTimeout: microseconds)
        let clock = host.clock
        let start = clock.microseconds
        var sync: GAPPeriodicSync?
        var received = 0
        for try await event in try await host.synchronize(request) {
            switch event {
            case let .established(established):
                sync = established
                if !json { FileHandle.standardOutput.write(Data((PeriodicOutput.established(established) + "\n").utf8)) }
            case let .report(report):
                guard let sync else { continue }
                let line = json ? PeriodicOutput.json(report, sync: sync, time: clock.microseconds - start) : PeriodicOutput.text(report, sync: sync)
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                received += 1
                if let count, received >= count { return }
            }
        }
    }

    /// The host's error as a clause: the GAP sentence, with a hint for a served world.
    static func sentence(_ error: any Error) -> String {
        switch error {
        case HostError.gap(.periodicSyncUnsupported):
            return "\(GAPError.periodicSyncUnsupported); on ble sim serve, leave out --no-extended"
        case let HostError.gap(gap):
            return gap.description
        default:
            return "\(error)"
        }
    }
}
