import BLEWire

/// A service found by primary service discovery (Core 5.4, Vol 3, Part G, §4.4).
public struct GATTDiscoveredService: Hashable, Sendable {
    /// The service's type.
    public var uuid: BluetoothUUID
    /// Its service declaration handle through its last handle (the end group handle).
    public var handles: ClosedRange<ATT.Handle>
    /// Whether it was found as a primary service (secondary ones are only reached through includes).
    public var isPrimary: Bool

    /// A service from its fields.
    public init(uuid: BluetoothUUID, handles: ClosedRange<ATT.Handle>, isPrimary: Bool = true) {
        self.uuid = uuid
        self.handles = handles
        self.isPrimary = isPrimary
    }
}

/// An include declaration found by Find Included Services (Core 5.4, Vol 3, Part G, §4.5.1).
public struct GATTDiscoveredIncludedService: Hashable, Sendable {
    /// The include declaration's own handle.
    public var declarationHandle: ATT.Handle
    /// The included service's type (read with a Read Request when it is a 128-bit UUID).
    public var uuid: BluetoothUUID
    /// The included service's handles, from its declaration to its end group handle.
    public var handles: ClosedRange<ATT.Handle>

    /// An included service from its fields.
    public init(declarationHandle: ATT.Handle, uuid: BluetoothUUID, handles: ClosedRange<ATT.Handle>) {
        self.declarationHandle = declarationHandle
        self.uuid = uuid
        self.handles = handles
    }
}

/// A characteristic found by characteristic discovery (Core 5.4, Vol 3, Part G, §4.6).
public struct GATTDiscoveredCharacteristic: Hashable, Sendable {
    /// The characteristic's type.
    public var uuid: BluetoothUUID
    /// The characteristic declaration's handle.
    public var declarationHandle: ATT.Handle
    /// The handle of the value attribute, which reads and writes address.
    public var valueHandle: ATT.Handle
    /// What the declaration says a client may do.
    public var properties: GATTCharacteristicProperties
    /// The characteristic's last handle: before the next declaration, or the service's end.
    /// Its descriptors lie between ``valueHandle`` and this.
    public var endHandle: ATT.Handle

    /// A characteristic from its fields.
    public init(uuid: BluetoothUUID, declarationHandle: ATT.Handle, valueHandle: ATT.Handle,
                properties: GATTCharacteristicProperties, endHandle: ATT.Handle) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.properties = properties
        self.endHandle = endHandle
    }
}

/// A descriptor found by Discover All Characteristic Descriptors (Core 5.4, Vol 3, Part G, §4.7.1).
public struct GATTDiscoveredDescriptor: Hashable, Sendable {
    /// The descriptor's type.
    public var uuid: BluetoothUUID
    /// Its handle.
    public var handle: ATT.Handle

    /// A descriptor from its fields.
    public init(uuid: BluetoothUUID, handle: ATT.Handle) {
        self.uuid = uuid
        self.handle = handle
    }

    /// Whether it is a Client Characteristic Configuration descriptor (0x2902, §3.3.3.3),
    /// the one to write to subscribe.
    public var isClientCharacteristicConfiguration: Bool { uuid == GATTClient.clientCharacteristicConfigurationUUID }
}

/// An attribute handle with a value: a result of Read Using Characteristic UUID, or one
/// write of a reliable write.
public struct GATTHandleValue: Hashable, Sendable {
    /// The attribute's handle.
    public var handle: ATT.Handle
    /// Its value.
    public var value: [UInt8]

