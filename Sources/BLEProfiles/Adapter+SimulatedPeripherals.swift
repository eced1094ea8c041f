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
                let configuration = ProfilePeripheral.Configuration(
                    name: port.name, address: port.address, profiles: port.profiles, intervalUnits: port.intervalUnits,
                    advertisingData: port.advertisingData, scanResponseData: port.scanResponseData)
                let peripheral = try await ProfilePeripheral.start(configuration, transport: port.transport,
                                                                   driver: port.configuration, clock: port.clock,
                                                                   pairingSeed: port.pairingSeed)
                whenClosing { await peripheral.stop() }
            }
        } catch {
            await close()
            throw AdapterError("The simulated world could not start its GATT devices: \(error).")
        }
    }
}
