import BLEHost

/// A service found on a peer's GATT server (Core 5.4, Vol 3, Part G, §4.4).
public struct RemoteService: Hashable, Sendable, CustomStringConvertible {
    /// The service's type.
    public let uuid: BluetoothUUID
    /// Primary, or secondary (reached only through an include).
    public let isPrimary: Bool
    /// The handles the service spans on the peer.
    public let handles: ClosedRange<UInt16>

    /// "service 180D (0x0010–0x0020)".
    public var description: String {
        "service \(uuid) (0x\(String(handles.lowerBound, radix: 16))–0x\(String(handles.upperBound, radix: 16)))"
    }
}

/// A characteristic found on a peer, with its descriptors (Vol 3, Part G, §4.6–§4.7).
public struct RemoteCharacteristic: Hashable, Sendable, CustomStringConvertible {
    /// The characteristic's type.
    public let uuid: BluetoothUUID
    /// What the peer says a client may do with the value.
    public let properties: GATTCharacteristicProperties
    /// The handle of its value: what reads, writes and notifications name.
    public let valueHandle: UInt16
    /// The handle of its declaration.
    public let declarationHandle: UInt16
    /// Its descriptors, in handle order.
    public let descriptors: [RemoteDescriptor]

    /// Its Client Characteristic Configuration descriptor, present when it can notify or indicate.
    public var clientConfiguration: RemoteDescriptor? {
        descriptors.first { $0.uuid == GATTClient.clientCharacteristicConfigurationUUID }
    }

    /// "characteristic 2A37 (value 0x0012)".
    public var description: String { "characteristic \(uuid) (value 0x\(String(valueHandle, radix: 16)))" }
}

/// A descriptor found on a peer (Vol 3, Part G, §4.7.1).
public struct RemoteDescriptor: Hashable, Sendable {
    /// The descriptor's type.
    public let uuid: BluetoothUUID
    /// Its handle.
    public let handle: UInt16
}

/// How a value is written (Vol 3, Part G, §4.9), as Core Bluetooth's `CBCharacteristicWriteType`.
public enum GATTWriteType: Hashable, Sendable {
    /// Write Request (or Prepare/Execute Write when the value is longer than one PDU): the
    /// peer confirms, up to 512 octets.
    case withResponse
    /// Write Command: no confirmation, at most ATT_MTU − 3 octets, paced by the
    /// controller's buffers.
    case withoutResponse
    /// Signed Write Without Response (§4.9.2; Part H, §2.4.5): a Write Command carrying a
    /// signature made with the CSRK we gave the bonded peer and a sign counter that never
    /// repeats, so an unencrypted link still proves who wrote. At most ATT_MTU − 15
    /// octets; no confirmation. Core Bluetooth has no such write type.
    case signedWithoutResponse
}