    /// A pair from its fields.
    public init(handle: ATT.Handle, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

/// The Client Characteristic Configuration bits (Core 5.4, Vol 3, Part G, §3.3.3.3, Table 3.14).
public struct GATTClientCharacteristicConfiguration: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    /// Bits from the descriptor's value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The server notifies the value.
    public static let notification = Self(rawValue: 0x0001)
    /// The server indicates the value.
    public static let indication = Self(rawValue: 0x0002)

    /// The descriptor value to write: two octets, little-endian.
    public var value: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}

/// Why a GATT client procedure failed.
public enum GATTClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered with an Error Response (Core 5.4, Vol 3, Part F, §3.4.1.1):
    /// its code and the handle it named.
    case att(ATT.ErrorCode, handle: ATT.Handle)
    /// The server did not answer within the 30-second transaction timeout; the bearer is
    /// closed (Part F, §3.3.3).
    case timedOut
    /// The connection is gone.
    case disconnected
    /// The server's answer breaks the protocol: cannot be decoded, is empty where it may
    /// not be, goes backwards, or echoes a Prepare Write wrongly. Says what was wrong.
    case invalidResponse(String)
    /// The value does not fit one PDU at the current ATT_MTU; carries the limit.
    case valueTooLong(length: Int, maximum: Int)
    /// The procedure was asked with arguments it cannot carry out; says why.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case let .att(code, handle): return "the server answered \(code) for handle 0x\(String(handle, radix: 16, uppercase: true))"
        case .timedOut: return "the server did not answer within 30 seconds"
        case .disconnected: return "the connection is gone"
        case let .invalidResponse(reason): return "the server's response is invalid: \(reason)"
        case let .valueTooLong(length, maximum): return "a \(length)-octet value is longer than the \(maximum) octets that fit"
        case let .invalidRequest(reason): return "the request is invalid: \(reason)"
        }
    }

    /// The client error for a bearer error.
    public init(_ error: ATTBearerError) {
        switch error {
        case .timedOut: self = .timedOut
        case .disconnected: self = .disconnected
        case let .malformedResponse(wire): self = .invalidResponse(wire.description)
        case let .pduTooLong(length, mtu): self = .valueTooLong(length: length, maximum: mtu)
        case .wrongKindOfPDU, .mtuAlreadyExchanged: self = .invalidRequest(error.description)
        }
    }
}

/// Identifies one procedure started on a ``GATTClient``.
public struct GATTProcedureID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Sequence number, from 1, per client.
    public let rawValue: UInt64
    /// An identifier from its number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "procedure #\(rawValue)" }
}

/// What a successful procedure produced; which case depends on the procedure (see
/// ``GATTProcedure``).
public enum GATTClientResult: Hashable, Sendable {
    /// Exchange MTU: the ATT_MTU now in use.
    case mtu(Int)
    /// Primary service discovery.
    case services([GATTDiscoveredService])
    /// Find Included Services.
    case includedServices([GATTDiscoveredIncludedService])
    /// Characteristic discovery.
    case characteristics([GATTDiscoveredCharacteristic])
    /// Descriptor discovery.
    case descriptors([GATTDiscoveredDescriptor])
    /// Read, Read Long, and Read Multiple (the values concatenated, as the server sends them).
    case value([UInt8])
    /// Read Multiple Variable: one value per handle, in request order.
    case values([[UInt8]])
    /// Read Using Characteristic UUID: every matching handle with its value.
    case handleValues([GATTHandleValue])
    /// Write, Write Long, Reliable Writes, CCCD writes: the server accepted the write.
    case written
}

/// What the client tells the layer above.
public enum GATTClientEvent: Hashable, Sendable {
    /// A procedure ended, with its result or why it failed.
    case completed(GATTProcedureID, Result<GATTClientResult, GATTClientError>)
    /// A Handle Value Notification (or one value of a Multiple Handle Value Notification).
    case notification(handle: ATT.Handle, value: [UInt8])
    /// A Handle Value Indication. It is confirmed at once when the client is configured
    /// so, else when the host calls ``ATTBearer/confirmIndication()``.
    case indication(handle: ATT.Handle, value: [UInt8])
    /// The server indicated Service Changed (Core 5.4, Vol 3, Part G, §7.1): the
    /// attributes in this range may have changed and must be discovered again.
    case serviceChanged(ClosedRange<ATT.Handle>)
}

/// The client's answer to one input: bearer outputs the host must still act on (PDUs to
/// send, requests for the server, …) and events for the layer above, each in order.
public struct GATTClientStep: Hashable, Sendable {
    /// Bearer outputs the client did not consume: ``ATTBearerOutput/send(_:)`` goes to
    /// L2CAP, ``ATTBearerOutput/incomingRequest(_:)`` to the server, and so on.
    public var outputs: [ATTBearerOutput] = []
    /// Events for the layer above.
    public var events: [GATTClientEvent] = []
    /// An empty step.
    public init() {}
}

/// The client's fixed settings.
public struct GATTClientConfiguration: Hashable, Sendable {
    /// Whether the client confirms an indication as soon as it reports it (else the host
    /// confirms it with ``ATTBearer/confirmIndication()`` once the app took it).
    public var confirmsIndicationsAutomatically: Bool

    /// A configuration; indications confirmed automatically by default.
    public init(confirmsIndicationsAutomatically: Bool = true) {
        self.confirmsIndicationsAutomatically = confirmsIndicationsAutomatically
    }
}
