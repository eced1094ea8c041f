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

/// A deterministic stand-in for a wearer: each call to ``next()`` gives the measurement of
/// the next second — a rate wandering around a resting value, RR-intervals that add up to
/// the second, and energy expended that grows until the control point resets it. A runtime
/// calls it every ``HeartRateService/notificationInterval``.
public struct HeartRateSimulator: Hashable, Sendable {
    /// The rate the simulation wanders around, in beats per minute.
    public var restingRate: Int
    /// Energy expended so far, in kilojoules (saturates at 0xFFFF, HRS §3.1.1.3).
    public private(set) var energyExpended: UInt16 = 0
    /// Whether measurements carry Energy Expended.
    public var reportsEnergyExpended: Bool
    private var state: UInt64
    private var joules: Int = 0
    private var second: Int = 0

    /// A simulation; the same `seed` gives the same measurements.
    public init(restingRate: Int = 70, reportsEnergyExpended: Bool = true, seed: UInt64 = 1) {
        self.restingRate = restingRate
        self.reportsEnergyExpended = reportsEnergyExpended
        state = seed
    }

    /// Carries out a control point command.
    public mutating func apply(_ command: HeartRateControlPoint) {
        switch command {
        case .resetEnergyExpended:
            energyExpended = 0
            joules = 0
        }
    }

    /// The measurement of the next second.
    public mutating func next() -> HeartRateMeasurement {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let wobble = Int((state >> 33) % 7) - 3
        second += 1
        let rate = max(30, min(220, restingRate + wobble + (second / 10) % 5))
        let beatUnits = 60 * 1024 / rate
        let beats = max(1, (1024 + beatUnits / 2) / beatUnits)
        // About 6 J per beat at rest: a rough figure, enough to make the counter move.
        joules += 6 * beats
        energyExpended = UInt16(min(joules / 1000, Int(UInt16.max)))
        return HeartRateMeasurement(heartRate: UInt16(rate), sensorContact: .detected,
                                    energyExpended: reportsEnergyExpended ? energyExpended : nil,
                                    rrIntervals: Array(repeating: UInt16(beatUnits), count: beats))
    }
}
