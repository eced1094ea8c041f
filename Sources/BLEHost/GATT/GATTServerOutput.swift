import BLEWire

/// A read or write the app answers, for an attribute whose value is ``GATTValue/dynamic``
/// (Core 5.4, Vol 3, Part F, §3.4.4 and §3.4.5). The server holds the client's request
/// until ``GATTServer/respond(to:with:)`` names this request's ``id``.
public struct GATTAppRequest: Hashable, Sendable {
    /// Names a request in ``GATTServer/respond(to:with:)``.
    public typealias ID = UInt64

    /// Unique within one server.
    public let id: ID
    /// The client's connection handle.
    public let connection: UInt16
    /// The attribute read or written.
    public let handle: ATT.Handle
    /// Its type: the characteristic's or descriptor's UUID.
    public let attributeType: BluetoothUUID
    /// Where the read starts or the write goes. A read is answered with the value from
    /// this offset on (the server cuts it to what fits); a write puts `value` here.
    public let offset: Int
    /// The octets to write; empty for a read.
    public let value: [UInt8]
    /// Whether the client waits for the answer. A Write Command or Signed Write Command
    /// expects none: the server ignores any answer to it (§3.4.5.3).
    public let expectsResponse: Bool
    /// For the writes of one Execute Write Request (§3.4.6.3), which the app gets one after
    /// another: the first write's id and how many there are, so the app can take them as one
    /// batch (as Core Bluetooth's `didReceiveWrite` does); `nil` for any other request.
    public internal(set) var batch: Batch? = nil

    /// The writes of one Execute Write Request, named by the first one's id.
    public struct Batch: Hashable, Sendable {
        /// The id of the batch's first write.
        public let first: ID
        /// How many writes the batch has.
        public let count: Int
    }
}

/// A client's subscription, from its Client Characteristic Configuration descriptor
/// (Core 5.4, Vol 3, Part G, §3.3.3.3).
public struct GATTSubscription: Hashable, Sendable {
    /// The client's connection handle.
    public let connection: UInt16
    /// The characteristic value's handle.
    public let valueHandle: ATT.Handle
    /// Notifications enabled (bit 0).
    public let notify: Bool
    /// Indications enabled (bit 1).
    public let indicate: Bool

    /// A subscription with every field.
    public init(connection: UInt16, valueHandle: ATT.Handle, notify: Bool, indicate: Bool) {
        self.connection = connection
        self.valueHandle = valueHandle
        self.notify = notify
        self.indicate = indicate
    }
}

/// What a ``GATTServer`` asks of the layer around it.
public enum GATTServerOutput: Hashable, Sendable {
    /// Send this ATT PDU (a response or Error Response) on `connection`'s ATT bearer.
    case send(connection: UInt16, pdu: [UInt8])
    /// Ask the app for a dynamic value; answer with ``GATTServer/respond(to:with:)``.
    case appRead(GATTAppRequest)
    /// Hand a write of a dynamic value to the app; answer with ``GATTServer/respond(to:with:)``
    /// when ``GATTAppRequest/expectsResponse``.
    case appWrite(GATTAppRequest)
    /// A client changed its Client Characteristic Configuration for a characteristic.
    case subscriptionChanged(connection: UInt16, valueHandle: ATT.Handle, notify: Bool, indicate: Bool)
    /// A client's write changed a value the server holds (stored values, configuration
    /// descriptors, Client Supported Features), so the app can log or react.
    case valueWritten(connection: UInt16, handle: ATT.Handle, value: [UInt8])
    /// A client's Exchange MTU Request set ATT_MTU for `connection` (§3.4.2).
    case mtuChanged(connection: UInt16, mtu: Int)
    /// A client confirmed an indication (Handle Value Confirmation, §3.4.7.3): the bearer
    /// may send the next one.
    case indicationConfirmed(connection: UInt16)
}

/// What a server keeps about a bonded client across connections (Core 5.4, Vol 3, Part G,
/// §3.3.3.3: configurations persist across connections for bonded devices; Part H,
/// §2.4.5: the SignCounter). ``GATTServer/disconnected(_:)`` returns it; give it back
/// with ``GATTServer/restore(_:for:)`` when the bonded peer reconnects.
public struct GATTServerClientRecord: Hashable, Sendable {
    /// Client Characteristic Configuration values by characteristic value handle.
    public var clientConfigurations: [ATT.Handle: UInt16]
    /// The Client Supported Features octet (Part G, §7.2).
    public var clientSupportedFeatures: UInt8
    /// The peer's CSRK and the next SignCounter the server accepts, when signing is set up.
    public var signing: GATTServerSigningKey?

    /// A record with every field; empty by default.
    public init(clientConfigurations: [ATT.Handle: UInt16] = [:], clientSupportedFeatures: UInt8 = 0,
                signing: GATTServerSigningKey? = nil) {
        self.clientConfigurations = clientConfigurations
        self.clientSupportedFeatures = clientSupportedFeatures
        self.signing = signing
    }
}

/// A peer's Connection Signature Resolving Key as the server verifies with it (Core 5.4,
/// Vol 3, Part H, §2.4.5).
public struct GATTServerSigningKey: Hashable, Sendable {
    /// The peer's CSRK, as a 128-bit number.
    public var csrk: UInt128
    /// The smallest SignCounter the server still accepts: one more than the last accepted.
    public var nextCounter: UInt64

    /// A key with every field.
    public init(csrk: UInt128, nextCounter: UInt64) {
        self.csrk = csrk
        self.nextCounter = nextCounter
    }
}
