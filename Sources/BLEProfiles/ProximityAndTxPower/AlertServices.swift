import BLEHost
import BLEWire

/// The Immediate Alert Service (IAS 1.0, service 0x1802): one Alert Level, written with
/// Write Without Response (§3.1), that makes the device alert now. Nothing is read back;
/// the runtime passes each write to ``AlertLevel/validateWrite(_:)`` and alerts (a write
/// command gets no error response, so reserved levels are simply ignored).
public struct ImmediateAlertService: Hashable, Sendable {
    /// The Immediate Alert Service's UUID.
    public static let uuid: BluetoothUUID = 0x1802

    /// An immediate-alert service.
    public init() {}

    /// The service: Alert Level, write without response only.
    public var definition: GATTServiceDefinition {
        GATTServiceDefinition(uuid: Self.uuid, characteristics: [
            AlertLevel.characteristic(properties: .writeWithoutResponse, permissions: .writeable, value: .dynamic),
        ])
    }
}

/// The Link Loss Service (LLS 1.0, service 0x1803): one Alert Level, read and written
/// (§3.1), saying how the device alerts when the link is lost. Its value is stored; a
/// runtime checks writes with ``AlertLevel/validateWrite(_:)`` and, on a disconnection
/// other than a local one, alerts at the stored level (LLS §4.2).
public struct LinkLossService: Hashable, Sendable {
    /// The Link Loss Service's UUID.
    public static let uuid: BluetoothUUID = 0x1803

    /// The level before any client writes one.
    public var alertLevel: AlertLevel

    /// A link-loss service; no alert by default.
    public init(alertLevel: AlertLevel = .noAlert) {
        self.alertLevel = alertLevel
    }

    /// The service: Alert Level, read and write, stored, one octet.
    public var definition: GATTServiceDefinition {
        GATTServiceDefinition(uuid: Self.uuid, characteristics: [
            AlertLevel.characteristic(properties: [.read, .write], permissions: .readWrite, value: .stored(alertLevel.encoded())),
        ])
    }
}
