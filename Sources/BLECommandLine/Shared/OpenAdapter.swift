import BLEAdapter
import BLEHost
import BLEProfiles

/// Opens the controller an `--hci` spec names for a command, with the world's log lines on
/// stderr, and starts the GATT devices of an embedded world (stopped by `Adapter.close()`);
/// an adapter failure becomes the command's one-sentence error.
func openAdapter(hci: String, seed: UInt64? = nil, snoop: String? = nil,
                 att: ATTBearerConfiguration = .init()) async throws -> Adapter {
    do {
        let adapter = try await Adapter.open(hci: hci, seed: seed, snoopPath: snoop, onLog: { printError($0) }, att: att)
        try await adapter.startSimulatedPeripherals()
        return adapter
    } catch let error as AdapterError {
        throw CommandFailure(error.description)
    }
}
