import BLEHost
import BLEWire

/// The Current Time Service (CTS 1.1, service 0x1805): Current Time, read and notified
/// (§3.1), optionally writeable; optionally Local Time Information (§3.2).
///
/// The Current Time value is dynamic: a runtime answers reads with
/// `CurrentTime(unixMicroseconds:utcOffsetSeconds:)` of its clock and notifies subscribers
/// when the time is adjusted (CTS §3.1.2.1), not every second.
public struct CurrentTimeService: Hashable, Sendable {
    /// The Current Time Service's UUID.
    public static let uuid: BluetoothUUID = 0x1805

    /// Whether a client may set the time (CTS §3.1: write is optional).
    public var currentTimeIsWriteable: Bool
    /// The local time zone; `nil` leaves Local Time Information out.
    public var localTimeInformation: LocalTimeInformation?

    /// A current-time service; read-only, UTC with no daylight saving by default.
    public init(currentTimeIsWriteable: Bool = false,
                localTimeInformation: LocalTimeInformation? = LocalTimeInformation(timeZone: 0, dstOffset: .standardTime)) {
        self.currentTimeIsWriteable = currentTimeIsWriteable
        self.localTimeInformation = localTimeInformation
    }

    /// The service definition.
    public var definition: GATTServiceDefinition {
        var characteristics = [
            GATTCharacteristicDefinition(uuid: CurrentTime.uuid,
                                         properties: currentTimeIsWriteable ? [.read, .notify, .write] : [.read, .notify],
                                         permissions: currentTimeIsWriteable ? .readWrite : .readable, value: .dynamic,
                                         maximumLength: CurrentTime.length),
        ]
        if let localTimeInformation {
            characteristics.append(GATTCharacteristicDefinition(uuid: LocalTimeInformation.uuid, properties: .read,
                                                                permissions: .readable,
                                                                value: .stored(localTimeInformation.encoded()), maximumLength: 2))
        }
        return GATTServiceDefinition(uuid: Self.uuid, characteristics: characteristics)
    }

    /// Answers a client's write of Current Time: the time to set, or the error — Write Not
    /// Permitted (0x03) when not writeable, Invalid Attribute Value Length (0x0D) unless ten
    /// octets, and Value Not Allowed (0x13) for a malformed value (CTS 1.1 §3.1.2.2 asks the
    /// server to ignore fields it cannot set; a malformed date is refused outright here).
    public func validateCurrentTimeWrite(_ value: [UInt8]) -> Result<CurrentTime, ATT.ErrorCode> {
        guard currentTimeIsWriteable else { return .failure(.writeNotPermitted) }
        guard value.count == CurrentTime.length else { return .failure(.invalidAttributeValueLength) }
        guard let time = try? CurrentTime(decoding: value) else { return .failure(.valueNotAllowed) }
        return .success(time)
    }
}
