import BLEController
import BLELogging

/// The world's logger (`ble.world`): faults and power, in world time.
let worldLog = BLELog.logger("world")

extension World {
    /// Drops each packet between `a` and `b` (both ways) with probability `rate` (0–1),
    /// drawn from the world's seed per packet and receiver. 0 removes the fault.
    public func setPacketLoss(_ rate: Double, between a: DeviceID, and b: DeviceID) {
        let key = LinkKey(a.rawValue, b.rawValue)
        let clamped = rate.isNaN ? 0 : Swift.min(1, Swift.max(0, rate))
        if clamped > 0 { packetLoss[key] = clamped } else { packetLoss[key] = nil }
        worldLog.info("packet loss \(clamped) between devices \(a.rawValue) and \(b.rawValue)", metadata: ["time": "\(now)"])
    }

    /// Blocks or unblocks every packet between `a` and `b`, both ways: a link that drops
    /// silently, as when a peer walks out of range or stops answering.
    public func setLinkBlocked(_ blocked: Bool, between a: DeviceID, and b: DeviceID) {
        let key = LinkKey(a.rawValue, b.rawValue)
        if blocked { blockedLinks.insert(key) } else { blockedLinks.remove(key) }
        worldLog.info("link between devices \(a.rawValue) and \(b.rawValue) \(blocked ? "blocked" : "open")", metadata: ["time": "\(now)"])
    }

    /// Blocks or unblocks the packets `sender` sends to `receiver`, one way only: an
    /// asymmetric link, where the receiver's replies still get through. A central that hears
    /// an advertiser whose receiver misses the CONNECT_IND sees its new link fail to be
    /// established (Core 5.4, Vol 6, Part B, §4.5.2).
    public func setLinkBlocked(_ blocked: Bool, from sender: DeviceID, to receiver: DeviceID) {
        let key = DirectedLinkKey(sender: sender.rawValue, receiver: receiver.rawValue)
        if blocked { blockedDirections.insert(key) } else { blockedDirections.remove(key) }
    }

    /// Puts `device` at `position` from now on, as if it were carried there in an instant;
    /// a route it was following, or the carrier it rode with, is left (scenarios' `moveTo`
    /// action).
    public func move(_ device: DeviceID, to position: Vector3) {
        guard deviceStates.indices.contains(device.rawValue) else { return }
        let state = deviceStates[device.rawValue]
        state.carrier = nil
        state.description.position = position
        state.description.route = nil
        state.plan = nil
        listenerGrid.version &+= 1
        refileListener(device.rawValue)
    }

    /// Resets `device`'s controller as by a power cycle (`SimulatedController.powerCycle`):
    /// its receiver closes, its packets in flight and scheduled are void, and it waits for
    /// its host. A device that is off stays off (its controller is reset all the same).
    public func powerCycle(_ device: DeviceID) {
        guard deviceStates.indices.contains(device.rawValue) else { return }
        let index = device.rawValue
        let state = deviceStates[index]
        invalidateRadio(index)
        let outputs = state.controller.powerCycle(at: now)
        if state.powered {
            carryOut(outputs, from: index)
        }
        refreshTimer(index)
    }

    /// Switches `device` off or on. Off: no radio, no timers, HCI packets both ways are
    /// dropped. On again: the controller starts from a power cycle, as hardware would.
    public func setPowered(_ on: Bool, device: DeviceID) {
        guard deviceStates.indices.contains(device.rawValue) else { return }
        let index = device.rawValue
        let state = deviceStates[index]
        guard state.powered != on else { return }
        worldLog.info("device \(index) powered \(on ? "on" : "off")", metadata: ["time": "\(now)"])
        if on {
            state.powered = true
            state.radioClock.poweredSince = now
            powerCycle(device)
        } else {
            invalidateRadio(index)
            state.radioClock.poweredOff(at: now)
            state.powered = false
            refreshTimer(index)
        }
    }

    /// Closes the receiver and voids the device's transmissions and locks from before.
    private func invalidateRadio(_ index: Int) {
        let state = deviceStates[index]
        state.epoch &+= 1
        closeReceiver(index)
    }
}

extension World {
    /// Drops each packet between any two of `devices` with probability `rate` (0–1), as
    /// ``setPacketLoss(_:between:and:)`` does for each pair: `ble sim serve --loss`.
    public func setPacketLoss(_ rate: Double, among devices: [DeviceID]) {
        for (index, a) in devices.enumerated() {
            for b in devices[(index + 1)...] { setPacketLoss(rate, between: a, and: b) }
        }
    }
}
