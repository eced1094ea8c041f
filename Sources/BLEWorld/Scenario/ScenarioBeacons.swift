import BLEController
import BLEWire

/// How a scenario's plain beacons are run in a world: a ``BLEController/BeaconController``
/// each, driven by the world, or a ``BLEController/Controller`` each set up over HCI by its
/// ``ScriptedHost``. Both give the same packets at the same times, so the same results
/// (`BeaconDrivingTests` compares them); the first skips the HCI, which a city of thousands
/// of beacons spends most of its time in otherwise (docs/world-benchmarks.md).
public enum ScenarioBeacons: Hashable, Sendable {
    /// A plain beacon runs a ``BLEController/BeaconController``, started where its host's
    /// setup would have ended.
    case direct
    /// Every advertising device runs a ``BLEController/Controller`` set up by its
    /// ``ScriptedHost``, as any host would over HCI.
    case throughHost
}

extension Scenario {
    /// Device `index`'s ``BLEController/BeaconController`` and the number of HCI commands its
    /// ``ScriptedHost`` would send before it advertises, or `nil` when the device is not a
    /// plain beacon: one whose scripted host only sets up legacy non-connectable advertising
    /// (ADV_NONCONN_IND, Core 5.4, Vol 6, Part B, §2.3.1.3) and leaves it on, that does
    /// nothing else (no scanning, observing, phone, gateway, copying or attack) and whose
    /// advertising no action turns off, restarts or changes (power, advertising, rotating
    /// Eddystone-EID data).
    func plainBeacon(index: Int, configuration: ControllerConfiguration) -> (controller: BeaconController, setupCommands: Int)? {
        let device = devices[index]
        guard device.host == .scripted, let advertising = device.advertising, advertising.kind == .nonconnInd,
              advertising.data.eddystoneEID == nil, device.scanning == nil, device.observing == nil,
              device.apps.isEmpty, device.phone == nil, device.program == nil, device.gateway == nil,
              device.copying == nil, device.attack == nil, device.gatt.isEmpty, !device.usesExtendedCommands,
              !actions.contains(where: { $0.action.changesAdvertising(of: device.name) }),
              let plan = try? device.advertisingPlan(), plan.scanResponseData == nil,
              let controller = BeaconController(configuration: configuration, parameters: plan.parameters,
                                                ownAddress: device.address, advertisingData: plan.advertisingData)
        else { return nil }
        let commands = ScriptedHost(plan: plan).setupCommands()
        // Reset, Set Event Mask, (Set Random Address,) parameters, data, enable: anything
        // else (a command that could not be encoded) is left to the full controller.
        guard commands.count == (plan.randomAddress == nil ? 5 : 6) else { return nil }
        return (controller, commands.count)
    }
}

extension ScenarioAction {
    /// Whether the action powers `device`, or turns its advertising on or off.
    func changesAdvertising(of device: String) -> Bool {
        switch self {
        case let .powerOff(name), let .powerOn(name), let .powerCycle(name),
             let .stopAdvertising(name), let .startAdvertising(name):
            return name == device
        default:
            return false
        }
    }
}
