import Foundation
import BLEController
import BLEWire
import BLEWorld

/// A minimal advertiser for world tests: every `interval` (plus a seeded 0–`maximumDelay`
/// µs delay, like advDelay) it sends an ADV_NONCONN_IND-shaped PDU on each of its channels,
/// one after another. Its AdvA carries `tag`, so a listener can tell beacons apart.
/// After a power cycle it is silent until its host sends any HCI command.
struct TestBeacon: SimulatedController {
    var tag: UInt32
    var interval: Microseconds
    var channels: [UInt8]
    var txPowerDBm: Double
    var maximumDelay: Microseconds
    /// Also keep a receiver open on channel 37 from time 0 (for half-duplex tests).
    var listens: Bool
    /// The PHY it sends on.
    var phy: RadioPHY
    private var random: WorldRandom
    private var next: Microseconds?
    private var openedReceiver = false
    private var firstAt: Microseconds

    init(tag: UInt32, interval: Microseconds = 100_000, firstAt: Microseconds = 0, channels: [UInt8] = [37],
         txPowerDBm: Double = 0, maximumDelay: Microseconds = 0, listens: Bool = false, seed: UInt64 = 1, phy: RadioPHY = .le1M) {
        self.tag = tag
        self.phy = phy
        self.interval = interval
        self.channels = channels
        self.txPowerDBm = txPowerDBm
        self.maximumDelay = maximumDelay
        self.listens = listens
        random = WorldRandom(seed: seed)
        self.firstAt = firstAt
        next = listens ? 0 : firstAt
    }

    /// ADV_NONCONN_IND: header (type 2, length 26), AdvA (the tag, then 0xC0 0xFF as a
    /// static random address), then 20 octets of AD: a Flags structure and manufacturer data.
    var pdu: [UInt8] {
        var bytes: [UInt8] = [0x42, 26]
        bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8 & 0xFF), UInt8(tag >> 16 & 0xFF), UInt8(tag >> 24 & 0xFF), 0xFF, 0xC0]
        bytes += [0x02, 0x01, 0x06, 0x0F, 0xFF, 0xFF, 0xFF] + Array(repeating: 0xAB, count: 13)
        return bytes
    }

    var nextDeadline: Microseconds? { next }

    mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        switch input {
        case .hci(.command):
            next = now
            return []
        case .timer:
            var outputs: [ControllerOutput] = []
            if listens, !openedReceiver {
                openedReceiver = true
                outputs.append(.listen(ReceiverWindow(channel: 37, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress,
                                                      opens: now, closes: nil)))
                if now < firstAt {
                    next = firstAt
                    return outputs
                }
            }
            let pdu = self.pdu
            var start = now
            for channel in channels {
                let transmission = RadioTransmission(channel: channel, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
                                                     pdu: pdu, start: start, txPowerDBm: txPowerDBm)
                outputs.append(.transmit(transmission))
                start = transmission.end + 150
            }
            let delay = maximumDelay > 0 ? Microseconds(random.next() % UInt64(maximumDelay + 1)) : 0
            next = now + interval + delay
            return outputs
        default:
            return []
        }
    }

    mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] {
        next = nil
        openedReceiver = false
        return [.stopListening]
    }
}

/// A minimal scanner for world tests: keeps its receiver open on channel 37 (or moves it
/// round 37, 38, 39 every `rotation` µs) and reports each reception to its host as a
/// vendor-specific HCI event: channel, RSSI, and the sender's 4-octet tag. It answers every
/// command with Command Complete (success). After a power cycle it stays deaf until the
/// host sends a command.
struct TestListener: SimulatedController {
    var rotation: Microseconds?
    /// The PHY it listens on.
    var phy: RadioPHY
    private var channelIndex = 0
    private var started = false
    private var next: Microseconds? = 0

    init(rotation: Microseconds? = nil, phy: RadioPHY = .le1M) {
        self.rotation = rotation
        self.phy = phy
    }

    var nextDeadline: Microseconds? { next }

    private func window(at now: Microseconds) -> ControllerOutput {
        .listen(ReceiverWindow(channel: 37 + UInt8(channelIndex), phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
                               opens: now, closes: nil))
    }

    mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        switch input {
        case let .hci(.command(command)):
            let opcode = command.opcode.rawValue
            let complete = HCI.EventPacket(eventCode: .commandComplete,
                                           parameters: [1, UInt8(opcode & 0xFF), UInt8(opcode >> 8), 0x00])
            if !started { next = now }
            return [.hci(.event(complete))]
        case .hci:
            return []
        case .timer:
            if started {
                channelIndex = (channelIndex + 1) % 3
            }
            started = true
            next = rotation.map { now + $0 }
            return [window(at: now)]
        case let .radio(reception):
            let pdu = reception.transmission.pdu
            var parameters: [UInt8] = [reception.transmission.channel, UInt8(bitPattern: reception.rssi)]
            parameters += pdu.dropFirst(2).prefix(4)
            return [.hci(.event(HCI.EventPacket(eventCode: .vendorSpecific, parameters: parameters[...])))]
        }
    }

    mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] {
        next = nil
        channelIndex = 0
        started = false
        return [.stopListening]
    }
}

/// One reception a ``TestListener`` reported.
struct HeardPacket: Hashable {
    var listener: DeviceID
    var time: Microseconds
    var channel: UInt8
    var rssi: Int8
    var tag: UInt32
}

/// Collects what listeners report and the other events their hosts get.
final class HostLog {
    var heard: [HeardPacket] = []
    var otherEvents: [(DeviceID, H4.Packet)] = []

    init(world: World) {
        world.onHostPacket = { [unowned self, unowned world] device, packet in
            if case let .event(event) = packet, event.eventCode == .vendorSpecific {
                var reader = ByteReader(event.parameters)
                if let channel = try? reader.readUInt8("channel"), let rssi = try? reader.readUInt8("rssi"),
                   let tag = try? reader.readUInt32("tag") {
                    self.heard.append(HeardPacket(listener: device, time: world.now, channel: channel,
                                                  rssi: Int8(bitPattern: rssi), tag: tag))
                    return
                }
            }
            self.otherEvents.append((device, packet))
        }
    }

    func heard(by listener: DeviceID) -> [HeardPacket] { heard.filter { $0.listener == listener } }

    func meanRSSI(by listener: DeviceID) -> Double? {
        let packets = heard(by: listener)
        guard !packets.isEmpty else { return nil }
        return Double(packets.reduce(0) { $0 + Int($1.rssi) }) / Double(packets.count)
    }
}

/// The 40 + 25·log10(d) default model, for expectations.
func defaultPathLoss(_ distance: Double) -> Double {
    40 + 25 * log10(distance)
}
