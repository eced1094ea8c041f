import BLELogging
import Logging

/// The host's layer loggers (``BLELogging/BLELog``): what happened to which connection, at
/// the edges of the sans-IO cores, never per packet.
enum HostLog {
    /// Connections, advertising, scanning (`ble.gap`).
    static let gap = BLELog.logger("gap")
    /// Pairing and encryption (`ble.smp`).
    static let smp = BLELog.logger("smp")
    /// Commands the controller did not answer (`ble.hci`).
    static let hci = BLELog.logger("hci")
    /// Channels opened, refused and closed (`ble.l2cap`).
    static let l2cap = BLELog.logger("l2cap")
}
