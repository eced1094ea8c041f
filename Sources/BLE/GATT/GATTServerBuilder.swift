import BLEHost

/// A read of one of our characteristics' app-answered values (Core 5.4, Vol 3, Part F,
/// §3.4.4): answer with the value from ``offset`` on, or an ATT error code.
public struct GATTReadRequest: Hashable, Sendable {
    /// The client's connection handle.
    public let connection: UInt16
    /// Where the read starts: answer `value[offset...]` (Read Blob, §3.4.4.5); an offset
    /// past the end deserves `ATT.ErrorCode.invalidOffset`.
    public let offset: Int

    init(_ request: GATTAppRequest) {
        connection = request.connection
        offset = request.offset
    }
}

/// A write to one of our characteristics' app-answered values (§3.4.5).
public struct GATTWriteRequest: Hashable, Sendable {
    /// The client's connection handle.
    public let connection: UInt16
    /// Where `value` goes in the characteristic's value.
    public let offset: Int
    /// The octets written.
    public let value: [UInt8]
    /// Whether the client waits for the answer (Write Request) or not (Write Command).
    public let expectsResponse: Bool

    init(_ request: GATTAppRequest) {
        connection = request.connection
        offset = request.offset
        value = request.value
        expectsResponse = request.expectsResponse
    }
}

/// The app's answers for one characteristic.
struct GATTRequestHandlers: Sendable {
    var read: (@Sendable (GATTReadRequest) async -> Result<[UInt8], ATT.ErrorCode>)?
    var write: (@Sendable (GATTWriteRequest) async -> Result<Void, ATT.ErrorCode>)?
}

/// A descriptor of a ``Characteristic`` (Vol 3, Part G, §3.3.3).
public struct Descriptor: Sendable {
    let definition: GATTDescriptorDefinition

    /// A descriptor with a fixed value, readable by default.
    public init(_ uuid: BluetoothUUID, value: [UInt8], permissions: GATTPermissions = .readable) {
        definition = GATTDescriptorDefinition(uuid: uuid, permissions: permissions, value: .stored(value))
    }

    /// A Characteristic User Description (0x2901, §3.3.3.2): the value's name for people.
    public static func userDescription(_ text: String) -> Descriptor {
        Descriptor(BluetoothUUID(0x2901), value: Array(text.utf8))
    }
}

/// A characteristic of a ``Service`` on our GATT server (Vol 3, Part G, §3.3).
///
/// With a `value` the stack answers reads itself and stores permitted writes; with
/// `onRead`/`onWrite` the app answers, asynchronously. The Client Characteristic
/// Configuration descriptor is added for notify and indicate.
public struct Characteristic: Sendable {
    var definition: GATTCharacteristicDefinition
    let handlers: GATTRequestHandlers
    /// Whether reads and writes go to ``Peripheral/requests`` (see
    /// ``answeredByRequests(_:properties:permissions:subscriptionPermissions:descriptors:)``).
    var answersRequests = false

    /// A characteristic.
    /// - Parameters:
    ///   - uuid: its type.
    ///   - properties: what clients may do; `permissions` follow them when not given.
    ///   - permissions: what a client needs (encryption, authentication); a condition
    ///     alone (e.g. `[.readEncryptionRequired]`) allows the access under it.
    ///   - subscriptionPermissions: what subscribing needs besides what reading needs, e.g.
    ///     `.writeEncryptionRequired` for a value anyone reads but only a paired client has
    ///     notified (``GATTCharacteristicDefinition/subscriptionPermissions``).
    ///   - value: a value the stack holds; `nil` with handlers for one the app answers.
    ///   - descriptors: more descriptors (e.g. ``Descriptor/userDescription(_:)``).
    ///   - onRead: answers reads with the value from the request's offset on.
    ///   - onWrite: takes writes; return a failure to refuse one with that ATT error.
    public init(_ uuid: BluetoothUUID, properties: GATTCharacteristicProperties, permissions: GATTPermissions? = nil,
                subscriptionPermissions: GATTPermissions = [], value: [UInt8]? = nil, descriptors: [Descriptor] = [],
                onRead: (@Sendable (GATTReadRequest) async -> Result<[UInt8], ATT.ErrorCode>)? = nil,
                onWrite: (@Sendable (GATTWriteRequest) async -> Result<Void, ATT.ErrorCode>)? = nil) {
        var derived: GATTPermissions = []
        if properties.contains(.read) { derived.insert(.readable) }
        if !properties.isDisjoint(with: [.write, .writeWithoutResponse, .authenticatedSignedWrites]) { derived.insert(.writeable) }
        let dynamic = value == nil && (onRead != nil || onWrite != nil)
        definition = GATTCharacteristicDefinition(
            uuid: uuid, properties: properties, permissions: permissions ?? derived,
            value: dynamic ? .dynamic : .stored(value ?? []), descriptors: descriptors.map(\.definition),
            subscriptionPermissions: subscriptionPermissions)
        handlers = GATTRequestHandlers(read: onRead, write: onWrite)
    }

