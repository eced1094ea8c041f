import BLE
import Foundation

extension CBCentralManager {
    /// How many peripherals a manager keeps before it forgets the ones nobody holds
    /// (docs/limits.md). A scan among phones that rotate their private addresses meets a new
    /// peer every few minutes per phone; without a bound the table grew for the life of the
    /// manager.
    static let knownPeripheralLimit = 1_024

    /// Makes room before a new peripheral joins ``known``: once the table holds
    /// ``knownPeripheralLimit``, every peripheral that is disconnected, not being connected,
    /// not bonded, and referenced by nothing but the table is forgotten.
    ///
    /// Nothing the app can observe changes: a peripheral the app holds (or its delegate,
    /// or a connection) is kept, so there is still one object per peer; a forgotten one
    /// comes back with the same identifier when next discovered (it is derived from the
    /// address), as Core Bluetooth's own cache ages out peers. Only
    /// ``retrievePeripherals(withIdentifiers:)`` no longer finds a forgotten, unbonded peer
    /// until it is discovered again.
    func makeRoomForKnownPeripheral(on device: BLEDevice) {
        guard known.count >= Self.knownPeripheralLimit else { return }
        for identifier in Array(known.keys) {
            // Checked in a call of its own, so no reference of ours is alive when the
            // table's is asked whether it is the only one.
            guard known[identifier].map({ Self.isIdle($0, on: device) }) == true else { continue }
            if isKnownUniquelyReferenced(&known[identifier]!) {
                known[identifier] = nil
                forgottenPeripherals += 1
            }
        }
    }

    /// Whether `peripheral` is disconnected, not being connected and not bonded.
    private static func isIdle(_ peripheral: CBPeripheral, on device: BLEDevice) -> Bool {
        peripheral.state == .disconnected && peripheral.connecting == nil && device.bondedPeerIdentifier(for: peripheral.address) == nil
    }

    /// How many peripherals the manager keeps now (for tests and diagnostics).
    var knownPeripheralCount: Int { known.count }
}
