import BLEHost
import BLEWire

/// The Heart Rate Service (HRS 1.0, service 0x180D): a Heart Rate Measurement notified about
/// once a second (§3.1), an optional Body Sensor Location (§3.2), and a Heart Rate Control
/// Point when Energy Expended is supported (§3.3).
///
/// The service is data: a runtime notifies ``HeartRateMeasurement/encoded()`` every
/// ``notificationInterval`` to subscribers and passes control point writes to
/// ``handleControlPoint(_:)``; ``HeartRateSimulator`` makes plausible measurements.
public struct HeartRateService: Hashable, Sendable {
    /// The Heart Rate Service's UUID.
    public static let uuid: BluetoothUUID = 0x180D
    /// How often a sensor notifies a measurement (HRS 1.0 §3.1.1: about once a second), in µs.
    public static let notificationInterval: HostTime = 1_000_000

    /// Where the sensor is worn; `nil` leaves Body Sensor Location out.
    public var bodySensorLocation: BodySensorLocation?
    /// Whether measurements carry Energy Expended, which brings the Control Point (HRS §3.3:
    /// mandatory when Energy Expended is supported, excluded otherwise).
    public var supportsEnergyExpended: Bool

    /// A heart-rate service; worn on the chest and counting energy by default.
    public init(bodySensorLocation: BodySensorLocation? = .chest, supportsEnergyExpended: Bool = true) {
        self.bodySensorLocation = bodySensorLocation
        self.supportsEnergyExpended = supportsEnergyExpended
    }

    /// The service: Heart Rate Measurement (notify only, answered by the runtime), Body Sensor
    /// Location (read, stored) and Heart Rate Control Point (write, one octet, handled by
    /// ``handleControlPoint(_:)``).
    public var definition: GATTServiceDefinition {
        var characteristics = [
            GATTCharacteristicDefinition(uuid: HeartRateMeasurement.uuid, properties: .notify, permissions: [], value: .dynamic),
        ]
        if let bodySensorLocation {
            characteristics.append(GATTCharacteristicDefinition(uuid: BodySensorLocation.uuid, properties: .read,
                                                                permissions: .readable, value: .stored(bodySensorLocation.encoded()),
                                                                maximumLength: 1))
        }
        if supportsEnergyExpended {
            characteristics.append(GATTCharacteristicDefinition(uuid: HeartRateControlPoint.uuid, properties: .write,
                                                                permissions: .writeable, value: .dynamic, maximumLength: 1))
        }
        return GATTServiceDefinition(uuid: Self.uuid, characteristics: characteristics)
    }

    /// Answers a client's write to the Heart Rate Control Point (HRS 1.0 §3.3.1): the
    /// command to carry out, or the error to respond with — 0x80 Control Point value not
    /// supported for any value but 0x01, Invalid Attribute Value Length (0x0D) unless the
    /// value is one octet.
    public static func handleControlPoint(_ value: [UInt8]) -> Result<HeartRateControlPoint, ATT.ErrorCode> {
        guard value.count == 1 else { return .failure(.invalidAttributeValueLength) }
        guard let command = HeartRateControlPoint(rawValue: value[0]) else {
            return .failure(HeartRateControlPoint.valueNotSupported)
        }
        return .success(command)
    }
}
