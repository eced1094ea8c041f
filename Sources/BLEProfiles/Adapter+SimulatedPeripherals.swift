import BLEAdapter

extension Adapter {
    /// Starts a ``ProfilePeripheral`` on each of the embedded world's GATT devices
    /// (``Adapter/simulatedPeripherals``), stopped first when the adapter closes, so a
    /// program or `ble` command on `sim` finds the neighbourhood's strap and thermometer serving their
    /// standard services (BLEProfiles sits above the adapter, so the adapter itself starts
    /// nothing: DESIGN.md, "Layers"). On failure the adapter is closed and an ``AdapterError`` names
    /// the device (e.g. an unknown service name in a scenario's `gatt:` list).
    public func startSimulatedPeripherals() async throws {
        do {
            for port in simulatedPeripherals {
                let peripheral = try await port.startProfilePeripheral()
                whenClosing { await peripheral.stop() }
            }
        } catch {
            await close()
            throw AdapterError("The simulated world could not start its GATT devices: \(error).")
        }
    }
}

extension SimulatedPeripheralPort {
    /// What the ``ProfilePeripheral`` on this GATT device serves and advertises: its name,
    /// address, services, advertising interval and data. Its ``ProfilePeripheral/Configuration/services()``
    /// names an unknown service before anything starts.
    /// Its Security Manager's IO capability is the scenario's `security: {io}`, if any.
    public var profileConfiguration: ProfilePeripheral.Configuration {
        var configuration = ProfilePeripheral.Configuration(name: name, address: address, profiles: profiles, intervalUnits: intervalUnits,
                                                            advertisingData: advertisingData, scanResponseData: scanResponseData)
        configuration.ioCapability = ioCapability
        return configuration
    }

    /// Starts the ``ProfilePeripheral`` that serves this GATT device (``profileConfiguration``)
    /// on the port's pipe, driver configuration, clock and pairing seed; its passkeys go to
    /// the port's ``SimulatedPeripheralPort/display``.
    /// `Adapter.startSimulatedPeripherals()` and `ble sim run` start every GATT device this
    /// way, so it behaves the same wherever its world runs.
    /// - Throws: ``ProfilePeripheralError`` for an unknown service name, the host's errors
    ///   otherwise.
    public func startProfilePeripheral() async throws -> ProfilePeripheral {
        try await ProfilePeripheral.start(profileConfiguration, transport: transport, driver: configuration, clock: clock,
                                          pairingSeed: pairingSeed, display: { [display] in display.show($0) })
    }
}
