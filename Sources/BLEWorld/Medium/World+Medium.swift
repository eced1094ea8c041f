import BLEController
import Foundation

extension World {
    /// Books a transmission's start and end on the clock. Its end is booked now, before
    /// anything the controllers do later, so at equal times a packet ends before a reply
    /// that starts when it ends.
    func scheduleTransmission(_ transmission: RadioTransmission, from device: Int) {
        var transmission = transmission
        if transmission.start < now { transmission.start = now }
        let slot: Int
        let record: AirRecord
        if let free = freeAirSlots.popLast() {
            slot = free
            record = air[free]
            record.transmission = transmission
        } else {
            slot = air.count
            record = AirRecord(transmission: transmission)
            air.append(record)
        }
        record.sender = device
        record.senderEpoch = deviceStates[device].epoch
        record.serial = nextTransmissionSerial
        nextTransmissionSerial &+= 1
        record.started = false
        queue.schedule(at: transmission.start, .transmissionStart, slot)
        queue.schedule(at: transmission.end, .transmissionEnd, slot)
    }

    /// The first bit leaves the antenna: the packet joins its channel's traffic, and every
    /// receiver within its reach (``reach(txPowerDBm:senderGainDBi:phy:)``) open on its channel,
    /// PHY (``RadioPHY/decodes(_:)``: a Coded receiver hears either coding, a 1M one no
    /// Coded packet) and access address locks onto it. A receiver locks
    /// onto every packet that starts in its window; overlapping ones then compete at their
    /// ends, where at most one can beat the others by the capture margin.
    func startTransmission(_ slot: Int) {
        let record = air[slot]
        let sender = deviceStates[record.sender]
        guard sender.powered, sender.epoch == record.senderEpoch else { return }
        let transmission = record.transmission
        let end = transmission.end
        record.started = true
        record.senderPosition = sender.position(at: now)
        sender.statistics.transmissions += 1
        sender.radioClock.transmitted(duration: end - now, dBm: transmission.txPowerDBm)
        sender.previousTransmitStart = sender.lastTransmitStart
        sender.lastTransmitStart = now
        if end > sender.transmittingUntil { sender.transmittingUntil = end }

        let channel = Int(transmission.channel)
        ChannelStatistics.count(&channelCounters.transmissions, channel: channel)
        let newcomer = Interferer(sender: record.sender, serial: record.serial, position: record.senderPosition,
                                  txPowerDBm: transmission.txPowerDBm)
        for other in onAir[channel] {
            let existing = air[other]
            existing.interferers.append(newcomer)
            record.interferers.append(Interferer(sender: existing.sender, serial: existing.serial,
                                                 position: existing.senderPosition,
                                                 txPowerDBm: existing.transmission.txPowerDBm))
        }
        onAir[channel].append(slot)

        // Only receivers within the packet's reach could get it; the others are not offered it.
        let candidates: [Int]
        if offersOnlyWithinReach,
           let reach = reach(txPowerDBm: transmission.txPowerDBm, senderGainDBi: sender.description.antennaGainDBi,
                            phy: transmission.phy) {
            collectReachableListeners(channel: channel, origin: record.senderPosition, reach: reach)
            candidates = reachable
        } else {
            candidates = listeners[channel]
        }
        for device in candidates where device != record.sender {
            let receiver = deviceStates[device]
            guard receiver.powered, let window = receiver.window,
                  window.phy.decodes(transmission.phy), window.accessAddress == transmission.accessAddress,
                  window.opens <= now, window.closes.map({ now < $0 }) ?? true,
                  receiver.transmittingUntil <= now else { continue }
            record.receivers.append(ReceiverLock(device: device, epoch: receiver.epoch))
        }
    }

