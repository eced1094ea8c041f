import BLEWire

/// What the connections' ATT bearers report to the layers above (Core 5.4, Vol 3, Parts F
/// and G): values a peer server sent us, requests a peer client made of our server that the
/// app answers, and changes of a bearer's state. One stream, in order, nothing dropped.
public enum HostGATTEvent: Hashable, Sendable {
    /// A peer server notified a value (Handle Value Notification, or one entry of a
    /// Multiple Handle Value Notification; §3.4.7.1, §3.4.7.4).
    case notification(connection: UInt16, handle: ATT.Handle, value: [UInt8])
    /// A peer server indicated a value; the host has confirmed it (§3.4.7.2).
    case indication(connection: UInt16, handle: ATT.Handle, value: [UInt8])
    /// A peer server's Service Changed indication: rediscover this range (Part G, §7.1).
    case serviceChanged(connection: UInt16, handles: ClosedRange<ATT.Handle>)
    /// ATT_MTU of a connection changed after an Exchange MTU in either direction (§3.4.2).
    case mtuChanged(connection: UInt16, mtu: Int)
    /// A peer client reads a dynamic value of our server: answer with
    /// ``Host/respond(to:with:)``.
    case readRequest(GATTAppRequest)
    /// A peer client writes a dynamic value of our server: answer with
    /// ``Host/respond(to:with:)`` when ``GATTAppRequest/expectsResponse``.
    case writeRequest(GATTAppRequest)
    /// A peer client changed its Client Characteristic Configuration (Part G, §3.3.3.3).
    case subscriptionChanged(GATTSubscription)
    /// A peer client's write changed a value our server stores.
    case valueWritten(connection: UInt16, handle: ATT.Handle, value: [UInt8])
    /// A connection's bearer closed (a transaction timed out, §3.3.3); nothing more is
    /// sent or received on it until the link is disconnected and made again.
    case bearerClosed(connection: UInt16, reason: ATTBearerError)
}

/// One connection's ATT state in the host: its bearer, its GATT client, and the calls
/// waiting on them.
struct HostATTLink {
    var bearer: ATTBearer
    var client = GATTClient()
    /// ``Host/gatt(_:on:)`` calls by procedure.
    var procedures: [GATTProcedureID: CheckedContinuation<GATTClientResult, any Error>] = [:]
    /// ``Host/indicate(_:valueHandle:on:)`` calls by indication.
    var indications: [ATTIndicationID: CheckedContinuation<Void, any Error>] = [:]

    init(configuration: ATTBearerConfiguration) {
        bearer = ATTBearer(configuration: configuration)
    }
}
