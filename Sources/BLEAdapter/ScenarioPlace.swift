import BLEWorld

/// Where a host stands in an embedded world: the scenario, the scenario device whose
/// controller it drives, and the phone actions the scenario scripts for that device.
/// A simulated phone on the host follows them (`SimulatedPhone.followScenario()` in `BLE`).
public struct ScenarioPlace: Sendable {
    /// The scenario the world was built from, seed included.
    public let scenario: Scenario
    /// The name of the device the host drives (the first `host: external` device).
    public let deviceName: String
    /// The `app`, `bluetooth` and `screen` actions naming that device, each when the world's
    /// clock reaches its time. One reader.
    public let phoneActions: AsyncStream<ScenarioAction>
    /// The scenario's accessories (`host: external` devices with `program:`), each with the
    /// pipe to its controller, for the hosts that run their programs.
    public let accessories: [AccessoryPort]
    /// The displays of the scenario's GATT devices, where those with `security:` show their
    /// passkeys for the phone's user (``AccessoryDisplay``).
    public let displays: [AccessoryDisplay]

    /// The scenario's description of the device the host drives.
    public var device: ScenarioDevice? { scenario.device(named: deviceName) }
}