    /// The last bit arrives: each locked receiver gets the packet unless the model loses it.
    func endTransmission(_ slot: Int) {
        let record = air[slot]
        defer {
            record.receivers.removeAll(keepingCapacity: true)
            record.interferers.removeAll(keepingCapacity: true)
            record.started = false
            freeAirSlots.append(slot)
        }
        guard record.started else { return }
        let channel = Int(record.transmission.channel)
        if let index = onAir[channel].firstIndex(of: slot) {
            onAir[channel].swapAt(index, onAir[channel].count - 1)
            onAir[channel].removeLast()
        }
        let receivers = record.receivers
        for lock in receivers {
            if let rssi = receptionRSSI(of: record, at: lock) {
                onReception?(WorldReception(time: now, receiver: DeviceID(rawValue: lock.device),
                                            sender: DeviceID(rawValue: record.sender),
                                            channel: record.transmission.channel, rssi: rssi, pdu: record.transmission.pdu))
                deliver(.radio(RadioReception(transmission: record.transmission, rssi: rssi)), to: lock.device)
            }
        }
    }

    /// The RSSI at which `lock`'s device receives `record`, or `nil` (with the reason
    /// counted) if the packet is lost there.
    private func receptionRSSI(of record: AirRecord, at lock: ReceiverLock) -> Int8? {
        let receiver = deviceStates[lock.device]
        guard receiver.powered, receiver.epoch == lock.epoch else { return nil }
        let transmission = record.transmission
        if receiver.transmitted(between: transmission.start, and: transmission.end) {
            receiver.statistics.halfDuplex += 1
            return nil
        }
        let link = LinkKey(record.sender, lock.device)
        if !blockedLinks.isEmpty && blockedLinks.contains(link)
            || !blockedDirections.isEmpty && blockedDirections.contains(DirectedLinkKey(sender: record.sender, receiver: lock.device)) {
            receiver.statistics.blocked += 1
            return nil
        }
        let realistic = configuration.timing == .realistic
        let receiverPosition = receiver.position(at: transmission.start)
        let sender = deviceStates[record.sender]
        var power = meanReceivedPowerDBm(from: sender, at: record.senderPosition, to: receiver, at: receiverPosition,
                                         time: transmission.start, txPowerDBm: transmission.txPowerDBm, obstacles: realistic)
        if realistic {
            power += randomVariationDB(serial: record.serial, receiver: lock.device)
            // A Coded packet is received weaker than a 1M one (RadioModel.sensitivityGainDB(for:)).
            if power < RadioModel.sensitivityDBm(receiver.description.sensitivityDBm, on: transmission.phy) {
                receiver.statistics.belowSensitivity += 1
                return nil
            }
        }
        if !packetLoss.isEmpty, let rate = packetLoss[link], rate > 0 {
            let draw = WorldRandom.unit(WorldRandom.hash(seed: configuration.seed, record.serial, UInt64(lock.device), 3))
            if draw < rate {
                receiver.statistics.losses += 1
                return nil
            }
        }
        if realistic, !record.interferers.isEmpty {
            var interferenceMilliwatts = 0.0
            for interferer in record.interferers where interferer.sender != lock.device {
                let other = deviceStates[interferer.sender]
                let level = meanReceivedPowerDBm(from: other, at: interferer.position, to: receiver, at: receiverPosition,
                                                 time: transmission.start, txPowerDBm: interferer.txPowerDBm, obstacles: true)
                    + randomVariationDB(serial: interferer.serial, receiver: lock.device)
                interferenceMilliwatts += pow(10, level / 10)
            }
            if interferenceMilliwatts > 0,
               power - 10 * log10(interferenceMilliwatts) < configuration.radio.captureMarginDB {
                receiver.statistics.collisions += 1
                ChannelStatistics.count(&channelCounters.collisions, channel: Int(transmission.channel))
                return nil
            }
        }
        receiver.statistics.receptions += 1
        ChannelStatistics.count(&channelCounters.receptions, channel: Int(transmission.channel))
        let reported = (power + receiver.description.rssiOffsetDB).rounded()
        guard reported.isFinite else { return reported > 0 ? 127 : -128 }
        return Int8(Swift.max(-128, Swift.min(127, reported)))
    }
}
