import BLEController

extension World {
    /// Starts `device`'s ``BLEController/BeaconController`` advertising after `steps` more
    /// turns of the event queue at ``now``: one per HCI command its scripted host would have
    /// sent and waited for (each a host packet the world delivers at ``now`` behind what is
    /// already due, ``sendToController(_:device:)``), so its first advertising event is
    /// booked at the same place among the events due then as a ``BLEController/Controller``'s
    /// would be, and the world's results stay the same. Does nothing for a device that is
    /// off or runs another controller.
    func startBeacon(_ device: DeviceID, afterSteps steps: Int) {
        guard steps <= 0 else {
            schedule(at: now) { world in world.startBeacon(device, afterSteps: steps - 1) }
            return
        }
        guard deviceStates.indices.contains(device.rawValue) else { return }
        let state = deviceStates[device.rawValue]
        guard state.powered, var beacon = state.controller as? BeaconController else { return }
        beacon.startAdvertising(at: now)
        state.controller = beacon
        refreshTimer(device.rawValue)
    }
}
