import BLEHost
import BLEStorage
import BLEWire

/// What happens while a serve file is served (``ServeRuntime``): what `ble serve` logs as
/// one JSON line each, and what a program serving a file can watch.
public enum ServeEvent: Sendable {
    /// A client connected.
    case connected(GAPConnection)
    /// A link closed, for the reason the controller gave.
    case disconnected(connection: UInt16, reason: HCI.StatusCode)
    /// A link was encrypted, or its key refreshed.
    case encrypted(connection: UInt16, LinkEncryption)
    /// A pairing completed or failed, or its bond could not be saved (the keeper's report).
    case pairing(BondKeeper.Event)
    /// A client read a dynamic value: what was answered, or the error.
    case read(ServeAccess)
    /// A client wrote a value: a dynamic one (with the error answered, if any), or one the
    /// stack stored itself.
    case write(ServeAccess)
    /// A client changed its Client Characteristic Configuration; `uuid` is the characteristic's.
    case subscribed(GATTSubscription, uuid: BluetoothUUID?)
    /// The ATT_MTU of a connection changed.
    case mtuChanged(connection: UInt16, mtu: Int)
    /// The ATT bearer of a connection closed for a reason other than a disconnection.
    case bearerClosed(connection: UInt16, reason: ATTBearerError)
    /// A stream (``ServeStream``) to one client ended: `count` values of `size` octets were
    /// sent as indications or notifications in `seconds`.
    case streamed(connection: UInt16, valueHandle: ATT.Handle, indications: Bool, count: Int, size: Int, seconds: Double)
}

/// One read or write of an attribute by a client.
public struct ServeAccess: Hashable, Sendable {
    /// The client's connection.
    public var connection: UInt16
    /// The attribute read or written.
    public var handle: ATT.Handle
    /// The attribute's type, when the database holds it.
    public var uuid: BluetoothUUID?
    /// Where in the value the access began.
    public var offset: Int
    /// The value answered or written; `nil` when a read was refused.
    public var value: [UInt8]?
    /// The ATT error answered, if any.
    public var error: ATT.ErrorCode?

    /// An access with every field.
    public init(connection: UInt16, handle: ATT.Handle, uuid: BluetoothUUID?, offset: Int, value: [UInt8]?, error: ATT.ErrorCode? = nil) {
        self.connection = connection
        self.handle = handle
        self.uuid = uuid
        self.offset = offset
        self.value = value
        self.error = error
    }

    /// The access `request` asked for, answered with `value` or `error`.
    init(_ request: GATTAppRequest, value: [UInt8]?, error: ATT.ErrorCode? = nil) {
        self.init(connection: request.connection, handle: request.handle, uuid: request.attributeType, offset: request.offset,
                  value: value, error: error)
    }
}
