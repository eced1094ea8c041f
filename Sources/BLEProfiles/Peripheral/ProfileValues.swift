import BLEHost
import BLEWire

/// The dynamic values of a set of standard services published in one GATT database: what a
/// server answers to reads and writes the stack hands to the app, and the measurements it
/// notifies or indicates. Sans-IO (DESIGN.md): the time comes in as an argument and the
/// results go out as values; ``ProfilePeripheral`` carries them out on a host.
///
/// Stored values (Battery Level, Device Information, Body Sensor Location, ...) are the
/// GATT server's and never come here.
public struct ProfileValues: Sendable {
    /// The services served, in database order.
    public let services: [StandardService]
    /// The value handle of Heart Rate Measurement (HRS 1.0 §3.1), when served.
    public let heartRateMeasurementHandle: ATT.Handle?
    /// The value handle of Temperature Measurement (HTS 1.0 §3.1), when served.
    public let temperatureMeasurementHandle: ATT.Handle?
    /// The value handle of Intermediate Temperature (HTS 1.0 §3.3), when served.
    public let intermediateTemperatureHandle: ATT.Handle?
    /// The wearer whose heart the strap measures.
    public private(set) var heartRate: HeartRateSimulator
    private let database: GATTDatabase
    private var temperatureState: UInt64

    /// The values of `services` as laid out in `database`; `seed` makes the simulated
    /// heart and body temperature of one device repeat from run to run.
    public init(services: [StandardService], database: GATTDatabase, seed: UInt64) {
        self.services = services
        self.database = database
        heartRateMeasurementHandle = database.valueHandle(of: HeartRateMeasurement.uuid, inService: HeartRateService.uuid)
        temperatureMeasurementHandle = database.valueHandle(of: TemperatureMeasurement.uuid,
                                                            inService: HealthThermometerService.uuid)
        intermediateTemperatureHandle = database.valueHandle(of: TemperatureMeasurement.intermediateUUID,
                                                             inService: HealthThermometerService.uuid)
        heartRate = HeartRateSimulator(restingRate: 60 + Int(seed % 25), seed: seed)
        temperatureState = seed
    }

    /// The service and characteristic whose value is at `handle`.
    private func characteristic(at handle: ATT.Handle) -> (service: StandardService, uuid: BluetoothUUID)? {
        guard let characteristic = database.characteristic(valueHandle: handle),
              let service = services.first(where: { $0.uuid == characteristic.serviceUUID }) else { return nil }
        return (service, characteristic.uuid)
    }

    /// Answers a client's read of the dynamic value at `handle` (a ``GATTAppRequest``'s;
    /// Core 5.4, Vol 3, Part F, §3.4.4.3 and §3.4.4.5): Current Time from `unixMicroseconds`
    /// (CTS 1.1 §3.1), from `offset`; Invalid Offset (0x07) past the end. Nothing else
    /// dynamic is readable in the default definitions, so anything else is an Unlikely
    /// Error (0x0E).
    public func read(handle: ATT.Handle, offset: Int = 0, unixMicroseconds: Int64) -> Result<[UInt8], ATT.ErrorCode> {
        guard let (service, uuid) = characteristic(at: handle) else { return .failure(.unlikelyError) }
        switch (service, uuid) {
        case (.currentTime, CurrentTime.uuid):
            guard let time = CurrentTime(unixMicroseconds: unixMicroseconds) else { return .failure(.unlikelyError) }
            let value = time.encoded()
            guard (0 ... value.count).contains(offset) else { return .failure(.invalidOffset) }
            return .success(Array(value[offset...]))
        default:
            return .failure(.unlikelyError)
        }
    }

    /// Answers a client's write of `value` to the dynamic value at `handle`: checked by
    /// ``StandardService/validateWrite(to:value:)`` (the Heart Rate Control Point answers
    /// 0x80 to anything but 0x01, HRS 1.0 §3.3.1), and carried out when valid (0x01 resets
    /// Energy Expended). A successful write answers `.success([])`.
    public mutating func write(_ value: [UInt8], to handle: ATT.Handle) -> Result<[UInt8], ATT.ErrorCode> {
        guard let (service, uuid) = characteristic(at: handle) else { return .failure(.unlikelyError) }
        if case let .failure(error) = service.validateWrite(to: uuid, value: value) { return .failure(error) }
        if service == .heartRate, uuid == HeartRateControlPoint.uuid,
           case let .success(command) = HeartRateService.handleControlPoint(value) {
            heartRate.apply(command)
        }
        return .success([])
    }

    /// The next second's Heart Rate Measurement, encoded (HRS 1.0 §3.1.1), and the handle to
    /// notify it on; `nil` without the Heart Rate Service.
    public mutating func nextHeartRateMeasurement() -> (valueHandle: ATT.Handle, value: [UInt8])? {
        guard let handle = heartRateMeasurementHandle else { return nil }
        return (handle, heartRate.next().encoded())
    }

    /// The next body temperature, 36.5–37.2 °C to one decimal, time-stamped with
    /// `unixMicroseconds` (HTS 1.0 §3.1.1); `nil` without the Health Thermometer Service.
    public mutating func nextTemperature(unixMicroseconds: Int64) -> TemperatureMeasurement? {
        guard temperatureMeasurementHandle != nil else { return nil }
        temperatureState = temperatureState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let tenths = Double((temperatureState >> 33) % 8)
        return TemperatureMeasurement(celsius: 36.5 + tenths / 10,
                                      timestamp: CurrentTime(unixMicroseconds: unixMicroseconds)?.dateTime)
    }
}
