import BLEHost
import BLEWire

/// The standard services BLEProfiles defines, by name, so `ble serve` files and scenarios
/// can say `profile: battery` and get a default definition.
public enum StandardService: String, CaseIterable, Hashable, Sendable {
    /// Battery Service (0x180F).
    case battery
    /// Device Information Service (0x180A).
    case deviceInformation
    /// Heart Rate Service (0x180D).
    case heartRate
    /// Health Thermometer Service (0x1809).
    case healthThermometer
    /// Current Time Service (0x1805).
    case currentTime
    /// Immediate Alert Service (0x1802).
    case immediateAlert
    /// Link Loss Service (0x1803).
    case linkLoss
    /// Tx Power Service (0x1804).
    case txPower

    /// The service named `name`: camelCase (`heartRate`), kebab-case (`heart-rate`) or
    /// snake_case (`heart_rate`), any letter case; `nil` for an unknown name.
    public init?(name: String) {
        let key = String(name.lowercased().filter { $0 != "-" && $0 != "_" })
        guard let service = Self.allCases.first(where: { $0.rawValue.lowercased() == key }) else { return nil }
        self = service
    }

    /// The kebab-case name, e.g. `device-information`, as the CLI prints it.
    public var name: String {
        var text = ""
        for character in rawValue {
            if character.isUppercase { text += "-" + character.lowercased() } else { text.append(character) }
        }
        return text
    }

    /// The service's UUID.
    public var uuid: BluetoothUUID {
        switch self {
        case .battery: return BatteryService.uuid
        case .deviceInformation: return DeviceInformationService.uuid
        case .heartRate: return HeartRateService.uuid
        case .healthThermometer: return HealthThermometerService.uuid
        case .currentTime: return CurrentTimeService.uuid
        case .immediateAlert: return ImmediateAlertService.uuid
        case .linkLoss: return LinkLossService.uuid
        case .txPower: return TxPowerService.uuid
        }
    }

    /// The Device Information a SwiftBLE device reports when nothing else is said.
    public static let defaultDeviceInformation = DeviceInformationService(
        manufacturerName: "SwiftBLE", modelNumber: "ble serve", serialNumber: "0001", hardwareRevision: "sim",
        firmwareRevision: "1.0", softwareRevision: "1.0",
        pnpID: PnPID(vendorIDSource: .bluetoothSIG, vendorID: 0xFFFF, productID: 0x0001, productVersion: 0x0100))

    /// The service with its default configuration (each service type's defaults; Device
    /// Information from ``defaultDeviceInformation``).
    public var defaultDefinition: GATTServiceDefinition {
        switch self {
        case .battery: return BatteryService().definition
        case .deviceInformation: return Self.defaultDeviceInformation.definition
        case .heartRate: return HeartRateService().definition
        case .healthThermometer: return HealthThermometerService().definition
        case .currentTime: return CurrentTimeService().definition
        case .immediateAlert: return ImmediateAlertService().definition
        case .linkLoss: return LinkLossService().definition
        case .txPower: return TxPowerService().definition
        }
    }

    /// Checks a client's write to a characteristic of this service in its default
    /// configuration, beyond what the GATT server's permission and length checks cover: the
    /// Heart Rate Control Point (0x80 for unsupported commands), Alert Level (Out of Range
    /// for reserved levels) and Measurement Interval (its valid range). Other writes pass.
    /// The runtime calls it before storing or acting on a write and answers the error.
    public func validateWrite(to characteristic: BluetoothUUID, value: [UInt8]) -> Result<Void, ATT.ErrorCode> {
        switch (self, characteristic) {
        case (.heartRate, HeartRateControlPoint.uuid):
            return HeartRateService.handleControlPoint(value).map { _ in }
        case (.immediateAlert, AlertLevel.uuid), (.linkLoss, AlertLevel.uuid):
            return AlertLevel.validateWrite(value).map { _ in }
        case (.healthThermometer, MeasurementInterval.uuid):
            return HealthThermometerService().validateMeasurementIntervalWrite(value).map { _ in }
        case (.currentTime, CurrentTime.uuid):
            return CurrentTimeService().validateCurrentTimeWrite(value).map { _ in }
        default:
            return .success(())
        }
    }
}
