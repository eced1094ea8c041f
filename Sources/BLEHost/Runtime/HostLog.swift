import BLELogging
import Logging

/// The host's layer loggers (``BLELogging/BLELog``): what happened to which connection, at
/// the edges of the sans-IO cores; never per data packet (an HCI command is logged at
/// `debug`, a GATT procedure at `debug`, which cost a level comparison when off).
enum HostLog {
    /// Connections, advertising, scanning (`ble.gap`).
    static let gap = BLELog.logger("gap")
    /// Pairing and encryption (`ble.smp`).
    static let smp = BLELog.logger("smp")
    /// Commands sent (`debug`), commands that failed, the controller's start and failure (`ble.hci`).
    static let hci = BLELog.logger("hci")
    /// Channels opened, refused and closed (`ble.l2cap`).
    static let l2cap = BLELog.logger("l2cap")
    /// The ATT bearers: MTU exchanges, bearers closed.
    static let att = BLELog.logger("att")
    /// The GATT client's procedures and their failures.
    static let gatt = BLELog.logger("gatt")
}

extension Host {
    /// The metadata of a log line of this host: its label (`host`), and the connection
    /// handle and channel it is about, when it is about one.
    nonisolated func logMetadata(_ handle: UInt16? = nil, cid: UInt16? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        if !logLabel.isEmpty { metadata["host"] = "\(logLabel)" }
        if let handle { metadata["handle"] = "\(handle)" }
        if let cid { metadata["cid"] = "\(cid)" }
        return metadata
    }
}
