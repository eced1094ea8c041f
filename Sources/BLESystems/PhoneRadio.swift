import BLEAdapter
import BLEGateway
import BLEWire
import BLEWorld
import Synchronization

/// What one phone's radio heard of the scenario's beacons, told as the fleet tells its
/// gateways' hearing (``FleetPlay``'s `hearing`): two `radio` lines per span.
///
/// A phone's apps reach the world through their Core Location manager's `sim:FILE`, which
/// builds the scenario's world with the host on the phone's device. The radio watches every
/// world opened from that file (``ScenarioFileWatch``) and keeps each legacy advertising PDU
/// (Core 5.4, Vol 6, Part B, §2.3.1) the phone's device received there
/// (``BLEWorld/World/onReception``): the world's truth of what the radio got, before the
/// controller's duplicate filter, the phone's scan policy or Core Location chose what to
/// report. A radio that scans only in bursts hears only then. An advertisement counts when
/// it carries a beacon frame, named as a gateway with no rule names it
/// (`ibeacon:UUID:MAJOR:MINOR`, `eddystone-eid:EID`…; ``GatewayFilter``).
final class PhoneRadio: Sendable {
    /// The phone's device name: who the story lines are by.
    let device: String
    /// The scenario file the phone's worlds are opened from.
    let file: String
    private let heard = Mutex<[FleetPlay.Heard]>([])
    /// A gateway's naming of beacon frames, with no rule (every beacon frame is kept).
    private static let naming = GatewayFilter(rules: [])

    /// Starts listening on `device`'s worlds opened from `file`; call before any app opens
    /// one, and ``stop()`` after the run.
    init(device: String, file: String) {
        self.device = device
        self.file = file
        ScenarioFileWatch.watch(file) { [self] _, world, phone in
            let earlier = world.onReception
            world.onReception = { [self] reception in
                earlier?(reception)
                guard reception.receiver == phone, reception.channel >= 37 else { return }
                record(reception)
            }
        }
    }

    /// Stops watching worlds opened from the file.
    func stop() {
        ScenarioFileWatch.stopWatching(file)
    }

    /// The radio lines: two per span of hearing one identity, times in virtual µs since the
    /// world started (a world joins its simulation's timeline, whenever it is opened).
    var lines: [SystemStoryLine] {
        FleetPlay.hearing(heard.withLock { $0 }, epoch: 0)
    }

    private func record(_ reception: WorldReception) {
        guard let pdu = try? LL.AdvertisingPDU(decoding: reception.pdu) else { return }
        let address: BluetoothAddress, data: ArraySlice<UInt8>
        switch pdu.payload {
        case let .advInd(sender, bytes), let .advNonconnInd(sender, bytes), let .advScanInd(sender, bytes), let .scanRsp(sender, bytes):
            (address, data) = (sender, bytes)
        default:
            return
        }
        guard let kept = Self.naming.keep(address: address, data: Array(data)) else { return }
        let one = FleetPlay.Heard(time: Int64(reception.time), receiver: device, identity: kept.identity, rssi: Int(reception.rssi))
        heard.withLock { $0.append(one) }
    }
}
