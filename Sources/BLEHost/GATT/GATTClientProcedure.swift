import BLEWire

/// A GATT client procedure (Core 5.4, Vol 3, Part G, §4) to run with
/// ``GATTClient/start(_:on:at:)``. Procedures run one after another; each ends with a
/// ``GATTClientEvent/completed(_:_:)`` carrying the ``GATTClientResult`` case named below.
public enum GATTProcedure: Hashable, Sendable {
    /// Exchange MTU (§4.3.1) with the bearer's configured receive MTU → ``GATTClientResult/mtu(_:)``.
    case exchangeMTU
    /// Discover All Primary Services (§4.4.1): Read By Group Type of 0x2800 from 0x0001
    /// until Attribute Not Found or handle 0xFFFF → ``GATTClientResult/services(_:)``.
    case discoverAllPrimaryServices
    /// Discover Primary Service by Service UUID (§4.4.2): Find By Type Value
    /// → ``GATTClientResult/services(_:)``.
    case discoverPrimaryServices(BluetoothUUID)
    /// Find Included Services (§4.5.1) within a service: Read By Type of 0x2802, and a Read
    /// of each included service declaration whose UUID is 128-bit
    /// → ``GATTClientResult/includedServices(_:)``.
    case findIncludedServices(in: ClosedRange<ATT.Handle>)
    /// Discover All Characteristics of a Service (§4.6.1): Read By Type of 0x2803
    /// → ``GATTClientResult/characteristics(_:)``.
    case discoverAllCharacteristics(in: ClosedRange<ATT.Handle>)
    /// Discover Characteristics by UUID (§4.6.2): all declarations are read, so each end
    /// handle is right, and those of this UUID kept → ``GATTClientResult/characteristics(_:)``.
    case discoverCharacteristics(BluetoothUUID, in: ClosedRange<ATT.Handle>)
    /// Discover All Characteristic Descriptors (§4.7.1) of a characteristic: Find
    /// Information after its value handle up to its end handle
    /// → ``GATTClientResult/descriptors(_:)`` (empty without asking when there is no room).
    case discoverAllDescriptors(of: GATTDiscoveredCharacteristic)
    /// Read Characteristic Value or Descriptor (§4.8.1, §4.12.1) → ``GATTClientResult/value(_:)``.
    case read(ATT.Handle)
    /// Read Long Characteristic Value or Descriptor (§4.8.3, §4.12.2): Read, then Read Blob
    /// while the parts fill ATT_MTU − 1 octets → ``GATTClientResult/value(_:)``.
    case readLong(ATT.Handle)
    /// Read Multiple Characteristic Values (§4.8.4), two or more handles
    /// → ``GATTClientResult/value(_:)`` (the values concatenated).
    case readMultiple([ATT.Handle])
    /// Read Multiple Variable Length Characteristic Values (§4.8.5), two or more handles;
    /// values the response cut short are completed with Read Blob
    /// → ``GATTClientResult/values(_:)``.
    case readMultipleVariable([ATT.Handle])
    /// Read Using Characteristic UUID (§4.8.2): Read By Type in the range until Attribute
    /// Not Found → ``GATTClientResult/handleValues(_:)`` (empty when nothing matches).
    case readUsingCharacteristicUUID(BluetoothUUID, in: ClosedRange<ATT.Handle>)
    /// Write Characteristic Value or Descriptor (§4.9.3, §4.12.3) with a Write Request;
    /// the value must fit ATT_MTU − 3 → ``GATTClientResult/written``.
    case write(ATT.Handle, [UInt8])
    /// Write Long Characteristic Value or Descriptor (§4.9.4, §4.12.4): Prepare Write
    /// Requests of ATT_MTU − 5 octets, each echo checked, then Execute Write; a wrong echo
    /// cancels the queue and fails → ``GATTClientResult/written``.
    case writeLong(ATT.Handle, [UInt8])
    /// Reliable Writes (§4.9.5): every value prepared (split as for Write Long), each echo
    /// checked, then one Execute Write → ``GATTClientResult/written``.
    case reliableWrite([GATTHandleValue])

    /// Writes a Client Characteristic Configuration descriptor (§3.3.3.3) to enable or
    /// disable notifications and indications (§4.10, §4.11).
    public static func configure(_ configuration: GATTClientCharacteristicConfiguration, descriptor handle: ATT.Handle) -> GATTProcedure {
        .write(handle, configuration.value)
    }

    /// Reads the GATT service's Database Hash (0x2B2A, §7.3) with Read Using Characteristic
    /// UUID, to check a cache against (see ``GATTCache/databaseHash(in:)``).
    public static let readDatabaseHash = GATTProcedure.readUsingCharacteristicUUID(GATTClient.databaseHashUUID, in: 0x0001 ... 0xFFFF)
}

/// What a running procedure wants next.
enum GATTProcedureStep: Sendable {
    /// Send this request and hand its response back.
    case request([UInt8])
    /// The procedure is over.
    case finish(Result<GATTClientResult, GATTClientError>)
}

/// A procedure in progress: it makes its first request, then takes each response.
protocol GATTProcedureMachine: Sendable {
    /// The first step, at ATT_MTU `mtu`.
    mutating func start(mtu: Int) -> GATTProcedureStep
    /// The step after the response to the last request (never an Error Response naming
    /// another request; the bearer matched it).
    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep
}

extension GATTProcedureStep {
    /// A request step from a PDU value.
    static func send(_ pdu: some ATTPDU) -> GATTProcedureStep { .request(pdu.encoded()) }
    /// A failed finish for an Error Response.
    static func failed(_ error: ATT.ErrorResponse) -> GATTProcedureStep {
        .finish(.failure(.att(error.errorCode, handle: error.attributeHandleInError)))
    }
    /// A failed finish for a response that breaks the protocol.
    static func invalid(_ reason: String) -> GATTProcedureStep { .finish(.failure(.invalidResponse(reason))) }
    /// A failed finish for a response of a type the request does not get.
    static func unexpected(_ response: ATT.PDU) -> GATTProcedureStep { .invalid("unexpected \(response.opcode) response") }
}
