import BLEHost
import BLETransport
import BLEWire
import BLEWorld

/// One GATT device of an embedded world (a scenario device with `gatt:`), ready for a host:
/// what it is, what it advertises, which standard services it serves, and the HCI pipe to
/// its controller. The adapter starts nothing on it; `BLEProfiles.ProfilePeripheral` is
/// the host that serves the services (DESIGN.md, "Layers": the adapter knows no profiles).
public struct SimulatedPeripheralPort: Sendable {
    /// The scenario device's name, e.g. "Polar H10 A1B2C3D4"; its GAP Device Name.
    public let name: String
    /// The address it advertises with; a random static one must be set by its host
    /// (Core 5.4, Vol 3, Part C, §10.8.1) before advertising.
    public let address: BluetoothAddress
    /// The advertising interval in units of 0.625 ms (Vol 4, Part E, §7.8.5).
    public let intervalUnits: UInt16
    /// Whether the advertising is connectable (ADV_IND); a scenario's GATT device always is.
    public let connectable: Bool
    /// The advertising data octets (at most 31), exactly as the scenario builds them.
    public let advertisingData: [UInt8]
    /// The scan response data octets (at most 31), empty when the scenario gives none.
    public let scanResponseData: [UInt8]
    /// The standard services to serve, by their `BLEProfiles` names, in order.
    public let profiles: [String]
    /// The HCI pipe to the device's controller.
    public let transport: any HostTransport
    /// The driver configuration a host on this port should use: the embedded world's
    /// patient command timeout (``Adapter/simulatedCommandTimeout``).
    public let configuration: HCIDriverConfiguration
    /// The clock a host on this port must keep time by: the world's simulation's.
    public let clock: any StackClock
    /// The seed of the pairing random values of a host on this port (``Host``'s
    /// `pairingSeed`), so a simulated run repeats.
    public let pairingSeed: UInt64?
    /// What the device's Security Manager brings to pairing (the scenario's `security:`);
    /// `nil`: its host's default, and it asks for no pairing.
    public let security: ScenarioSecurity?
    /// The device's display, where a host on this port shows its passkeys (``security``
    /// with a display) for the phone's user to read.
    public let display: AccessoryDisplay

    /// A port with every field.
    public init(name: String, address: BluetoothAddress, intervalUnits: UInt16, connectable: Bool, advertisingData: [UInt8],
                scanResponseData: [UInt8], profiles: [String], transport: any HostTransport,
                configuration: HCIDriverConfiguration, clock: any StackClock = WallClock(), pairingSeed: UInt64? = nil,
                security: ScenarioSecurity? = nil) {
        self.name = name
        self.address = address
        self.intervalUnits = intervalUnits
        self.connectable = connectable
        self.advertisingData = advertisingData
        self.scanResponseData = scanResponseData
        self.profiles = profiles
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.pairingSeed = pairingSeed
        self.security = security
        display = AccessoryDisplay(deviceName: name)
    }
}

extension SimulatedPeripheralPort {
    /// The IO capability of the device's Security Manager (Core 5.4, Vol 3, Part H, §2.3.2)
    /// as ``security`` names it; `nil` without `security:`.
    public var ioCapability: SMP.IOCapability? {
        security.map { security in
            switch security.io {
            case .noInputNoOutput: .noInputNoOutput
            case .displayOnly: .displayOnly
            case .displayYesNo: .displayYesNo
            }
        }
    }

    /// A port for `device`, whose controller-side end the caller wires to the world (packets
    /// from the device's controller in, ``InProcessTransport/ControllerEnd/packets`` out);
    /// `nil` for a device that does not advertise (a scenario's GATT device always does).
    static func make(device: ScenarioDevice, configuration: HCIDriverConfiguration, clock: any StackClock, pairingSeed: UInt64)
        throws(ScenarioError) -> (port: SimulatedPeripheralPort, controllerEnd: InProcessTransport.ControllerEnd)? {
        guard let plan = try device.advertisingPlan() else { return nil }
        let (hostEnd, controllerEnd) = InProcessTransport.makePair()
        let port = SimulatedPeripheralPort(
            name: device.name, address: device.address, intervalUnits: plan.parameters.advertisingIntervalMin,
            connectable: plan.parameters.advertisingType == .connectableUndirected, advertisingData: plan.advertisingData,
            scanResponseData: plan.scanResponseData ?? [], profiles: device.gatt, transport: HCIHostTransport(base: hostEnd),
            configuration: configuration, clock: clock, pairingSeed: pairingSeed, security: device.security)
        return (port, controllerEnd)
    }
}