    /// A characteristic whose value the app answers through ``Peripheral/requests``, one
    /// request at a time with an explicit answer, as Core Bluetooth's
    /// `peripheralManager(_:didReceiveRead:)` and `respond(to:withResult:)` do.
    /// - Parameters:
    ///   - uuid: its type.
    ///   - properties: what clients may do; `permissions` follow them when not given.
    ///   - permissions: what a client needs (encryption, authentication).
    ///   - subscriptionPermissions: what subscribing needs besides what reading needs.
    ///   - descriptors: more descriptors.
    public static func answeredByRequests(
        _ uuid: BluetoothUUID, properties: GATTCharacteristicProperties, permissions: GATTPermissions? = nil,
        subscriptionPermissions: GATTPermissions = [], descriptors: [Descriptor] = []
    ) -> Characteristic {
        var characteristic = Characteristic(uuid, properties: properties, permissions: permissions,
                                            subscriptionPermissions: subscriptionPermissions, descriptors: descriptors)
        characteristic.definition.value = .dynamic
        characteristic.answersRequests = true
        return characteristic
    }
}

/// A service on our GATT server (Vol 3, Part G, §3.1), declared with a builder:
///
/// ```swift
/// try await device.peripheral.publish {
///     Service(BluetoothUUID(0x180F)) {
///         Characteristic(BluetoothUUID(0x2A19), properties: [.read, .notify], value: [100])
///     }
/// }
/// ```
public struct Service: Sendable {
    let uuid: BluetoothUUID
    let isPrimary: Bool
    let includes: [BluetoothUUID]
    let characteristics: [Characteristic]

    /// A service and its characteristics.
    public init(_ uuid: BluetoothUUID, primary: Bool = true, includes: [BluetoothUUID] = [],
                @CharacteristicBuilder _ characteristics: () -> [Characteristic]) {
        self.uuid = uuid
        isPrimary = primary
        self.includes = includes
        self.characteristics = characteristics()
    }

    var definition: GATTServiceDefinition {
        GATTServiceDefinition(uuid: uuid, isPrimary: isPrimary, includes: includes, characteristics: characteristics.map(\.definition))
    }
}

/// Collects ``Characteristic``s in a ``Service``.
@resultBuilder
public enum CharacteristicBuilder {
    /// One characteristic.
    public static func buildExpression(_ characteristic: Characteristic) -> [Characteristic] { [characteristic] }
    /// Several in order.
    public static func buildBlock(_ parts: [Characteristic]...) -> [Characteristic] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [Characteristic]?) -> [Characteristic] { part ?? [] }
    /// Either branch of an `if`/`else`.
    public static func buildEither(first: [Characteristic]) -> [Characteristic] { first }
    /// Either branch of an `if`/`else`.
    public static func buildEither(second: [Characteristic]) -> [Characteristic] { second }
    /// A `for` loop.
    public static func buildArray(_ parts: [[Characteristic]]) -> [Characteristic] { parts.flatMap { $0 } }
}

/// Collects ``Service``s for ``Peripheral/publish(name:_:)``.
@resultBuilder
public enum ServiceBuilder {
    /// One service.
    public static func buildExpression(_ service: Service) -> [Service] { [service] }
    /// Several in order.
    public static func buildBlock(_ parts: [Service]...) -> [Service] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [Service]?) -> [Service] { part ?? [] }
    /// Either branch of an `if`/`else`.
    public static func buildEither(first: [Service]) -> [Service] { first }
    /// Either branch of an `if`/`else`.
    public static func buildEither(second: [Service]) -> [Service] { second }
    /// A `for` loop.
    public static func buildArray(_ parts: [[Service]]) -> [Service] { parts.flatMap { $0 } }
}

/// One of our published characteristics: what ``Peripheral/notify(_:to:on:)`` names.
public struct LocalCharacteristic: Hashable, Sendable {
    /// Its type.
    public let uuid: BluetoothUUID
    /// The service it is in.
    public let serviceUUID: BluetoothUUID
    /// The handle of its value.
    public let valueHandle: UInt16
    /// Its properties.
    public let properties: GATTCharacteristicProperties
}

/// What ``Peripheral/publish(name:_:)`` laid out: the database with its handles.
public struct PublishedGATT: Sendable {
    /// The whole database, the GAP and GATT services first.
    public let database: GATTDatabase

    /// Our characteristic of type `uuid` (in `service`, if given): the first one.
    public func characteristic(_ uuid: BluetoothUUID, in service: BluetoothUUID? = nil) -> LocalCharacteristic? {
        database.characteristics.first { $0.uuid == uuid && (service == nil || $0.serviceUUID == service) }.map {
            LocalCharacteristic(uuid: $0.uuid, serviceUUID: $0.serviceUUID, valueHandle: $0.valueHandle, properties: $0.properties)
        }
    }
}
