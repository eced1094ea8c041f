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
        // The end is booked at the start, and only if someone locks on (UnheardEnds), with
        // the number it would have had if booked now.
        record.endSequence = queue.reserveSequence()
    }

    /// Frees an air record's slot for the next transmission.
    private func release(_ slot: Int) {
        let record = air[slot]
        record.receivers.removeAll(keepingCapacity: true)
        record.interferers.removeAll(keepingCapacity: true)
        record.started = false
        freeAirSlots.append(slot)
    }

    /// Takes `slot`'s packet off `channel`'s traffic.
    private func takeOffAir(_ slot: Int, channel: Int) {
        if let index = onAir[channel].firstIndex(where: { $0.slot == slot }) {
            onAir[channel].swapAt(index, onAir[channel].count - 1)
            onAir[channel].removeLast()
        }
    }

    /// Ends, in their order, the unheard packets on `channel` (``UnheardEnds``) whose end
    /// events would have run before the event at ``now`` with `sequence`.
    private func endUnheardPackets(on channel: Int, before sequence: UInt64) {
        while let slot = unheardEnds.takeEnd(on: channel, before: now, sequence) {
            takeOffAir(slot, channel: channel)
            release(slot)
        }
    }

    /// The first bit leaves the antenna: the packet joins its channel's traffic, and every
    /// receiver within its reach (``reach(txPowerDBm:senderGainDBi:phy:)``) open on its channel,
    /// PHY (``RadioPHY/decodes(_:)``: a Coded receiver hears either coding, a 1M one no
    /// Coded packet) and access address locks onto it. A receiver locks
    /// onto every packet that starts in its window; overlapping ones then compete at their
    /// ends, where at most one can beat the others by the capture margin.
    func startTransmission(_ slot: Int, sequence: UInt64) {
        let record = air[slot]
        let sender = deviceStates[record.sender]
        guard sender.powered, sender.epoch == record.senderEpoch else {
            release(slot)
            return
        }
        let transmission = record.transmission
        let end = transmission.end
        record.started = true
        record.senderPosition = sender.position(at: now)
        record.senderFrontEnd = sender.frontEnd
        sender.statistics.transmissions += 1
        sender.radioClock.transmitted(duration: end - now, dBm: transmission.txPowerDBm)
        sender.previousTransmitStart = sender.lastTransmitStart
        sender.lastTransmitStart = now
        if end > sender.transmittingUntil { sender.transmittingUntil = end }

        let channel = Int(transmission.channel)
        ChannelStatistics.count(&channelCounters.transmissions, channel: channel)
        endUnheardPackets(on: channel, before: sequence)

        // Only receivers within the packet's reach could get it; the others are not offered it.
        let candidates: [Int]
        if !offersOnlyWithinReach {
            candidates = listeners[channel]
        } else if Self.isStationary(sender) {
            // A sender standing still reuses what its packets reach (SenderReach).
            let known = stationaryReach(of: sender, transmission)
            if let reach = known.reach {
                collectReachableListeners(channel: channel, origin: record.senderPosition, reach: reach, known: known,
                                          serial: record.serial)
                candidates = reachable
            } else {
                candidates = listeners[channel]
            }
        } else if let reach = reach(txPowerDBm: transmission.txPowerDBm, senderGainDBi: sender.description.antennaGainDBi,
                                    phy: transmission.phy) {
            collectReachableListeners(channel: channel, origin: record.senderPosition, reach: reach, serial: record.serial)
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
        joinTraffic(slot, channel: channel)
        if record.receivers.isEmpty {
            unheardEnds.add(UnheardEnds.End(time: end, sequence: record.endSequence, slot: slot), channel: channel)
        } else {
            queue.schedule(at: end, .transmissionEnd, slot, sequence: record.endSequence)
        }
    }

    /// The packet in `slot`, whose receivers have locked on, joins `channel`'s traffic: it
    /// interferes with each packet on the air there and each interferes with it. Only a
    /// packet someone locked onto ever reads its interferers, so only such packets collect
    /// them (in a city of 100,000 beacons some 37 packets share a channel at any moment).
    private func joinTraffic(_ slot: Int, channel: Int) {
        let record = air[slot]
        let heard = !record.receivers.isEmpty
        let newcomer = Interferer(sender: record.sender, serial: record.serial, position: record.senderPosition,
                                  txPowerDBm: record.transmission.txPowerDBm, frontEnd: record.senderFrontEnd)
        for other in onAir[channel] {
            if other.heard { air[other.slot].interferers.append(newcomer) }
            if heard { record.interferers.append(other.interferer) }
        }
        onAir[channel].append(OnAir(slot: slot, heard: heard, interferer: newcomer))
    }

    /// The last bit arrives: each locked receiver gets the packet unless the model loses it.
    /// Booked only for a packet someone locked onto (``UnheardEnds``).
    func endTransmission(_ slot: Int, sequence: UInt64) {
        let record = air[slot]
        defer { release(slot) }
        guard record.started else { return }
        let channel = Int(record.transmission.channel)
        endUnheardPackets(on: channel, before: sequence)
        takeOffAir(slot, channel: channel)
        let receivers = record.receivers
        // Read once per packet, not per lock: most locks end below sensitivity, so their
        // cost is what the packet's end costs (docs/world-benchmarks.md).
        let end = record.transmission.end
        for lock in receivers {
            if let rssi = receptionRSSI(of: record, ending: end, at: lock) {
                onReception?(WorldReception(time: now, receiver: DeviceID(rawValue: lock.device),
                                            sender: DeviceID(rawValue: record.sender),
                                            channel: record.transmission.channel, rssi: rssi, pdu: record.transmission.pdu))
                deliver(.radio(RadioReception(transmission: record.transmission, rssi: rssi)), to: lock.device)
            }
        }
    }

    /// Whether `record`'s interferers drown it at `device` (standing at `position`), where its
    /// level is `wantedDBm`: settled from bounds where they can (``InterferenceBounds``),
    /// else by the full draw, which sums the interferers' levels in their order.
    private func isDrowned(_ record: AirRecord, at device: Int, receiver: DeviceState, position: Vector3, wantedDBm: Double) -> Bool {
        let receiverFrontEnd = receiver.frontEnd
        let time = record.transmission.start
        let radio = configuration.radio
        var bounds = InterferenceBounds(wantedDBm: wantedDBm, radio: radio, factors: shadowingFactors)
        interferenceMeans.removeAll(keepingCapacity: true)
        for interferer in record.interferers where interferer.sender != device {
            let mean = meanReceivedPowerDBm(
                from: interferer.frontEnd, heading: self.deviceStates[interferer.sender].headingDegrees(at: time),
                at: interferer.position, to: receiverFrontEnd, heading: receiver.headingDegrees(at: time),
                at: position, time: time, txPowerDBm: interferer.txPowerDBm, obstacles: true)
            interferenceMeans.append((mean, interferer.serial))
            if bounds != nil {
                let seed = configuration.seed, serial = interferer.serial
                let first = WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(device), 1))
                let second = WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(device), 2))
                if bounds!.add(meanDBm: mean, first: first, second: second) { return true }
            }
        }
        if let bounds, bounds.surelyClear { return false }
        var interferenceMilliwatts = 0.0
        for (mean, serial) in interferenceMeans {
            let level = mean + randomVariationDB(serial: serial, receiver: device)
            interferenceMilliwatts += pow(10, level / 10)
        }
        return InterferenceBounds.drowns(wantedDBm: wantedDBm, interferenceMilliwatts: interferenceMilliwatts,
                                         captureMarginDB: radio.captureMarginDB)
    }

    /// The RSSI at which `lock`'s device receives `record`, which ends at `end`, or `nil`
    /// (with the reason counted) if the packet is lost there.
    ///
    /// The transmission's fields are read from the record in place and the sender's front end
    /// is the one the record took at the start (the same value: a description does not change
    /// while its device transmits), so a lock that ends below sensitivity retains only its
    /// receiver.
    private func receptionRSSI(of record: AirRecord, ending end: Microseconds, at lock: ReceiverLock) -> Int8? {
        let receiver = deviceStates[lock.device]
        guard receiver.powered, receiver.epoch == lock.epoch else { return nil }
        let start = record.transmission.start
        if receiver.transmitted(between: start, and: end) {
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
        let receiverPosition = receiver.position(at: start)
        var power = meanReceivedPowerDBm(
            from: record.senderFrontEnd, heading: self.deviceStates[record.sender].headingDegrees(at: start),
            at: record.senderPosition, to: receiver.frontEnd, heading: receiver.headingDegrees(at: start),
            at: receiverPosition, time: start, txPowerDBm: record.transmission.txPowerDBm, obstacles: realistic)
        if realistic {
            // A Coded packet is received weaker than a 1M one (RadioModel.sensitivityGainDB(for:)).
            let sensitivity = RadioModel.sensitivityDBm(receiver.description.sensitivityDBm, on: record.transmission.phy)
            if isSurelyBelow(sensitivity, meanPowerDBm: power, serial: record.serial, receiver: lock.device) {
                receiver.statistics.belowSensitivity += 1
                return nil
            }
            power += randomVariationDB(serial: record.serial, receiver: lock.device)
            if power < sensitivity {
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
        if realistic, !record.interferers.isEmpty,
           isDrowned(record, at: lock.device, receiver: receiver, position: receiverPosition, wantedDBm: power) {
            receiver.statistics.collisions += 1
            ChannelStatistics.count(&channelCounters.collisions, channel: Int(record.transmission.channel))
            return nil
        }
        receiver.statistics.receptions += 1
        ChannelStatistics.count(&channelCounters.receptions, channel: Int(record.transmission.channel))
        let reported = (power + receiver.description.rssiOffsetDB).rounded()
        guard reported.isFinite else { return reported > 0 ? 127 : -128 }
        return Int8(Swift.max(-128, Swift.min(127, reported)))
    }
}
