import BLEController

extension World {
    /// A copy of `device`'s controller as it is now: for a test or a tool that reads its
    /// state (``BLEController/Controller/counters``, a ``BLEController/HostileController``'s
    /// attack), never to change it.
    public func controller(of device: DeviceID) -> any SimulatedController {
        deviceStates[device.rawValue].controller
    }
}
