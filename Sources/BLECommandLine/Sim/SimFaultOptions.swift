import ArgumentParser
import BLEController
import BLEWire
import BLEWorld

/// Faults `ble sim serve` injects between its served devices (DESIGN.md, "Faults on
/// demand"): packet loss on air, which the link layer's acknowledgement and retransmission
/// recover (Core 5.4, Vol 6, Part B, §4.5.9), and one silent link drop, which only the
/// supervision timeout notices (§4.5.2).
struct SimFaultOptions: ParsableArguments {
    @Option(help: "The fraction (0 to 1) of radio packets lost between served devices, e.g. 0.1.")
    var loss: Double = 0

    @Option(name: .customLong("drop-link-after"),
            help: "Drop the served devices' links silently this many simulated seconds after their first connection; they stay blocked until both sides' supervision timeouts.")
    var dropLinkAfter: Double?

    func validate() throws {
        guard loss.isFinite, (0 ... 1).contains(loss) else {
            throw ValidationError("--loss must be a fraction from 0 to 1, e.g. 0.1 for 10 %.")
        }
        if let dropLinkAfter, !(dropLinkAfter.isFinite && dropLinkAfter >= 0) {
            throw ValidationError("--drop-link-after must be a number of seconds, 0 or more.")
        }
    }

    /// Puts the loss into `world` and returns the armed link drop, if one was asked for.
    func install(among devices: [DeviceID], in world: World) -> SilentLinkDrop? {
        if loss > 0 { world.setPacketLoss(loss, among: devices) }
        guard let dropLinkAfter else { return nil }
        let drop = SilentLinkDrop(devices: devices, after: Microseconds((dropLinkAfter * 1_000_000).rounded()))
        drop.onPhaseChange = { phase in
            switch phase {
            case let .blocked(since): printError("sim: links dropped silently at \(Double(since) / 1e6) s")
            case let .restored(at): printError("sim: links restored at \(Double(at) / 1e6) s after both sides timed out")
            default: break
            }
        }
        return drop
    }
}
